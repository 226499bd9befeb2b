import { z } from 'zod'
import { valueChecks } from '../config/config.js'
import type { AgentLike } from '../contract/index.js'
import { ApiError } from './api-error.js'

/**
 * `POST /v1/asks` (ARCHITECTURE.md, fixed): `{ questions, channel?, agent?:
 * { id, title? }, timeoutMs? }`. Only the envelope is checked here; the
 * questions go to the bridge as they are, so that an empty batch or a bad
 * intent is refused with the seam's own code (`EMPTY_QUESTIONS`, `BAD_INTENT`).
 * Unknown top-level keys are ignored, as the harness ignores them.
 */
const createAskBodySchema = z.object(
  {
    questions: z.unknown(),
    channel: z
      .string({ error: 'channel must be a string' })
      .superRefine((value, context) => {
        const problem = valueChecks.channel(value)
        if (problem) context.addIssue({ code: 'custom', message: `channel: ${problem}` })
      })
      .optional(),
    agent: z
      .looseObject({
        id: z.string({ error: 'agent.id must be a string' }),
        title: z.string({ error: 'agent.title must be a string' }).optional(),
      }, { error: 'agent must be an object like {"id": "session-1", "title": "Refactor"}' })
      .optional(),
    timeoutMs: z.number({ error: 'timeoutMs must be a number of milliseconds' }).int('timeoutMs must be a whole number of milliseconds').positive('timeoutMs must be positive').optional(),
  },
  { error: 'the request body must be a JSON object like {"questions": [...]}' },
)

export interface CreateAskBody {
  questions: unknown
  channel?: string
  agent?: AgentLike
  timeoutMs?: number
}

/** Parses the body once, where it arrives; a malformed one is a 400 `BAD_REQUEST`. */
export function parseCreateAskBody(body: unknown): CreateAskBody {
  const result = createAskBodySchema.safeParse(body)
  if (!result.success) throw new ApiError(400, 'BAD_REQUEST', result.error.issues[0]?.message ?? 'the request body is malformed')
  const { questions, channel, agent, timeoutMs } = result.data
  const parsed: CreateAskBody = { questions }
  if (channel !== undefined) parsed.channel = channel
  if (agent !== undefined) parsed.agent = agent as AgentLike
  if (timeoutMs !== undefined) parsed.timeoutMs = timeoutMs
  return parsed
}
