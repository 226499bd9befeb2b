/**
 * Slack's rate-limit buckets shared by every process on one Slack app.
 * Slack counts calls per app and workspace, so instances that each paced
 * themselves to the whole budget would, together, exceed it and meet 429s
 * (wasted calls, growing with the number of instances).
 *
 * A bucket is a GCRA: `costMs` is what one call costs at the average rate,
 * `burstMs` how far ahead of now the bucket may run (the burst beyond the
 * first call). Only a shared store has one; a local store's process paces
 * alone with its in-memory buckets.
 */
export interface RateLedger {
  /**
   * Reserves one call in every named bucket at once and says how many
   * milliseconds to wait before sending it (0: now). The reservation holds
   * the slot for this caller, so it must then send after that wait. It is
   * the call's only statement: the call is charged when reserved, not again
   * when Slack answers (each turn is spaced TIMING.sharedRateMarginMs more
   * than the rule for that difference, and the instance's own bucket still
   * charges its calls at the answer).
   */
  reserve(buckets: readonly LedgerBucket[]): Promise<LedgerTurn>
  /**
   * Slack answered 429: nothing goes out of these buckets for `forMs`, and
   * then they start empty. `learnedPerMinute`: the budget the instance
   * learned from it, which every later reservation of these buckets returns.
   */
  pause(buckets: readonly LedgerBucket[], forMs: number, learnedPerMinute?: number): Promise<void>
}

/** A reserved turn. */
export interface LedgerTurn {
  /** Milliseconds to wait before sending (0: now). */
  waitMs: number
  /** The budget an instance last learned for these buckets from Slack's 429s, in calls a minute (decision 0045); absent: none yet. */
  learnedPerMinute?: number
}

export interface LedgerBucket {
  /** `chat.update`, `post:*` (workspace) or `post:<channel>`. */
  key: string
  costMs: number
  burstMs: number
}
