/**
 * When an interaction is acknowledged (decision 0081): once what it changes
 * is in the store, so an instance killed before that leaves the person
 * Slack's own "this did not work" (an unacknowledged interaction, which
 * Slack does not send again) instead of a success nothing recorded.
 *
 * The ack goes out on the first of: the handler saying its write is durable
 * (or that it has none to make), a deadline inside Slack's 3 s (a slow store
 * must not turn a click that will be recorded into an error), and the
 * handler's end. Card updates and notices come after the write, so they
 * never hold the ack.
 */
import type { Logger } from '../../log/logger.js'

/** What a handler signals as an interaction's outcome becomes durable. */
export interface Receipt {
  /** The interaction's write is in the store (or it has none to make): Slack may hear the ack now. */
  recorded(): void
  /**
   * The write failed before the ack went out. True when the ack itself
   * tells the person (a form that stays open saying so); false when it
   * cannot (a click, or the ack is gone already), and they must be told.
   */
  failed(): boolean
}

export interface AckReceiptOptions {
  /** Sends the ack with what closes the interaction as usual. */
  ack: () => Promise<void>
  /** Sends the ack that tells the person their write failed (a form kept open), when the interaction has one. */
  ackFailed?: () => Promise<void>
  /** The latest the ack waits for the write. */
  withinMs: number
  logger: Logger
  /** Names the interaction in the log. */
  what: string
}

/** One interaction's ack, sent once. */
export class AckReceipt implements Receipt {
  #sent: Promise<void> | undefined
  readonly #deadline: NodeJS.Timeout

  constructor(private readonly options: AckReceiptOptions) {
    this.#deadline = setTimeout(() => {
      if (this.#sent) return
      options.logger.warn(`${options.what}: not recorded within ${options.withinMs} ms; acknowledged before its write, so Slack shows it as done`)
      void this.#send(options.ack)
    }, options.withinMs)
  }

  recorded(): void {
    void this.#send(this.options.ack)
  }

  failed(): boolean {
    if (this.#sent || !this.options.ackFailed) return false
    void this.#send(this.options.ackFailed)
    return true
  }

  /** The handler ended: acknowledges if nothing did yet, and resolves once the ack has gone. */
  done(): Promise<void> {
    return this.#send(this.options.ack)
  }

  #send(ack: () => Promise<void>): Promise<void> {
    if (!this.#sent) {
      clearTimeout(this.#deadline)
      this.#sent = ack().catch((error: unknown) => this.options.logger.error(`${this.options.what}: the ack failed: ${error instanceof Error ? error.message : String(error)}`))
    }
    return this.#sent
  }
}
