import type { Logger } from '../log/logger.js'
import type { LedgerBucket, LedgerTurn, RateLedger } from '../store/rate-ledger.js'
import { gcraTerms } from './rate-bucket.js'
import type { RateRule } from './rate-rules.js'
import { TIMING } from './timing.js'

/** A rule's bucket in the shared ledger (turns a margin apart); none for an unlimited rule (nothing to share). */
export function ledgerBuckets(key: string, rule: RateRule): LedgerBucket[] {
  const { costMs, burstMs } = gcraTerms(rule)
  return costMs > 0 ? [{ key, costMs: costMs + TIMING.sharedRateMarginMs, burstMs }] : []
}

/**
 * This process's turns in the budget every instance on the Slack app shares
 * (a shared store's ledger). Without a ledger, or while it is unreachable,
 * the process paces alone on its own buckets.
 */
export class SharedTurns {
  readonly #ledger: RateLedger | undefined
  readonly #logger: Pick<Logger, 'warn'> | undefined
  #failing = false

  constructor(ledger?: RateLedger, logger?: Pick<Logger, 'warn'>) {
    this.#ledger = ledger
    this.#logger = logger
  }

  /** True when this process's own buckets are the whole of its pacing (no ledger, or it is unreachable). */
  get alone(): boolean {
    return !this.#ledger || this.#failing
  }

  /**
   * Takes a call's turn in the shared budget and waits for it: the
   * reservation is the turn (the call's one statement), so the call goes
   * out after the wait it gives. Returns the turn (with what the
   * instances learned of the budget); a ledger that fails (the database is
   * down) leaves pacing to this process's own buckets.
   */
  async turn(buckets: readonly LedgerBucket[], sleep: (ms: number) => Promise<void>): Promise<LedgerTurn> {
    if (!this.#ledger || buckets.length === 0) return { waitMs: 0 }
    let turn: LedgerTurn = { waitMs: 0 }
    try {
      turn = await this.#ledger.reserve(buckets)
      this.#failing = false
    } catch (error) {
      this.#trouble(error)
    }
    // A timer may fire up to a millisecond early (the event loop's clock is
    // truncated to whole ms), and a reserved turn cannot be checked again.
    if (turn.waitMs > 0) await sleep(Math.ceil(turn.waitMs) + 1)
    return turn
  }

  /**
   * Slack said 429: every instance holds these buckets for `forMs`, and
   * learns `learnedPerMinute` with its next turn. Awaited: a retry's own
   * turn must come after the pause.
   */
  async pause(buckets: readonly LedgerBucket[], forMs: number, learnedPerMinute?: number): Promise<void> {
    if (this.#ledger && buckets.length > 0) await this.#ledger.pause(buckets, forMs, learnedPerMinute).catch((error: unknown) => this.#trouble(error))
  }

  /** Said once per outage, not once per call. */
  #trouble(error: unknown): void {
    if (this.#failing) return
    this.#failing = true
    this.#logger?.warn(`the shared rate-limit budget is unreachable, so this instance paces Slack calls on its own: ${error instanceof Error ? error.message : String(error)}`)
  }
}
