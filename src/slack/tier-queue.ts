import type { LearnedBudget } from './learned-budget.js'
import { RateBucket } from './rate-bucket.js'
import { retryAfterOf } from './slack-call-error.js'
import { ledgerBuckets, type SharedTurns } from './shared-turns.js'
import { TIMING } from './timing.js'

/** Which queue of a per-method tier a call joins. */
export type UpdateLane =
  /** The first update of a settled ask: goes before any refresh waiting for the budget. */
  | 'settle'
  /** A refresh of an open card (a quorum's progress) or of a copy: after waiting settlements. */
  | 'refresh'

export interface TierQueueOptions {
  /** The method, as the shared ledger names its bucket (`chat.update`). */
  method: string
  budget: LearnedBudget
  shared: SharedTurns
  now: () => number
  sleep: (ms: number) => Promise<void>
}

interface TierJob {
  call: () => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  lane: UpdateLane
  /** Removes the job's abort listener once it leaves its lane. */
  release: () => void
}

/**
 * One per-method tier of Slack's (chat.update's Tier 3, views.publish's
 * Tier 4): calls wait in two lanes, settlements before refreshes, and go
 * out as the budget allows, without waiting for each other's answers. A
 * 429 pauses the whole method (and, through the shared ledger, every
 * instance) for Slack's Retry-After; the call goes back to the front of its
 * lane and is sent again after the pause, however long: none is lost, and
 * nothing is sent while Slack says 429. With a learning budget, the pause
 * also teaches it what Slack allows (decision 0045).
 */
export class TierQueue {
  readonly #lanes: Record<UpdateLane, TierJob[]> = { settle: [], refresh: [] }
  readonly #options: TierQueueOptions
  /** This process's own bucket: with a shared ledger it still adds when its own calls were answered. */
  readonly #bucket: RateBucket
  #draining = false
  #pausedUntil = -Infinity
  /** The learned budget the shared ledger last gave (adopted once each time it changes). */
  #sharedLearned: number | undefined
  /** 429s this process has met: a turn reserved before the latest one carries what the ledger knew before it. */
  #limits = 0
  /** Calls sent and not yet answered. */
  #inFlight = 0
  /** Wakes the drain loop waiting for a call in flight to be answered. */
  #slotFreed: (() => void) | undefined

  constructor(options: TierQueueOptions) {
    this.#options = options
    this.#bucket = new RateBucket(options.budget.rule())
  }

  /** Calls a minute the budget allows now (learned, or the documented figure). */
  get perMinute(): number {
    return this.#options.budget.perMinute
  }

  /**
   * Runs `call` when its lane's turn and the budget allow. An abort before
   * the call leaves its lane rejects it with the signal's reason, unsent.
   */
  run<T>(call: () => Promise<T>, lane: UpdateLane = 'settle', signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    const promise = new Promise<T>((resolve, reject) => {
      const job: TierJob = { call, resolve: resolve as (value: unknown) => void, reject, lane, release: () => {} }
      if (signal) {
        const abort = () => {
          const queue = this.#lanes[lane]
          const at = queue.indexOf(job)
          if (at >= 0) queue.splice(at, 1)
          reject(signal.reason)
        }
        signal.addEventListener('abort', abort, { once: true })
        job.release = () => signal.removeEventListener('abort', abort)
      }
      this.#lanes[lane].push(job)
    })
    if (!this.#draining) void this.#drain()
    return promise
  }

  /** Calls waiting for their turn (for `/metrics` and leak checks). */
  get waiting(): number {
    return this.#lanes.settle.length + this.#lanes.refresh.length
  }

  async #drain(): Promise<void> {
    const { budget, shared, now, sleep } = this.#options
    this.#draining = true
    try {
      while (this.waiting > 0) {
        if (this.#inFlight >= TIMING.tierCallsInFlight) {
          await new Promise<void>((resolve) => (this.#slotFreed = resolve))
          continue
        }
        const at = now()
        const wait = this.#bucket.delay(at)
        if (wait > 0) {
          // Waiting out a 429 is not demand beyond the budget.
          if (at >= this.#pausedUntil) this.#grow(at)
          await sleep(wait)
          continue
        }
        // Picked only once it may go: a settlement that arrived meanwhile still goes first.
        const job = (this.#lanes.settle.shift() ?? this.#lanes.refresh.shift())!
        job.release()
        this.#bucket.take(at)
        const limits = this.#limits
        const turn = await shared.turn(ledgerBuckets(this.#options.method, budget.rule()), sleep)
        // Another instance met a 429 and learned the budget: pace to what it learned.
        if (turn.learnedPerMinute !== undefined && turn.learnedPerMinute !== this.#sharedLearned && limits === this.#limits) {
          this.#sharedLearned = turn.learnedPerMinute
          if (budget.adopt(turn.learnedPerMinute, now())) this.#bucket.setRule(budget.rule())
        }
        if (turn.waitMs > 0) this.#grow(now())
        if (now() < this.#pausedUntil) {
          // A 429 arrived while this call waited for its shared turn: it waits out the pause like the rest.
          this.#lanes[job.lane].unshift(job)
          continue
        }
        this.#inFlight++
        void this.#send(job, now()).finally(() => {
          this.#inFlight--
          const wake = this.#slotFreed
          this.#slotFreed = undefined
          wake?.()
        })
      }
    } finally {
      this.#draining = false
    }
  }

  async #send(job: TierJob, sentAt: number): Promise<void> {
    const { budget, now } = this.#options
    try {
      const result = await job.call()
      this.#taken(now())
      job.resolve(result)
    } catch (error) {
      const retryAfter = retryAfterOf(error)
      if (retryAfter === undefined) {
        // Refused for another reason, the call still counted against the budget.
        this.#taken(now())
        job.reject(error)
        return
      }
      const at = now()
      this.#limits++
      const learned = budget.limited(sentAt, at, retryAfter * 1000)
      this.#bucket.setRule(budget.rule())
      const until = at + retryAfter * 1000
      if (until > this.#pausedUntil) {
        this.#pausedUntil = until
        this.#bucket.pauseUntil(until)
        // What this instance learned, every other one paces to after the pause (remembered by the ledger).
        if (learned) this.#sharedLearned = budget.perMinute
        await this.#options.shared.pause(ledgerBuckets(this.#options.method, budget.rule()), retryAfter * 1000, learned ? budget.perMinute : undefined)
      }
      // Back to the front of its lane; sent again once the pause is over.
      this.#lanes[job.lane].unshift(job)
      if (!this.#draining) void this.#drain()
    }
  }

  #taken(at: number): void {
    this.#bucket.answered(at)
    this.#options.budget.taken(at)
  }

  #grow(at: number): void {
    if (this.#options.budget.pressed(at)) this.#bucket.setRule(this.#options.budget.rule())
  }
}
