import type { AskRecord } from '../store/ask-record.js'
import { setLongTimeout } from './long-timeout.js'

export interface AskExpiryOptions {
  now: () => number
  /** Expires the ask (settles it `expired`, unless something settled it first). */
  expire: (id: string) => void
}

/**
 * The expiry timers of the asks this instance knows: its own, and on a
 * shared store every other instance's too, so an ask expires even if the
 * instance that made it dies; whichever fires first expires it, and the
 * settle claim makes that once.
 */
export class AskExpiry {
  readonly #timers = new Map<string, () => void>()

  constructor(private readonly options: AskExpiryOptions) {}

  /** Arms the ask's timer, once; an ask without an expiry has none. */
  arm(record: Pick<AskRecord, 'id' | 'expiresAt'>): void {
    if (record.expiresAt === undefined || this.#timers.has(record.id)) return
    const cancel = setLongTimeout(() => this.options.expire(record.id), record.expiresAt - this.options.now())
    this.#timers.set(record.id, cancel)
  }

  /** Its timer fired, or the ask settled (here or elsewhere): drop it. */
  disarm(id: string): void {
    this.#timers.get(id)?.()
    this.#timers.delete(id)
  }

  stop(): void {
    for (const cancel of this.#timers.values()) cancel()
    this.#timers.clear()
  }

  /** Timers armed now (for leak checks). */
  get armed(): number {
    return this.#timers.size
  }
}
