import type { Logger } from '../log/logger.js'
import type { LedgerBucket, RateLedger } from '../store/rate-ledger.js'
import { LearnedBudget } from './learned-budget.js'
import { RateBucket } from './rate-bucket.js'
import { RATE_RULES, type RateRule } from './rate-rules.js'
import { ledgerBuckets, SharedTurns } from './shared-turns.js'
import { retryAfterOf } from './slack-call-error.js'
import { TierQueue, type UpdateLane } from './tier-queue.js'

export type { UpdateLane } from './tier-queue.js'

/** The longest Retry-After a post waits out for its caller; beyond it the post fails with `ratelimited`. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 30
/** How many 429s in a row one post may meet before giving up. */
const MAX_RATE_LIMIT_RETRIES = 3

/** Which queue of a channel a post joins. */
export type PostLane =
  /** A new question: goes before any continuation already waiting in the channel. */
  | 'message'
  /** A thread part, a file, a reminder: in order among themselves, after waiting messages. */
  | 'thread'

export interface PacerRules {
  /** chat.postMessage per channel. */
  channelPost: RateRule
  /** chat.postMessage across the workspace. */
  workspacePost: RateRule
  /** chat.update (Tier 3): the documented budget, which the pacer learns beyond. */
  update: RateRule
  /** views.publish (Tier 4). */
  publish: RateRule
}

export interface PacerOptions {
  /** Slack's rules (default: RATE_RULES). */
  rules?: Partial<PacerRules>
  /** Shorthand for tests: `0` paces nothing (429s are still waited out). */
  intervalMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  /**
   * The budget every process on the Slack app shares (a shared store's):
   * Slack counts calls per app, so each instance pacing itself to the whole
   * budget would, together, meet 429s. Without it this process paces alone.
   */
  ledger?: RateLedger
  /** Where a failing shared ledger is reported (pacing then goes on locally). */
  logger?: Pick<Logger, 'warn'>
  /**
   * `learned` (default): chat.update is sent at the documented Tier 3
   * without waiting, and beyond it as far as Slack's answers allow
   * (decision 0045). `documented`: never beyond the documented figure.
   */
  updateBudget?: 'learned' | 'documented'
}

const UNLIMITED: RateRule = { perSecond: Number.POSITIVE_INFINITY, burst: 1 }

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())

interface Job {
  post: () => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  rateLimited: number
}

interface ChannelQueue {
  bucket: RateBucket
  /** The channel's and the workspace's buckets in the shared ledger. */
  shared: LedgerBucket[]
  /** The channel's alone: what a 429 on a post pauses. */
  sharedChannel: LedgerBucket[]
  messages: Job[]
  thread: Job[]
  running: boolean
}

/**
 * Paces what dsh-slack sends to Slack's limits, so callers rarely see a
 * 429: per channel a token bucket (a short burst at once, then about one
 * post a second), a workspace-wide budget across channels, Tier 3 for
 * chat.update (the documented 50 a minute at least, more as Slack's
 * answers allow; settlements before refreshes) and Tier 4 for
 * views.publish. Posts to one channel go one at a time, in order: new
 * questions first, then thread continuations. A 429 pauses only that
 * channel (or that method) for Slack's Retry-After, and the call is
 * retried. With a shared store every instance on the Slack app also takes
 * its turn in one shared budget, so together they stay within what Slack
 * allows the app.
 */
export class ChannelPacer {
  readonly #channels = new Map<string, ChannelQueue>()
  readonly #channelRule: RateRule
  readonly #workspace: RateBucket
  readonly #update: TierQueue
  readonly #publish: TierQueue
  readonly #sleep: (ms: number) => Promise<void>
  readonly #now: () => number
  readonly #shared: SharedTurns
  readonly #workspaceShared: LedgerBucket[]

