import { illFormedTextAt } from './well-formed-text.js'
import { z } from 'zod'
import { UserInteractionError } from './errors.js'
import { optionSchema, questionSchema, REQUEST_KEYS } from './request-schema.js'
import type { AgentLike, AskUserQuestionItem, AskUserQuestionRequest } from './types.js'
import { describeUnknownFields, nearestKey, unknownFields, type UnknownField } from './unknown-fields.js'

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

/** What a person is told when the request has no questions at all (e.g. `{}`). */
export const NO_QUESTIONS_MESSAGE =
  'the request has no "questions": send at least one, like {"questions": [{"id": "deploy", "question": "Deploy now?", "options": [{"label": "Deploy"}, {"label": "Wait"}]}]}'

/**
 * Checks a request in the seam's order (SEAM.md): a pre-aborted signal, an
 * empty batch, a bad intent; then the bridge's own rules. A key the format
 * does not know is refused by name with the nearest known one ("unknown
 * field questions[0].multiselect — did you mean multiSelect?"): a misspelt
 * field silently ignored would change the question. Throws a
 * `UserInteractionError` whose message names the question and the problem.
 */
export function validateRequest(request: unknown): ValidRequest {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    fail('BAD_REQUEST', 'the request must be an object like {"questions": [{"id": "deploy", "question": "Deploy now?"}]}')
  }
  const { questions, agent, signal } = request as Record<string, unknown>

  if (signal !== undefined && !(signal instanceof AbortSignal)) fail('BAD_REQUEST', 'signal must be an AbortSignal')
  if (signal?.aborted) fail('ASK_ABORTED', 'the request was aborted before it was asked')
  const extra = unknownRequestKeys(request)
  if (extra.length > 0) fail('BAD_REQUEST', describeUnknownFields(extra))
  if (questions === undefined) fail('BAD_REQUEST', NO_QUESTIONS_MESSAGE)
  if (!Array.isArray(questions)) fail('BAD_REQUEST', '"questions" must be an array of questions, like [{"id": "deploy", "question": "Deploy now?"}]')
  if (questions.length === 0) fail('EMPTY_QUESTIONS', 'the request has no questions; add at least one')

  // Array.from: map() would keep the holes of a sparse array, and a hole is
  // no question (it must be reported, not skipped). Each question is parsed
  // once: the misspelt fields are read off the same result.
  const results = Array.from(questions as unknown[]).map((raw) => questionSchema.safeParse(raw))

  // Every misspelt field of every question in one message, so a person fixes them in one go.
  const unknown = results.flatMap((result, index) => (result.success ? [] : unknownFields(questionSchema, result.error.issues, ['questions', index])))
  if (unknown.length > 0) {
    // The intent is the seam's own check, so its unknown keys are a bad intent.
    const inIntent = unknown.every((field) => field.path.includes('intent'))
    fail(inIntent ? 'BAD_INTENT' : 'BAD_REQUEST', describeUnknownFields(unknown))
  }

  const parsed = results.map((result, index): ValidQuestion => {
    if (!result.success) {
      const issue = result.error.issues[0]
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
      const what = issue?.code === 'invalid_type' && issue.path.length === 0 ? 'must be an object' : `${where}${issue?.message ?? 'is malformed'}`
      fail('BAD_REQUEST', `${questionName((questions as unknown[])[index], index)}: ${what}`)
    }
    const { options = [], multiSelect = false, intent, ...rest } = result.data
    const question: ValidQuestion = { ...rest, options, multiSelect }
    if (intent) question.intent = intent as ValidQuestion['intent']
    return question
  })

  parsed.forEach((question, index) => checkIntent(question, index))
  parsed.forEach((question, index) => checkOwnRules(question, index))
  checkUniqueIds(parsed)

  const illFormed = illFormedTextAt({ questions, ...(agent !== undefined ? { agent: agentTextOf(agent) } : {}) })
  if (illFormed !== undefined) fail('BAD_REQUEST', `${illFormed} holds a lone surrogate (text that is not valid Unicode, like "\\ud800" alone): send the whole character or remove it`)

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

function unknownRequestKeys(request: object): UnknownField[] {
  return Object.keys(request)
    .filter((key) => !(REQUEST_KEYS as readonly string[]).includes(key))
    .map((key) => {
      const suggestion = nearestKey(key, REQUEST_KEYS)
      return { path: [key], key, known: REQUEST_KEYS, ...(suggestion ? { suggestion } : {}) }
    })
}

/** The fields no question knows, in every question of `questions` (an array; anything else has none). */
export function questionUnknownFields(questions: unknown): UnknownField[] {
  if (!Array.isArray(questions)) return []
  return Array.from(questions as unknown[]).flatMap((raw, index) => {
    const result = questionSchema.safeParse(raw)
    return result.success ? [] : unknownFields(questionSchema, result.error.issues, ['questions', index])
  })
}

/**
 * The request with only the fields this format knows, for callers that read
 * a harness's own objects the way the harness does (it ignores unknown extra
 * keys on items, SEAM.md): the cordis plugin. The agent and the signal are
 * kept as they are; anything malformed is left for `validateRequest` to name.
 */
export function knownFieldsOnly(request: AskUserQuestionRequest): AskUserQuestionRequest {
  if (typeof request !== 'object' || request === null || !Array.isArray(request.questions)) return request
  const copy: AskUserQuestionRequest = { questions: Array.from(request.questions as unknown[]).map(knownQuestionFields) as AskUserQuestionItem[] }
  if ('agent' in request) copy.agent = request.agent as AgentLike
  if ('signal' in request) copy.signal = request.signal as AbortSignal
  return copy
}

function knownQuestionFields(raw: unknown): unknown {
  const question = pick(raw, Object.keys(questionSchema.shape))
  if (question && Array.isArray(question.options)) question.options = Array.from(question.options as unknown[]).map((option) => pick(option, Object.keys(optionSchema.shape)) ?? option)
  return question ?? raw
}

function pick(raw: unknown, keys: string[]): Record<string, unknown> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined
  const source = raw as Record<string, unknown>
  return Object.fromEntries(keys.filter((key) => key in source).map((key) => [key, source[key]]))
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

/**
 * The agent's text that dsh-slack stores or shows (its id, title, model and
 * working directory), not the whole object: the harness passes its live
 * agent, whose session holds every event of the run and refers back to
 * itself, so walking all of it is slow and never ends.
 */
function agentTextOf(agent: unknown): unknown {
  if (typeof agent !== 'object' || agent === null) return agent
  const { id, title, options, session } = agent as Partial<Record<'id' | 'title' | 'options' | 'session', unknown>>
  const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined)
  return { id, title, options: { model: field(options, 'model') }, session: { header: { cwd: field(field(session, 'header'), 'cwd') } } }
}
