import type { AskRecord } from '../store/ask-record.js'

/** How many open asks a process keeps in memory for clicks: the newest, since people answer recent asks. */
export const OPEN_ASKS_KEPT = 1_000

/**
 * The asks this process posted and has not settled, as they stood once their
 * message was recorded, so that a click on one settles it without reading it
 * back from the store first (one statement, cold, on every click).
 *
 * What a click reads of an ask (its questions, policy, target, owner and
 * message) does not change once its message is recorded. Its status may: a
 * click on an ask that another instance settled or expired meanwhile goes on
 * to the settle, whose conditional update is what decides, loses, and the
 * person hears who was first, as if the ask had been read. Whatever this
 * process changes (a settle, approval arguments) forgets the ask first, and
 * an ask once forgotten is never kept again, so a post that finishes after
 * a fast click's settle cannot bring back a record that says it is open.
 */
export class OpenAsksHere {
  readonly #records = new Map<string, AskRecord>()
  /** Asks forgotten before or after they were kept; bounded like the records. */
  readonly #forgotten = new Set<string>()

  constructor(private readonly kept = OPEN_ASKS_KEPT) {}

  /** Remembers a pending ask whose message is recorded; anything else is ignored. */
  keep(record: AskRecord): void {
    if (record.status !== 'pending' || !record.message || this.#forgotten.has(record.id)) return
    if (this.#records.size >= this.kept) this.#records.delete(this.#records.keys().next().value!)
    this.#records.set(record.id, record)
  }

  /** The ask as kept (read-only: it is shared with every click on it). */
  get(id: string): AskRecord | undefined {
    return this.#records.get(id)
  }

  forget(id: string): void {
    this.#records.delete(id)
    if (this.#forgotten.size >= this.kept) this.#forgotten.delete(this.#forgotten.values().next().value!)
    this.#forgotten.add(id)
  }

  get size(): number {
    return this.#records.size
  }

  clear(): void {
    this.#records.clear()
    this.#forgotten.clear()
  }
}
