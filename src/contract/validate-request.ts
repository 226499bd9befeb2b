import { z } from 'zod'
import { UserInteractionError } from './errors.js'
import type { AgentLike, AskUserQuestionItem, AskUserQuestionRequest } from './types.js'

/** A question after validation: options and multiSelect made explicit. */
export interface ValidQuestion extends AskUserQuestionItem {
  options: { label: string; description?: string }[]
  multiSelect: boolean
}

/** A request after validation: a fresh copy, never the caller's object. */
export interface ValidRequest {
  questions: ValidQuestion[]
  agent?: AgentLike
  signal?: AbortSignal
}

// Unknown extra keys are ignored (the harness adds its own); zod strips them
// from our copy and the caller's object is never touched.
const optionSchema = z.object({
  label: z.string({ error: 'option label must be a string' }),
  description: z.string({ error: 'option description must be a string' }).optional(),
})

const intentSchema = z.looseObject({
  kind: z.string({ error: 'intent.kind must be a string' }),
  approve: z.string({ error: 'intent.approve must be a string' }).optional(),
})

const questionSchema = z.object({
  id: z.string({ error: 'id must be a string' }),
  question: z.string({ error: 'question must be a string' }),
  detail: z.string({ error: 'detail must be a string' }).optional(),
  header: z.string({ error: 'header must be a string' }).optional(),
  options: z.array(optionSchema, { error: 'options must be an array' }).optional(),
  multiSelect: z.boolean({ error: 'multiSelect must be true or false' }).optional(),
  intent: intentSchema.optional(),
})

const agentSchema = z.looseObject({ id: z.string({ error: 'agent.id must be a string' }) })

function fail(code: 'BAD_REQUEST' | 'BAD_INTENT' | 'EMPTY_QUESTIONS' | 'ASK_ABORTED', message: string): never {
  throw new UserInteractionError(code, message)
}

function isBlank(text: string): boolean {
  return text.trim() === ''
}

/** A name for the question in messages: its id when it has a usable one, else its position. */
function questionName(raw: unknown, index: number): string {
  const id = (raw as { id?: unknown } | null)?.id
  return typeof id === 'string' && !isBlank(id) ? `question "${id}"` : `question ${index + 1}`
}

/**
 * Checks a request in the seam's order (SEAM.md): a pre-aborted signal, an
 * empty batch, a bad intent; then the bridge's own rules. Throws a
 * `UserInteractionError` whose message names the question and the problem.
 */
export function validateRequest(request: unknown): ValidRequest {
  if (typeof request !== 'object' || request === null) fail('BAD_REQUEST', 'the request must be an object with a "questions" array')
  const { questions, agent, signal } = request as Record<string, unknown>

  if (signal !== undefined && !(signal instanceof AbortSignal)) fail('BAD_REQUEST', 'signal must be an AbortSignal')
  if (signal?.aborted) fail('ASK_ABORTED', 'the request was aborted before it was asked')
  if (!Array.isArray(questions)) fail('BAD_REQUEST', 'the request needs a "questions" array')
  if (questions.length === 0) fail('EMPTY_QUESTIONS', 'the request has no questions; add at least one')

  // Array.from: map() would keep the holes of a sparse array, and a hole is
  // no question (it must be reported, not skipped).
  const parsed = Array.from(questions as unknown[]).map((raw, index): ValidQuestion => {
    const result = questionSchema.safeParse(raw)
    if (!result.success) {
      const issue = result.error.issues[0]
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
      const what = issue?.code === 'invalid_type' && issue.path.length === 0 ? 'must be an object' : `${where}${issue?.message ?? 'is malformed'}`
      fail('BAD_REQUEST', `${questionName(raw, index)}: ${what}`)
    }
    const { options = [], multiSelect = false, intent, ...rest } = result.data
    const question: ValidQuestion = { ...rest, options, multiSelect }
    if (intent) question.intent = intent as ValidQuestion['intent']
    return question
  })

  parsed.forEach((question, index) => checkIntent(question, index))
  parsed.forEach((question, index) => checkOwnRules(question, index))
  checkUniqueIds(parsed)

  const valid: ValidRequest = { questions: parsed }
  if (agent !== undefined) {
    const result = agentSchema.safeParse(agent)
    if (!result.success) fail('BAD_REQUEST', 'agent must be an object with a string "id"')
    // Keep the caller's agent object: it may be a harness class instance the
    // caller wants back, and we only ever read from it.
    valid.agent = agent as AgentLike
  }
  if (signal) valid.signal = signal
  return valid
}

function checkIntent(question: ValidQuestion, index: number): void {
  const intent = question.intent
  if (!intent) return
  const name = questionName(question, index)
  if (question.detail === undefined || isBlank(question.detail)) {
    const what = intent.kind === 'plan-review' ? ' (the plan in Markdown)' : ''
    fail('BAD_INTENT', `${name}: a "${intent.kind}" intent needs a detail${what}`)
  }
  // A kind this bridge does not know is shown as the generic question
  // (SEAM.md), so its `approve` is checked only when it has one; a plan
  // review must always name its approving option.
  if (intent.approve === undefined && intent.kind !== 'plan-review') return
  const labels = question.options.map((option) => option.label)
  if (intent.approve === undefined || !labels.includes(intent.approve)) {
    const offered = labels.length > 0 ? labels.map((label) => `"${label}"`).join(', ') : 'none'
    fail('BAD_INTENT', `${name}: intent.approve ${intent.approve === undefined ? 'is missing' : `"${intent.approve}" names none of the options`} (options: ${offered})`)
  }
  if (intent.kind === 'plan-review' && question.multiSelect) {
    fail('BAD_INTENT', `${name}: a plan review is a single decision; remove multiSelect`)
  }
}

function checkOwnRules(question: ValidQuestion, index: number): void {
  const name = questionName(question, index)
  if (isBlank(question.id)) fail('BAD_REQUEST', `${name}: id must not be blank`)
  if (isBlank(question.question)) fail('BAD_REQUEST', `${name}: the question text must not be blank`)
  const seen = new Set<string>()
  question.options.forEach((option, optionIndex) => {
    if (isBlank(option.label)) fail('BAD_REQUEST', `${name}: option ${optionIndex + 1} has a blank label`)
    if (seen.has(option.label)) fail('BAD_REQUEST', `${name}: option label "${option.label}" appears twice`)
    seen.add(option.label)
  })
}

function checkUniqueIds(questions: ValidQuestion[]): void {
  const seen = new Set<string>()
  for (const question of questions) {
    if (seen.has(question.id)) fail('BAD_REQUEST', `question "${question.id}": the id appears twice; question ids must be unique`)
    seen.add(question.id)
  }
}

/** True when the request is a plan review this bridge presents as a plan card. */
export function isPlanReview(question: AskUserQuestionItem): boolean {
  return question.intent?.kind === 'plan-review'
}

export type { AskUserQuestionRequest }
