import type { AgentView, Outcome } from '../../blocks/view.js'
import type { AskUserQuestionAnswer, UserInteractionCode, ValidQuestion } from '../contract/index.js'
import type { Approval, AskPolicy, NewAskEvent } from './team-records.js'

/** Where an ask stands; the HTTP API reports it as is. */
export type AskStatus = 'pending' | 'answered' | 'cancelled' | 'aborted' | 'expired' | 'failed'

export type SettledStatus = Exclude<AskStatus, 'pending'>

/** The Slack message that shows an ask. */
export interface PostedMessage {
  channel: string
  ts: string
  permalink?: string
}

/**
 * Who waits for an ask. A service keeps its asks open across restarts; a
 * library process's asks die with it (their `ask()` promise is gone), so the
 * next start marks them expired.
 */
export type AskOwner = { kind: 'service' } | { kind: 'library'; pid: number; instance: string }

/** A tool permission request (relay), shown as an approval card. */
export interface ApprovalRequest {
  toolName: string
  reason?: string
  callId?: string
  /**
   * The call's arguments as the model wrote them (JSON text), when the relay
   * saw the call on the host's event stream. Untrusted, like all agent text.
   */
  arguments?: string
}

/**
 * A request relayed from a harness host. A replay of the request finds its
 * ask by `key`, and a person's answer given in Slack reaches the agent only
 * once the relay has delivered it (it calls `delivered`): until then the
 * card says the answer is being delivered.
 */
export interface RelayDelivery {
  /** `<host url>#<rpcId>`. */
  key: string
}

/**
 * The right to post an ask's card: the outbox's lease. Whoever holds it
 * until `until` is the only one that posts; once it runs out with the card
 * still unposted (its holder died mid-post), another instance may take it.
 */
export interface PostClaim {
  holder: string
  until: number
}

/** What asking for the post claim found: taken, held by another until then, or moot (posted, settled or gone). */
export type PostClaimResult = { kind: 'taken' } | { kind: 'held'; until: number } | { kind: 'moot' }

/**
 * The key a repeated request finds its ask by (the store's unique
 * `external_key`): the relay's and the HTTP API's never collide, because
 * every idempotency key starts with `http-idempotency:` and a relay key with
 * the host's URL.
 */
export function requestKeyOf(ask: Pick<AskRecord, 'idempotencyKey' | 'relayDelivery'>): string | undefined {
  return ask.relayDelivery?.key ?? ask.idempotencyKey
}

/**
 * The way an ask came in, as the operator assigned it: what every look-up
 * by agent-written text (an `agent.id`, a session, a title) is scoped by
 * first (decision 0090), so two teams whose agents pick the same session id
 * never reach each other's code channel, canvas or asks.
 * - `api-key`: `POST /v1/asks` with a named key (the `api_key` column);
 * - `host`: a relayed host's request (`relayDelivery.key` is `<host url>#<rpcId>`);
 * - `own`: the deployment's own processes: the library, the harness plugin,
 *   a service without keys (loopback only).
 */
export type AskDoor = { kind: 'api-key'; name: string } | { kind: 'host'; url: string } | { kind: 'own' }

/** The door of the library, the harness plugin and a service without keys. */
export const OWN_DOOR: AskDoor = { kind: 'own' }

/** The door an ask came through. */
export function doorOf(ask: Pick<AskRecord, 'apiKey' | 'relayDelivery'>): AskDoor {
  if (ask.apiKey !== undefined) return { kind: 'api-key', name: ask.apiKey }
  // A host's base URL has no `#` (its fragment is dropped), so the first one ends it.
  const key = ask.relayDelivery?.key
  if (key !== undefined) return { kind: 'host', url: key.slice(0, key.includes('#') ? key.indexOf('#') : key.length) }
  return OWN_DOOR
}

/**
 * A door as the stores' queries take it: the `api_key` column's value (null
 * for the other doors) and the prefix of a relayed request's key (null but
 * for a host), so SQLite and PostgreSQL filter the same way `doorOf` reads.
 */
export function doorColumns(door: AskDoor): { apiKey: string | null; hostPrefix: string | null } {
  return { apiKey: door.kind === 'api-key' ? door.name : null, hostPrefix: door.kind === 'host' ? `${door.url}#` : null }
}

