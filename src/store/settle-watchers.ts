import type { AskRecord } from './ask-record.js'

/** How a settle watcher uses the record it is told of. */
export interface WatchOptions {
  /**
   * The listener only reads the settled record, and hands it to nothing that
   * changes it (the HTTP long-poll turns it into its answer): it may be
   * given the settler's own record rather than a copy, which costs a parse
   * or a clone each time (decision 0103).
   */
  readOnly?: boolean
}

interface Watcher {
  listener: (record: AskRecord) => void
  readOnly: boolean
}

/**
 * One-shot listeners per ask id, shared by the in-process stores. A
 * listener fires once and is removed; an ask with no listeners left holds
 * no entry, so the map only ever holds open asks that someone waits for.
 */
export class SettleWatchers {
  readonly #byId = new Map<string, Set<Watcher>>()

  add(id: string, listener: (record: AskRecord) => void, options: WatchOptions = {}): () => void {
    let watchers = this.#byId.get(id)
    if (!watchers) this.#byId.set(id, (watchers = new Set()))
    const watcher: Watcher = { listener, readOnly: options.readOnly === true }
    watchers.add(watcher)
    return () => {
      watchers.delete(watcher)
      if (watchers.size === 0 && this.#byId.get(id) === watchers) this.#byId.delete(id)
    }
  }

  /** Tells every listener of `record.id`, all with this record (a copy of nobody's: read from the store, or made for them). */
  notify(record: AskRecord): void {
    const watchers = this.#byId.get(record.id)
    if (!watchers) return
    this.#byId.delete(record.id)
    for (const watcher of watchers) watcher.listener(record)
  }

  /** `notify` with a copy of a record the caller keeps using; the copy is made only when someone waits, which on most settles nobody does. */
  notifyCopy(record: AskRecord): void {
    this.notifyWith(record.id, () => structuredClone(record))
  }

  /**
   * `notify` with a record made only when someone waits. A store that has the
   * row as JSON text parses it again: a third of `structuredClone`'s cost cold.
   * `shared`, when given, is the settler's own record: read-only listeners get
   * it as it is, and the copy is made only for the others.
   */
  notifyWith(id: string, make: () => AskRecord, shared?: AskRecord): void {
    const watchers = this.#byId.get(id)
    if (!watchers) return
    this.#byId.delete(id)
    let copy: AskRecord | undefined
    for (const watcher of watchers) watcher.listener(shared !== undefined && watcher.readOnly ? shared : (copy ??= make()))
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