  constructor(options: PacerOptions = {}) {
    const unpaced = options.intervalMs === 0
    const rule = (name: keyof PacerRules, fallback: RateRule) => (unpaced ? UNLIMITED : options.rules?.[name] ?? fallback)
    this.#channelRule =
      options.intervalMs !== undefined && options.intervalMs > 0 ? { perSecond: 1000 / options.intervalMs, burst: 1 } : rule('channelPost', RATE_RULES.channelPost)
    const workspaceRule = rule('workspacePost', RATE_RULES.workspacePost)
    this.#workspace = new RateBucket(workspaceRule)
    this.#sleep = options.sleep ?? defaultSleep
    this.#now = options.now ?? Date.now
    this.#shared = new SharedTurns(options.ledger, options.logger)
    const clock = { shared: this.#shared, now: this.#now, sleep: this.#sleep }
    this.#update = new TierQueue({ method: 'chat.update', budget: new LearnedBudget({ floor: rule('update', RATE_RULES.tier3), learns: options.updateBudget !== 'documented' }), ...clock })
    this.#publish = new TierQueue({ method: 'views.publish', budget: new LearnedBudget({ floor: rule('publish', RATE_RULES.tier4), learns: false }), ...clock })
    this.#workspaceShared = ledgerBuckets('post:*', workspaceRule)
  }

  /**
   * Runs `post` (a chat.postMessage or anything else that adds a message to
   * `channel`) when the channel's turn and Slack's budget allow it.
   */
  run<T>(channel: string, post: () => Promise<T>, lane: PostLane = 'message'): Promise<T> {
    let queue = this.#channels.get(channel)
    if (!queue) {
      const sharedChannel = ledgerBuckets(`post:${channel}`, this.#channelRule)
      const shared = [...sharedChannel, ...this.#workspaceShared]
      this.#channels.set(channel, (queue = { bucket: new RateBucket(this.#channelRule), shared, sharedChannel, messages: [], thread: [], running: false }))
    }
    const promise = new Promise<T>((resolve, reject) => {
      const job: Job = { post, resolve: resolve as (value: unknown) => void, reject, rateLimited: 0 }
      queue[lane === 'message' ? 'messages' : 'thread'].push(job)
    })
    if (!queue.running) void this.#drain(channel, queue)
    return promise
  }

  /**
   * Runs a chat.update within Tier 3: a settlement (`settle`) before any
   * refresh waiting; a 429 is waited out and the call sent again. An abort
   * while it still waits leaves it unsent (a refresh a newer render replaces).
   */
  update<T>(call: () => Promise<T>, lane: UpdateLane = 'settle', signal?: AbortSignal): Promise<T> {
    return this.#update.run(call, lane, signal)
  }

  /** chat.update's budget now, in calls a minute (learned, or the documented Tier 3). */
  get updatesPerMinute(): number {
    return this.#update.perMinute
  }

  /** Runs a views.publish within Tier 4, waiting out a 429's Retry-After. */
  publish<T>(call: () => Promise<T>): Promise<T> {
    return this.#publish.run(call)
  }

  async #drain(channel: string, queue: ChannelQueue): Promise<void> {
    queue.running = true
    try {
      for (;;) {
        if (queue.messages.length === 0 && queue.thread.length === 0) break
        const now = this.#now()
        const wait = this.#localDelay(queue.bucket, this.#workspace)
        // Pick the job only once it may go: a question that arrives meanwhile still goes before waiting thread parts.
        if (wait > 0) {
          await this.#sleep(wait)
          continue
        }
        const job = (queue.messages[0] ?? queue.thread[0])!
        queue.bucket.take(now)
        this.#workspace.take(now)
        await this.#sharedTurn(queue.shared)
        try {
          const result = await job.post()
          const at = this.#now()
          queue.bucket.answered(at)
          this.#workspace.answered(at)
          this.#remove(queue, job)
          job.resolve(result)
        } catch (error) {
          const retryAfter = retryAfterOf(error)
          if (retryAfter === undefined || retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS || job.rateLimited >= MAX_RATE_LIMIT_RETRIES) {
            this.#remove(queue, job)
            job.reject(error)
          } else {
            // Only this channel waits; the job keeps its place at the front.
            job.rateLimited++
            queue.bucket.pauseUntil(this.#now() + retryAfter * 1000)
            // Slack's 429 is for the channel, whichever instance met it.
            await this.#sharedPause(queue.sharedChannel, retryAfter * 1000)
          }
        }
      }
    } finally {
      queue.running = false
      // Forget the channel once it is idle and its bucket full again, so idle channels hold nothing.
      if (queue.messages.length === 0 && queue.thread.length === 0 && queue.bucket.idle(this.#now())) this.#channels.delete(channel)
    }
  }

  /**
   * The wait this process's own buckets ask for. With a shared budget they
   * are only kept up to date (the shared turn already counts this process's
   * calls with everyone else's), and they take over if that budget becomes
   * unreachable.
   */
  #localDelay(...buckets: RateBucket[]): number {
    if (!this.#shared.alone) return 0
    const now = this.#now()
    return Math.max(0, ...buckets.map((bucket) => bucket.delay(now)))
  }

  /** Takes this post's turn in the shared budget (one statement) and waits for it. */
  async #sharedTurn(buckets: readonly LedgerBucket[]): Promise<void> {
    await this.#shared.turn(buckets, this.#sleep)
  }

  /** Awaited: the retry's own turn must come after the pause. */
  async #sharedPause(buckets: readonly LedgerBucket[], forMs: number): Promise<void> {
    await this.#shared.pause(buckets, forMs)
  }

  #remove(queue: ChannelQueue, job: Job): void {
    const lane = queue.messages[0] === job ? queue.messages : queue.thread
    lane.shift()
  }

  /** Posts queued or in flight per channel (the service's `/metrics`); idle channels are absent. */
  waiting(): ReadonlyMap<string, number> {
    const counts = new Map<string, number>()
    for (const [channel, queue] of this.#channels) {
      const count = queue.messages.length + queue.thread.length
      if (count > 0) counts.set(channel, count)
    }
    return counts
  }

  /**
   * About how long a post to `channel` queued now waits for its turn: the
   * posts ahead of it at the channel's rate, beyond what its bucket still
   * takes at once. An estimate for the caller (instances sharing the budget
   * may each have a queue); never a promise.
   */
  expectedWaitMs(channel: string): number {
    const queue = this.#channels.get(channel)
    if (!queue) return 0
    const ahead = queue.messages.length
    const interval = 1000 / this.#channelRule.perSecond
    return Number.isFinite(interval) ? Math.max(queue.bucket.delay(this.#now()), 0) + Math.max(0, ahead - this.#channelRule.burst + 1) * interval : 0
  }

  /** Channels with posts queued or in flight, or a bucket still refilling (for leak checks). */
  get busyChannels(): number {
    return this.#channels.size
  }
}
