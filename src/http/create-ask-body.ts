import { z } from 'zod'
import { valueChecks } from '../config/config.js'
import { MAX_TIMEOUT_MS } from '../config/duration.js'
import type { AgentLike } from '../contract/index.js'
import { questionsSchema } from '../contract/request-schema.js'
import { describeUnknownFields, unknownFields } from '../contract/unknown-fields.js'
import { NO_QUESTIONS_MESSAGE, questionUnknownFields } from '../contract/validate-request.js'
import { policyInputSchema, type PolicyInput } from '../bridge/ask-policy.js'
import { ApiError } from './api-error.js'

const agentSchema = z
  .strictObject(
    {
      id: z.string({ error: 'agent.id must be a string' }).meta({ description: 'The agent\'s session id, shown on the message so people know who asks.' }),
      title: z.string({ error: 'agent.title must be a string' }).optional().meta({ description: 'What the agent is working on (e.g. "Refactor"), shown with the id.' }),
    },
    { error: 'agent must be an object like {"id": "session-1", "title": "Refactor"}' },
  )
  .meta({ id: 'Agent', description: 'Who is asking.' })

/**
 * `POST /v1/asks` (ARCHITECTURE.md, fixed): `{ questions, channel?, agent?:
 * { id, title? }, timeoutMs?, policy? }`, documented field by field. A key it does
 * not know is refused by name (a misspelt `timeoutMS` would otherwise be
 * dropped and the question never expire).
 */
export const createAskBodySchema = z
  .strictObject(
    {
      questions: questionsSchema,
      channel: z
        .string({ error: 'channel must be a string' })
        .superRefine((value, context) => {
          const problem = valueChecks.channel(value)
          if (problem) context.addIssue({ code: 'custom', message: `channel: ${problem}` })
        })
        .optional()
        .meta({ description: 'Where to ask: a channel id (C…/G…) or a user id (U…/W…, sent as a DM). Default: the service\'s SLACK_CHANNEL.', examples: ['C0123ABCDEF'] }),
      agent: agentSchema.optional(),
      timeoutMs: z
        .number({ error: 'timeoutMs must be a number of milliseconds' })
        .int('timeoutMs must be a whole number of milliseconds')
        .positive('timeoutMs must be positive')
        .max(MAX_TIMEOUT_MS, `timeoutMs must be at most 30 days (${MAX_TIMEOUT_MS})`)
        .optional()
        .meta({ description: 'Expire the question after this many milliseconds (status "expired", the message says so), at most 30 days. Default: DSH_SLACK_TIMEOUT, or never.', examples: [600000] }),
      policy: policyInputSchema.optional(),
    },
    { error: 'the request body must be a JSON object like {"questions": [...]}' },
  )
  .meta({ id: 'CreateAskRequest', title: 'Ask request', description: 'A request to ask people in Slack.' })

/**
 * What this layer checks: the envelope. The questions go to the bridge as
 * they are, so that an empty batch or a bad intent is refused with the
 * seam's own code (`EMPTY_QUESTIONS`, `BAD_INTENT`) and one message format.
 */
const envelopeSchema = createAskBodySchema.extend({ questions: z.unknown() })

export interface CreateAskBody {
  questions: unknown
  channel?: string
  agent?: AgentLike
  timeoutMs?: number
  policy?: PolicyInput
}

/**
 * The path of the first string holding a NUL character, if any
 * (`questions[0].question`). Iterative: a body may nest deeper than the stack.
 */
function nulPath(body: unknown): string | undefined {
  interface Step { value: unknown; key: string | number | undefined; parent: Step | undefined }
  const stack: Step[] = [{ value: body, key: undefined, parent: undefined }]
  while (stack.length > 0) {
    const step = stack.pop()!
    const { value } = step
    if (typeof value === 'string') {
      if (!value.includes('\u0000')) continue
      const parts: (string | number)[] = []
      for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) parts.unshift(at.key)
      return parts.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('')
    }
    if (typeof value !== 'object' || value === null) continue
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value)
    for (let index = entries.length - 1; index >= 0; index--) stack.push({ value: entries[index]![1], key: entries[index]![0], parent: step })
  }
  return undefined
}

/** Parses the body once, where it arrives; a malformed one is a 400 `BAD_REQUEST`. */
export function parseCreateAskBody(body: unknown): CreateAskBody {
  // Slack shows no NUL and PostgreSQL cannot store one: refused here, the same on every store.
  const nul = nulPath(body)
  if (nul !== undefined) throw badRequest(`${nul || 'the body'} contains a NUL character (\\u0000); remove it`)
  const result = envelopeSchema.safeParse(body)
  if (!result.success) {
    const unknown = unknownFields(createAskBodySchema, result.error.issues)
    // The questions' own misspellings too: all of them in one answer, not one per attempt.
    if (unknown.length > 0) throw badRequest(describeUnknownFields([...unknown, ...questionUnknownFields(isObject(body) ? body.questions : undefined)]))
    if (isObject(body) && body.questions === undefined) throw badRequest(NO_QUESTIONS_MESSAGE)
    throw badRequest(result.error.issues[0]?.message ?? 'the request body is malformed')
  }
  const { questions, channel, agent, timeoutMs, policy } = result.data
  if (questions === undefined) throw badRequest(NO_QUESTIONS_MESSAGE)
  const parsed: CreateAskBody = { questions }
  if (channel !== undefined) parsed.channel = channel
  if (agent !== undefined) parsed.agent = agent as AgentLike
  if (timeoutMs !== undefined) parsed.timeoutMs = timeoutMs
  if (policy !== undefined) parsed.policy = policy
  return parsed
}

function badRequest(message: string): ApiError {
  return new ApiError(400, 'BAD_REQUEST', message)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
