import type { Logger } from '../log/logger.js'
import { TIMING } from '../slack/timing.js'
import type { AskRecord } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'

export interface MessageAdoptionOptions {
  store: AskStore
  logger: Logger
  stopped: () => boolean
  /** Shows a settled ask's settlement on the card just recorded (as a recovery, under the card's claim). */
  showSettled: (record: AskRecord) => Promise<unknown>
}

/**
 * A click on an ask whose record does not say where its message is: its
 * poster is still between posting and recording it, or stopped there
 * (SIGKILL, the store away). The click names the message; if the record
 * still lacks it a little later, the poster is taken to be gone: the
 * message is recorded from the click and shows the settlement like any
 * other. Never awaited by the click: its answer counts at once.
 */
export class MessageAdoption {
  readonly #pending = new Map<string, NodeJS.Timeout>()

  constructor(private readonly options: MessageAdoptionOptions) {}

  adopt(id: string, message: { channel: string; ts: string }): void {
    if (this.options.stopped() || this.#pending.has(id)) return
    const timer = setTimeout(() => {
      this.#pending.delete(id)
      this.#record(id, message).catch((error: unknown) => this.options.logger.warn(`ask ${id}: could not record its message from a click: ${error instanceof Error ? error.message : String(error)}`))
    }, TIMING.adoptMessageAfterMs)
    timer.unref()
    this.#pending.set(id, timer)
  }

  async #record(id: string, message: { channel: string; ts: string }): Promise<void> {
    const { store, logger } = this.options
    if (this.options.stopped()) return
    const record = await store.get(id)
    if (!record || record.message) return
    const current = await store.attachMessage(id, message)
    logger.warn(`ask ${id}: its message (ts ${message.ts}) was posted by an instance that stopped before recording where; recorded from a click on it`)
    if (current?.settlement && !current.finalMessageShown) await this.options.showSettled(current)
  }

  stop(): void {
    for (const timer of this.#pending.values()) clearTimeout(timer)
    this.#pending.clear()
  }
}
