/**
 * The user-interaction seam's types, declared here exactly as the harness
 * declares them (shared/seeds/user-interaction.md). The harness is not on npm,
 * so these are structurally identical copies: a harness passes its own objects.
 * Wire-safe: no runtime imports.
 */

/** One selectable answer offered to the user. */
export interface AskUserQuestionOption {
  /** User-facing label; also the value the model reads back, so it returns verbatim. */
  label: string
  /** Optional extra context rendered by capable UIs. */
  description?: string
}

/**
 * A caller-declared presentation intent: the question IS a decision of this
 * shape. It shapes presentation only; the answer encoding is the same either way.
 */
export type AskUserQuestionIntent = {
  /** A plan submitted for review: `detail` holds the plan Markdown. */
  kind: 'plan-review'
  /** The option label that approves the plan; every other option declines it. */
  approve: string
}

/** One question in a user-interaction request. */
export interface AskUserQuestionItem {
  /** Stable caller-provided question id, echoed in the answer. */
  id: string
  /** The question to display. */
  question: string
  /** Optional supporting detail (Markdown) rendered with the question. */
  detail?: string
  /** Optional short heading/group label. */
  header?: string
  /** Optional choices the UI can render as a menu. */
  options?: AskUserQuestionOption[]
  /** Whether more than one option may be selected. Defaults to single-select. */
  multiSelect?: boolean
  /** Optional presentation intent; absent asks for the generic option list. */
  intent?: AskUserQuestionIntent
}

/**
 * The calling agent, typed structurally: a harness `Agent` has an `id` (the
 * session id) and, optionally, model options and a session header. Everything
 * beyond `id` is read defensively, and extra fields are welcome.
 *
 * Deliberately no index signatures (`[key: string]: unknown`): TypeScript never
 * gives interfaces and class instances an implicit index signature, so one
 * here would reject the harness's own `Agent` class at compile time.
 */
export interface AgentLike {
  /** The session id. */
  id: string
  /** A display title, when the caller has one (the HTTP API accepts it). */
  title?: string
  /** The harness's agent options; `model` names the model in the context line. */
  options?: { model?: unknown }
  /** The harness's session; its header says where and since when the agent runs. */
  session?: { header?: { cwd?: unknown; createdAt?: unknown } }
}

/** Request for a human answer. */
export interface AskUserQuestionRequest {
  /** Questions to display. */
  questions: AskUserQuestionItem[]
  /** Calling agent, when the request came from an agent tool call. */
  agent?: AgentLike
  /** Abort signal for the owning tool/step. */
  signal?: AbortSignal
}

/** Answer to one question. */
export interface AskUserQuestionAnswerItem {
  /** The answered question id. */
  id: string
  /** Selected option labels, exactly as given. Empty for custom or skipped. */
  selected: string[]
  /** Optional free-text "Other" answer; when present, `selected` is empty. */
  custom?: string
}

/** The human's answer. */
export interface AskUserQuestionAnswer {
  /** One item per question, in the request's order. */
  answers: AskUserQuestionAnswerItem[]
}

/** UI-side provider for user questions. */
export interface UserInteractionProvider {
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>
}
