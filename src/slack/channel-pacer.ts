import { RateBucket } from './rate-bucket.js'
import { RATE_RULES, type RateRule } from './rate-rules.js'
import { SlackCallError } from './slack-call-error.js'

/** The longest Retry-After we wait out for a caller; beyond it the call fails with `ratelimited`. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 30
/** How many 429s in a row one call may meet before giving up. */
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
  /** chat.update (Tier 3). */
  update: RateRule
}

export interface PacerOptions {
  /** Slack's rules (default: RATE_RULES). */
  rules?: Partial<PacerRules>
  /** Shorthand for tests: `0` paces nothing (429s are still waited out). */
  intervalMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
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
  messages: Job[]
  thread: Job[]
  running: boolean
}

function retryAfterOf(error: unknown): number | undefined {
  return error instanceof SlackCallError && error.slackError === 'ratelimited' ? error.retryAfterSeconds ?? 1 : undefined
}

/**
 * Paces what dsh-slack sends to Slack's documented limits, so callers never
 * see a 429: per channel a token bucket (a short burst at once, then about
 * one post a second), a workspace-wide budget across channels, and Tier 3
 * for chat.update. Posts to one channel go one at a time, in order: new
 * questions first, then thread continuations. A 429 that happens anyway
 * (another app on the token) pauses only that channel (or that method) for
 * Slack's Retry-After, and the call is retried.
 */
export class ChannelPacer {
  readonly #channels = new Map<string, ChannelQueue>()
  readonly #channelRule: RateRule
  readonly #workspace: RateBucket
  readonly #update: RateBucket
  readonly #sleep: (ms: number) => Promise<void>
  readonly #now: () => number

  constructor(options: PacerOptions = {}) {
    const unpaced = options.intervalMs === 0
    const rule = (name: keyof PacerRules, fallback: RateRule) => (unpaced ? UNLIMITED : options.rules?.[name] ?? fallback)
    this.#channelRule =
      options.intervalMs !== undefined && options.intervalMs > 0 ? { perSecond: 1000 / options.intervalMs, burst: 1 } : rule('channelPost', RATE_RULES.channelPost)
    this.#workspace = new RateBucket(rule('workspacePost', RATE_RULES.workspacePost))
    this.#update = new RateBucket(rule('update', RATE_RULES.tier3))
    this.#sleep = options.sleep ?? defaultSleep
    this.#now = options.now ?? Date.now
  }

  /**
   * Runs `post` (a chat.postMessage or anything else that adds a message to
   * `channel`) when the channel's turn and Slack's budget allow it.
   */
  run<T>(channel: string, post: () => Promise<T>, lane: PostLane = 'message'): Promise<T> {
    let queue = this.#channels.get(channel)
    if (!queue) this.#channels.set(channel, (queue = { bucket: new RateBucket(this.#channelRule), messages: [], thread: [], running: false }))
    const promise = new Promise<T>((resolve, reject) => {
      const job: Job = { post, resolve: resolve as (value: unknown) => void, reject, rateLimited: 0 }
      queue[lane === 'message' ? 'messages' : 'thread'].push(job)
    })
    if (!queue.running) void this.#drain(channel, queue)
    return promise
  }

  /** Runs a chat.update within Tier 3, waiting out a 429's Retry-After. */
  async update<T>(call: () => Promise<T>): Promise<T> {
    for (let rateLimited = 0; ; rateLimited++) {
      for (let wait = this.#update.delay(this.#now()); wait > 0; wait = this.#update.delay(this.#now())) await this.#sleep(wait)
      this.#update.take(this.#now())
      try {
        const result = await call()
        this.#update.answered(this.#now())
        return result
      } catch (error) {
        const retryAfter = retryAfterOf(error)
        if (retryAfter === undefined || retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS || rateLimited >= MAX_RATE_LIMIT_RETRIES) throw error
        this.#update.pauseUntil(this.#now() + retryAfter * 1000)
      }
    }
  }

  async #drain(channel: string, queue: ChannelQueue): Promise<void> {
    queue.running = true
    try {
      for (;;) {
        if (queue.messages.length === 0 && queue.thread.length === 0) break
        const now = this.#now()
        const wait = Math.max(queue.bucket.delay(now), this.#workspace.delay(now))
        // Pick the job only once it may go: a question that arrives meanwhile still goes before waiting thread parts.
        if (wait > 0) {
          await this.#sleep(wait)
          continue
        }
        const job = (queue.messages[0] ?? queue.thread[0])!
        queue.bucket.take(now)
        this.#workspace.take(now)
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
          }
        }
      }
    } finally {
      queue.running = false
      // Forget the channel once it is idle and its bucket full again, so idle channels hold nothing.
      if (queue.messages.length === 0 && queue.thread.length === 0 && queue.bucket.idle(this.#now())) this.#channels.delete(channel)
    }
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

  /** Channels with posts queued or in flight, or a bucket still refilling (for leak checks). */
  get busyChannels(): number {
    return this.#channels.size
  }
}
