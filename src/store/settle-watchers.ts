import type { AskRecord } from './ask-record.js'

/**
 * One-shot listeners per ask id, shared by the in-process stores. A
 * listener fires once and is removed; an ask with no listeners left holds
 * no entry, so the map only ever holds open asks that someone waits for.
 */
export class SettleWatchers {
  readonly #byId = new Map<string, Set<(record: AskRecord) => void>>()

  add(id: string, listener: (record: AskRecord) => void): () => void {
    let listeners = this.#byId.get(id)
    if (!listeners) this.#byId.set(id, (listeners = new Set()))
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      if (listeners.size === 0 && this.#byId.get(id) === listeners) this.#byId.delete(id)
    }
  }

  notify(record: AskRecord): void {
    const listeners = this.#byId.get(record.id)
    if (!listeners) return
    this.#byId.delete(record.id)
    for (const listener of listeners) listener(record)
  }

  /** `notify` with a copy of a record the caller keeps using; the copy is made only when someone waits, which on most settles nobody does. */
  notifyCopy(record: AskRecord): void {
    this.notifyWith(record.id, () => structuredClone(record))
  }

  /**
   * `notify` with a record made only when someone waits. A store that has the
   * row as JSON text parses it again: a third of `structuredClone`'s cost cold.
   */
  notifyWith(id: string, make: () => AskRecord): void {
    if (this.#byId.has(id)) this.notify(make())
  }

  has(id: string): boolean {
    return this.#byId.has(id)
  }

  /** The ids someone waits for (a store that polls for other processes' settlements reads only these). */
  ids(): string[] {
    return [...this.#byId.keys()]
  }

  /** Open subscriptions (for leak checks). */
  get size(): number {
    return this.#byId.size
  }
}