/** Whether two doors are one. */
export function sameDoor(a: AskDoor, b: AskDoor): boolean {
  return a.kind === b.kind && (a.kind === 'api-key' ? a.name === (b as typeof a).name : a.kind === 'host' ? a.url === (b as typeof a).url : true)
}

/** How an ask was settled: written once, by whoever won the claim. */
export interface Settlement {
  status: SettledStatus
  /** What the message shows from now on. */
  outcome: Outcome
  /** For `answered` questions: the validated answer, labels exactly as given. */
  answer?: AskUserQuestionAnswer
  /** For approvals decided in Slack. */
  decision?: 'allowed-once' | 'rejected'
  /** For every status but `answered`: the seam's code and a sentence. */
  error?: { code: UserInteractionCode; message: string }
  /** A quorum's approvals, in order: every person who approved (the last one completed it). */
  approvals?: Approval[]
  /**
   * Whose words the answer carries besides the answerer's own: a plan
   * review's Request changes with the open comments of its canvas
   * (decision 0091). Set whenever the canvas was read, so the audit says
   * every time whose words went to the agent.
   */
  quoted?: QuotedWords
}

/** Other people's words in an answer, and the words left out of it. */
export interface QuotedWords {
  /** The people whose comments went to the agent with the answer. */
  from: string[]
  /** The people who commented but may not answer the ask, with how many of their comments were left out. */
  leftOut: { userId: string; comments: number }[]
}

/** Everything kept about one ask. Serialisable: it goes to SQLite (or Redis) as JSON. */
export interface AskRecord {
  id: string
  kind: 'question' | 'approval'
  /** The validated questions (empty for approvals). */
  questions: ValidQuestion[]
  approval?: ApprovalRequest
  agent?: AgentView
  /** The configured target: a channel id, or a user id for a DM. */
  target: string
  /** Set once the message is posted. */
  message?: PostedMessage
  status: AskStatus
  createdAt: number
  expiresAt?: number
  owner: AskOwner
  /**
   * `POST /v1/asks` with an `Idempotency-Key`: `http-idempotency:<api key>:<key>`
   * (the API key's name empty on a service without keys),
   * so a retried POST finds this ask instead of posting again. Nothing waits
   * for a delivery: the agent reads the settlement from the service itself.
   */
  idempotencyKey?: string
  /** Relay: a host's request, whose answer the relay still has to deliver to that host. */
  relayDelivery?: RelayDelivery
  /** The operator's rule the ask fell under (`policy explain`, the audit trail, `GET /v1/asks?rule=`). */
  rule?: string
  /** The name of the API key that sent it, when it came through the HTTP API. */
  apiKey?: string
  /** Quorum, approvers, reminders and escalation (approval-style asks; reminders for any ask). */
  policy?: AskPolicy
  settlement?: Settlement
  /** False until the message shows the settlement; lets a later start retry a failed update. */
  finalMessageShown?: boolean
}

/**
 * A pending ask without its questions, agent or body: who owns it (a
 * library process that may be gone), when it expires, where its message is
 * and who may answer it. What a read of every pending ask needs (the lease
 * sweep every few seconds, the Home tab on every refresh): a few hundred
 * bytes an ask instead of its whole record.
 */
export type PendingSummary = Pick<AskRecord, 'id' | 'createdAt' | 'owner' | 'expiresAt' | 'message' | 'policy'>

export type SettleResult = { won: true; record: AskRecord } | { won: false; record: AskRecord }

/** What a winning settle writes with it, in the same step (one statement on a networked store). */
export interface SettleAlso {
  /** The settlement's audit event. */
  event?: NewAskEvent
  /**
   * The right to update the message, taken for the winner: it shows the
   * settlement first. Taken only if the message is recorded: until it is,
   * the winner has nothing to update, and whoever records it (its poster)
   * must find the claim free to show the settlement.
   */
  messageClaim?: { holder: string; until: number }
  /**
   * False when the ask never had scheduled jobs (no reminder, no
   * escalation): a store that drops them in a statement of its own skips
   * it. Absent: they are looked for.
   */
  hasJobs?: boolean
  /**
   * The ask as the caller read it while it was pending. When the row still
   * holds it (the same message, the same approval arguments: nothing else
   * changes an open ask), a store may hand the winner back this copy with
   * the settlement instead of reading the row back (decision 0079). It
   * shares `known`'s and the settlement's objects: the caller must not
   * change them afterwards. Waiters still get a copy of their own.
   */
  known?: AskRecord
}
