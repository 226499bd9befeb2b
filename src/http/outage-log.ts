import type { Logger } from '../log/logger.js'
import type { AskStore } from '../store/ask-store.js'
import { TIMING } from '../slack/timing.js'

/**
 * The store-outage warning of one instance, logged once per outage: a
 * thin client retries every second or two, so a line per 503 filled the log
 * (107 lines in a 33 s database stop). The first 503 is logged with its
 * cause; the rest are counted; once the store answers a ping again, one
 * line says how many there were.
 */
export class OutageLog {
  #during = false
  #refusedSince = 0
  #watch: NodeJS.Timeout | undefined

  constructor(
    private readonly store: AskStore,
    private readonly logger: Logger,
  ) {}

  /** A request answered 503 because the store is unreachable. */
  refused(request: string, reason: string): void {
    this.#refusedSince += 1
    if (this.#during) return
    this.#during = true
    this.logger.warn(`${request}: the ${this.store.kind} store is unreachable (${reason}); answered 503, as every request is until it is back (logged once)`)
    this.#watch = setInterval(() => void this.#checkBack(), TIMING.storeRetryAfterSeconds * 1000)
    this.#watch.unref()
  }

  async #checkBack(): Promise<void> {
    if (!this.#during || !(await this.store.ping().catch(() => false)) || !this.#during) return
    this.logger.info(`the ${this.store.kind} store answers again: ${this.#refusedSince} ${this.#refusedSince === 1 ? 'request was' : 'requests were'} answered 503 meanwhile`)
    this.stop()
  }

  stop(): void {
    clearInterval(this.#watch)
    this.#watch = undefined
    this.#during = false
    this.#refusedSince = 0
  }
}
