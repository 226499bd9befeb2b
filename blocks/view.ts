/**
 * The view-model the renderers take: plain data, no Slack SDK types, no
 * clock (times are passed in). The provider builds it from an ask record.
 * Everything under `questions` and `agent` is agent-written and untrusted.
 */

/** The bridge's own language for its words (buttons, status lines, modal titles). */
export type Locale = 'en' | 'zh-CN'

export interface OptionView {
  label: string
  description?: string
}

export interface QuestionView {
  id: string
  question: string
  /** Markdown. */
  detail?: string
  header?: string
  options: OptionView[]
  multiSelect: boolean
  /** A plan-review intent makes a plan card; an unknown kind renders the generic question. */
  intent?: { kind: string; approve?: string }
}

/** Who asked, read defensively from the harness's agent. */
export interface AgentView {
  /** Session id. */
  id?: string
  title?: string
  /** Working directory of the session. */
  cwd?: string
  model?: string
  /**
   * The harness host the request came from (the relay's `DSH_HOST_URL`
   * entry, without its scheme), when the relay serves several: a session id
   * alone does not say which host to open.
   */
  host?: string
}

/** A Slack user who acted. `name` is for status lines; mentions use the id (a trusted value from Slack). */
export interface Person {
  id: string
  name?: string
}

/** A question (or batch, or plan review) to show. */
export interface AskView {
  /** The store's id: goes into every action id (blocks/ids.ts). */
  askId: string
  locale: Locale
  questions: QuestionView[]
  agent?: AgentView
  /**
   * Whom to notify with the message, so phones buzz: a user id (U…/W…) or a
   * user-group id (S…). Trusted: it comes from configuration, never the agent.
   */
  mention?: string
  /** When the question expires (epoch ms), shown on the card. */
  expiresAt?: number
  /** A plan review needing several approvals: how many, and who approved so far. */
  quorum?: QuorumView
}

/** Progress towards a quorum, shown live on the card. */
export interface QuorumView {
  /** Distinct approvals needed (2–10). */
  required: number
  /** Who approved so far, in order (trusted: from Slack's payloads). */
  approvals: Person[]
}

/** A tool permission request relayed from a harness host. */
export interface ApprovalView {
  askId: string
  locale: Locale
  toolName: string
  reason?: string
  callId?: string
  /**
   * The call's arguments as the model wrote them (usually JSON text), when
   * the relay saw the call; absent: not seen (yet), and the card says so.
   * The relay fills them in later when they arrive after the card.
   */
  arguments?: string
  agent?: AgentView
  mention?: string
  expiresAt?: number
  quorum?: QuorumView
}

/** One settled answer, labels exactly as given. */
export interface AnswerView {
  id: string
  selected: string[]
  custom?: string
}

/**
 * How a relayed request ended outside Slack. Only what the host actually
 * reported (`question/resolved`, `approval/resolved`) may say "answered",
 * "cancelled", "allowed" or "rejected outside Slack"; `gone` is a request
 * the host no longer holds, and `undelivered` one that was answered in Slack
 * but gone by the time the answer reached the host.
 */
export type SettledElsewhereHow = 'answered' | 'cancelled' | 'allowed' | 'rejected' | 'gone' | 'undelivered'

/**
 * How a question ended: drives the message that replaces the controls.
 * `delivering` (shown, never stored): a relayed request settled in Slack
 * whose answer the host has not accepted yet, so the card must not say
 * "Answered by" (which means the host has it) but that it is on its way.
 */
export type Outcome =
  | { kind: 'answered'; by: Person; at: number; answers: AnswerView[]; approvedBy?: Person[]; delivering?: true }
  | { kind: 'dismissed'; by: Person; at: number; delivering?: true }
  /** The agent withdrew the question (its signal fired, or DELETE /v1/asks/:id). `byKey`: the API key whose DELETE did it (the audit names it; the card does not). */
  | { kind: 'aborted'; at: number; byKey?: string }
  | { kind: 'expired'; at: number }
  /** The service stopped with the question still open. */
  | { kind: 'stopped'; at: number }
  /**
   * Relay: settled outside Slack (the web UI, the agent) as the host reported
   * it, or no longer held by the host. `by`: for `undelivered`, whose answer
   * never reached the host.
   */
  | { kind: 'settled-elsewhere'; at: number; how: SettledElsewhereHow; by?: Person }
  /** Tool approval decided in Slack. */
  /** `approvedBy`: a quorum's approvers, in order (the last one is `by`). */
  | { kind: 'decided'; by: Person; at: number; decision: 'allowed-once' | 'rejected'; approvedBy?: Person[]; delivering?: true }
  /** Something went wrong after the click (e.g. the host refused the answer); never looks answered. */
  | { kind: 'failed'; at: number; reason: string }

export type OutcomeKind = Outcome['kind']
