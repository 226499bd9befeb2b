import type { EffectivePolicy } from '../policy/tighten.js'
import type { Person } from '../../blocks/view.js'
import type { AskRecord, AskStatus } from './ask-record.js'

/**
 * A team's rules for one approval-style ask (a plan review or a tool
 * approval), stored with the ask so every instance and every restart applies
 * the same rules: the effective policy the operator's rule and the request
 * made (defined in policy/, which produces it).
 */
export type AskPolicy = EffectivePolicy

/** One person's approval towards a quorum. */
export interface Approval {
  by: Person
  at: number
}

/** What adding an approval did: counted, already counted for this person, or too late (the ask is settled). */
export type ApprovalResult =
  | { kind: 'added'; approvals: Approval[] }
  | { kind: 'duplicate'; approvals: Approval[] }
  | { kind: 'closed'; record: AskRecord }

/** Something to do later for a still-pending ask: a reminder in its thread, or an escalation. */
export type JobKind = 'remind' | 'escalate'

export interface ScheduledJob {
  askId: string
  kind: JobKind
  /** Epoch ms when it is due. */
  dueAt: number
}

/**
 * What happened to an ask, as the audit trail records it. Question text and
 * answers appear only in `posted`/`answered` events, which only the
 * authenticated outputs (`/v1/asks/:id/events`, `dsh-slack audit`) show.
 */
export type AskEventType =
  | 'posted'
  | 'approved'
  | 'reminded'
  | 'escalated'
  | 'answered'
  | 'decided'
  | 'dismissed'
  | 'aborted'
  | 'expired'
  | 'stopped'
  | 'settled-elsewhere'
  | 'failed'
  | 'update-failed'
  /** Someone the ask does not allow clicked it; nothing changed (`by` names them). */
  | 'refused'
  /**
   * A choice on a carousel card of a batch, kept as that person's draft
   * (`detail`: `question`, `option`, indices); the batch settles once they
   * have one for every question (decision 0077).
   */
  | 'chose'

export const ASK_EVENT_TYPES = [
  'posted',
  'approved',
  'reminded',
  'escalated',
  'answered',
  'decided',
  'dismissed',
  'aborted',
  'expired',
  'stopped',
  'settled-elsewhere',
  'failed',
  'update-failed',
  'refused',
  'chose',
] as const satisfies readonly AskEventType[]

/** An event before the store gives it its place in the log. */
export interface NewAskEvent {
  askId: string
  type: AskEventType
  at: number
  /** Who acted, when a person did. */
  by?: Person
  /** What the event is about: where it was posted, the answer, the decision, Slack's error… */
  detail?: Record<string, unknown>
  /** The operator's rule the ask fell under. */
  rule?: string
  /** The API key that sent the ask, by name. */
  key?: string
}

/** A recorded event: `seq` orders the whole log (increasing, never reused). */
export interface AskEvent extends NewAskEvent {
  seq: number
}

/** A page of asks, newest first. */
export interface AskPage {
  asks: AskRecord[]
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string
}

export interface AskQuery {
  status?: AskStatus
  /** Only asks sent with this API key (by name). */
  key?: string
  /** Only asks that fell under this operator rule. */
  rule?: string
  /** Only asks created at or after this (epoch ms). */
  since?: number
  limit: number
  cursor?: string
}

/** Pending asks, counted in the store without reading their bodies (the caps of `POST /v1/asks`). */
export interface PendingCount {
  total: number
  /** Those sent with the key asked about (0 when no key was given). */
  forKey: number
}

export interface EventQuery {
  /** Only events at or after this (epoch ms). */
  since?: number
  /** Only events after this `seq` (paging). */
  afterSeq?: number
  limit: number
}

/** Cursors are opaque to callers: `createdAt` and id of the last ask of a page. */
/** The largest time a JavaScript Date can hold (±100,000,000 days from 1970), in ms. */
export const MAX_EPOCH_MS = 8.64e15

export function encodeAskCursor(record: Pick<AskRecord, 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.id])).toString('base64url')
}

export function decodeAskCursor(cursor: string): { createdAt: number; id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    // Only what encodeAskCursor makes: a whole epoch-ms time a Date can hold, and
    // an id without NUL. Anything else would reach the query and fail there
    // differently per store (PostgreSQL's bigint and text refuse what SQLite takes).
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && Math.abs(value[0] as number) <= MAX_EPOCH_MS && typeof value[1] === 'string' && value[1].length <= 200 && !value[1].includes('\u0000')) {
      return { createdAt: value[0] as number, id: value[1] }
    }
  } catch {
    // fall through: not one of ours
  }
  return null
}
