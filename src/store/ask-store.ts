import type { AskLimits } from '../policy/operator-policy.js'
import type { AskDoor, AskRecord, PendingSummary, PostClaim, PostClaimResult, PostedMessage, SettleAlso, Settlement, SettleResult } from './ask-record.js'
import type { RateLedger } from './rate-ledger.js'
import type { HomeViewers } from './home-viewers.js'
import type { WatchOptions } from './settle-watchers.js'
import type { Approval, ApprovalResult, AskEvent, AskPage, AskQuery, EventQuery, NewAskEvent, PendingCount, ScheduledJob } from './team-records.js'

/**
 * Where asks live while they are open. The one rule every implementation
 * keeps: `settle` is an atomic claim, so however many payloads race for one
 * ask (twenty people, a double tap, two processes on one app token), exactly
 * one settles it and everyone else learns who did.
 *
 * Async throughout so a networked store can implement it: PostgreSQL
 * (several instances sharing one Slack app) settles with a conditional
 * `UPDATE … RETURNING` and announces settlements with NOTIFY.
 */
/** What `/healthz` calls the store. */
export type StoreKind = 'sqlite' | 'postgres' | 'memory'

export interface AskStore {
  /** What kind of store this is (`/healthz` says it). */
  readonly kind: StoreKind
  /** Whether the store answers now; `/healthz` is 503 while it does not. Never rejects. */
  ping(): Promise<boolean>
  /**
   * True when every process on the Slack app sees the same asks (a shared
   * database). A local store that does not know an ask cannot tell "closed"
   * from "posted by another process".
   */
  readonly shared?: boolean
  /** A shared store's rate-limit buckets: every process on the Slack app paces against the same budget. */
  readonly rateLedger?: RateLedger
  /**
   * A shared store: who has the app's Home tab open, kept where every
   * instance sees it. Absent on local stores, whose process keeps it in memory.
   */
  readonly homeViewers?: HomeViewers
  /**
   * Adds a new pending ask. Fails if the id or the external key is taken,
   * and with `PendingCapReached` when `caps` are given and one is reached
   * (counted in the same statement as the insert, without reading any body).
   * `postClaim`: the inserting instance holds the right to post the card
   * (see `claimPost`), taken in the same statement.
   */
  insert(record: AskRecord, caps?: AskLimits, postClaim?: PostClaim): Promise<void>
  get(id: string): Promise<AskRecord | undefined>
  /** The ask with this request key (`requestKeyOf`: a relayed request's, or a POST's idempotency key), if any. */
  findByExternalKey(key: string): Promise<AskRecord | undefined>
  /**
   * The newest asks of one agent session (`record.agent.id`) that came
   * through `door` (`doorOf`), newest first, at most `limit`: a session's
   * end finds its plan review's code channel from any instance (decision
   * 0078). The agent id is agent-written, so the door is part of the key
   * (decision 0090): another team's asks with the same id are never read.
   * Rare (once per session end), so not indexed: a scan of the asks the
   * store still holds.
   */
  newestOfAgent(door: AskDoor, agentId: string, limit: number): Promise<AskRecord[]>
  /**
   * Records where the ask's message was posted, and `event` (the audit
   * trail's `posted`) in the same step. Returns the ask as it stands now:
   * it may have settled while its message was being posted.
   *
   * `written`: the ask as the caller recorded it (or last read it, pending).
   * While the ask is still pending with the same approval arguments (the
   * only other thing that changes an open ask), what is stored is `written`
   * with the message, and a store may hand back `{ ...written, message }`
   * instead of reading the row back (decision 0079). It shares `written`'s
   * objects: the caller must not change them afterwards.
   */
  attachMessage(id: string, message: PostedMessage, event?: NewAskEvent, written?: AskRecord): Promise<AskRecord | undefined>
  /**
   * Relay: records a tool call's arguments that arrived after the approval
   * was posted, only while the approval is pending. True when recorded.
   */
  attachApprovalArguments(id: string, args: string): Promise<boolean>
  /**
   * Pending → settled, once. The loser gets the winner's record. The winner
   * also drops the ask's scheduled jobs and writes `also` in the same step.
   */
  settle(id: string, settlement: Settlement, also?: SettleAlso): Promise<SettleResult>
  /**
   * Takes (or renews) the right to post a pending ask's card until `until`,
   * unless its message is recorded already, it is settled, or another
   * holder's claim has not run out by `now` (then: when it does).
   */
  claimPost(id: string, holder: string, now: number, until: number): Promise<PostClaimResult>
  /** Marks that the message now shows the settlement. */
  markFinalMessageShown(id: string): Promise<void>
  /**
   * Takes the right to update the ask's message until `until`, unless
   * another holder has it and its claim has not run out by `now`. Two
   * processes rendering one ask take turns, so an update never overtakes a
   * later one (chat.update has no compare-and-set).
   */
  claimMessage(id: string, holder: string, now: number, until: number): Promise<boolean>
  /** Gives the claim back; `shown`: the message now shows the settlement. */
  releaseMessage(id: string, holder: string, shown: boolean): Promise<void>
  /**
   * Calls `listener` for asks with an expiry that other processes insert (a
   * shared store only), so every instance arms the timer and whichever is
   * alive expires the ask (the settle claim makes it once). Returns the
   * unsubscribe function.
   */
  onInsertedElsewhere?(listener: (ask: { id: string; expiresAt: number }) => void): () => void
  /**
   * Calls `listener` once when the ask is settled, by this process or
   * another. Returns the unsubscribe function; the listener is dropped after
   * it fires, so nothing accumulates over thousands of asks. A `readOnly`
   * listener may be given the settler's own record (no copy made for it).
   */
  watch(id: string, listener: (record: AskRecord) => void, options?: WatchOptions): () => void
  /** Every pending ask. */
  listPending(): Promise<AskRecord[]>
  /** The asks among `ids` that are still pending, whole, in one read (the Home tab's drawn asks), in any order. */
  listPendingAmong(ids: readonly string[]): Promise<AskRecord[]>
  /** Every pending ask, oldest first, without its questions, agent or body (the Home tab's read). */
  listPendingSummaries(): Promise<PendingSummary[]>
  /**
   * The pending asks the lease sweep may have to act on, as summaries, found
   * by index (decision 0104): each owned by a library process (its process
   * may be gone), each expiring by `armBy` (its timer is armed now), and each
   * recorded without its card whose post claim ran out by `now` (its poster
   * may have died). Any order, each once; every other pending ask costs the
   * sweep nothing, however many wait.
   */
  listSweepable(now: number, armBy: number): Promise<PendingSummary[]>
  /** Settled asks whose message does not show it yet (a failed update to retry). */
  listUnshownSettled(): Promise<AskRecord[]>
  /**
   * A library process renews its lease while it may wait on asks; another
   * process reads it to tell a waiting ask from one whose process is gone
   * (process ids mean nothing on another machine).
   */
  renewLease(instance: string, until: number): Promise<void>
  /** When `instance`'s lease runs out; undefined if it never held one (or ended it). */
  leaseUntil(instance: string): Promise<number | undefined>
  /** The instance stopped cleanly. */
  endLease(instance: string): Promise<void>
  /**
   * Counts one person's approval towards the ask's quorum: atomically, only
   * while the ask is pending, and once per person (by user id), however
   * many instances receive clicks.
   */
  addApproval(id: string, approval: Approval): Promise<ApprovalResult>
  /** The approvals so far, in the order they were given. */
  approvals(id: string): Promise<Approval[]>
  /** Schedules reminders/escalations (one of each kind per ask; a second schedule of a kind is ignored). */
  schedule(jobs: ScheduledJob[]): Promise<void>
  /**
   * Claims the jobs due at `now` whose ask is still pending, each exactly
   * once across every process sharing the store (a conditional update): the
   * caller that gets a job is the only one that ever will. Settling an ask
   * drops its unclaimed jobs.
   */
  claimDueJobs(now: number): Promise<ScheduledJob[]>
  /** Jobs not yet claimed (for tests and the doctor). */
  listScheduled(): Promise<ScheduledJob[]>
  /** Appends to the audit trail. Events are never changed or deleted, not even when their ask is pruned. */
  appendEvent(event: NewAskEvent): Promise<AskEvent>
  /** One ask's events, oldest first. */
  events(askId: string): Promise<AskEvent[]>
  /** Every ask's events in log order, for export. */
  listEvents(query: EventQuery): Promise<AskEvent[]>
  /** Asks, newest first, filtered and paged. */
  listAsks(query: AskQuery): Promise<AskPage>
  /** Pending asks in total and for one API key, counted without reading any ask's body. */
  countPending(key?: string): Promise<PendingCount>
  close(): Promise<void>
}
