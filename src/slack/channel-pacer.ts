import { TIMING } from './timing.js'
import { SlackCallError } from './slack-call-error.js'

/** The longest Retry-After we wait out for a caller; beyond it the ask fails with `ratelimited`. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 30
/** How many 429s in a row one post may meet before giving up. */
const MAX_RATE_LIMIT_RETRIES = 3

export interface PacerOptions {
  /** Gap between two posts to one channel (Slack allows about one a second). */
  intervalMs?: number
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())

/**
 * Posts to one channel one at a time, in the order they were asked, at
 * most about one a second: a burst of a hundred asks arrives in order and
 * no caller ever sees Slack's 429. A 429 that happens anyway (another app on
 * the token) pauses only that channel for Slack's Retry-After.
 */
export class ChannelPacer {
  readonly #queues = new Map<string, Promise<unknown>>()
  readonly #lastPostAt = new Map<string, number>()
  readonly #intervalMs: number
  readonly #sleep: (ms: number) => Promise<void>
  readonly #now: () => number

  constructor(options: PacerOptions = {}) {
    this.#intervalMs = options.intervalMs ?? TIMING.channelPostIntervalMs
    this.#sleep = options.sleep ?? defaultSleep
    this.#now = options.now ?? Date.now
  }

  /** Runs `post` after every earlier post to `channel` has finished and the interval has passed. */
  run<T>(channel: string, post: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(channel) ?? Promise.resolve()
    const next = previous.catch(() => undefined).then(() => this.#postPaced(channel, post))
    const tail = next.catch(() => undefined)
    this.#queues.set(channel, tail)
    // Drop the queue entry once it drains, so idle channels hold nothing.
    void tail.then(() => {
      if (this.#queues.get(channel) === tail) this.#queues.delete(channel)
    })
    return next
  }

  async #postPaced<T>(channel: string, post: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const wait = (this.#lastPostAt.get(channel) ?? -Infinity) + this.#intervalMs - this.#now()
      if (wait > 0) await this.#sleep(wait)
      this.#lastPostAt.set(channel, this.#now())
      try {
        return await post()
      } catch (error) {
        const retryAfter = error instanceof SlackCallError && error.slackError === 'ratelimited' ? error.retryAfterSeconds ?? 1 : undefined
        if (retryAfter === undefined || retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS || attempt >= MAX_RATE_LIMIT_RETRIES) throw error
        await this.#sleep(retryAfter * 1000)
      }
    }
  }

  /** Channels with posts queued or in flight (for leak checks). */
  get busyChannels(): number {
    return this.#queues.size
  }
}
