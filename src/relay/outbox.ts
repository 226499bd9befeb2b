import type { ClientResponse } from './responses.js'

/** A response waiting to reach the host. */
export interface OutboxEntry {
  askId: string
  response: ClientResponse
  /**
   * An earlier attempt failed after the request may have reached the host,
   * so a `not-pending` receipt may be this very answer arriving twice.
   */
  maybeDelivered: boolean
}

/** What became of one delivery attempt. */
export type Delivery = 'delivered' | 'dropped' | 'keep'

/**
 * Responses in order of settlement, sent one at a time and kept while the
 * host is unreachable, so an answer given while the host restarts reaches it
 * once it is back. Keyed by rpcId: the host's request id makes a resend
 * harmless, and the same settlement is never queued twice.
 */
export class Outbox {
  readonly #entries = new Map<string, OutboxEntry>()
  readonly #delivered = new Set<string>()
  readonly #deliver: (rpcId: string, entry: OutboxEntry) => Promise<Delivery>
  #flushing: Promise<boolean> | undefined
  #again = false

  constructor(deliver: (rpcId: string, entry: OutboxEntry) => Promise<Delivery>) {
    this.#deliver = deliver
  }

  get size(): number {
    return this.#entries.size
  }

  /** The requests with a response queued, in order. */
  rpcIds(): string[] {
    return [...this.#entries.keys()]
  }

  /** Whether a response for the request is queued or was accepted. */
  knows(rpcId: string): boolean {
    return this.#entries.has(rpcId) || this.#delivered.has(rpcId)
  }

  /** Queues a response; false when one for the request is queued or delivered already. */
  add(rpcId: string, entry: OutboxEntry): boolean {
    if (this.knows(rpcId)) return false
    this.#entries.set(rpcId, entry)
    return true
  }

  /** The host has settled the request: nothing more to remember about it. */
  forget(rpcId: string): void {
    this.#delivered.delete(rpcId)
  }

  /**
   * Sends every queued response, in order. Resolves true when the outbox is
   * empty, false when an entry had to be kept (the host is unreachable; the
   * rest would fail the same way, so they wait too).
   */
  flush(): Promise<boolean> {
    if (this.#flushing) {
      this.#again = true
      return this.#flushing
    }
    this.#flushing = this.#drain().finally(() => (this.#flushing = undefined))
    return this.#flushing
  }

  async #drain(): Promise<boolean> {
    do {
      this.#again = false
      for (const [rpcId, entry] of [...this.#entries]) {
        const delivery = await this.#deliver(rpcId, entry)
        if (delivery === 'keep') return false
        this.#entries.delete(rpcId)
        if (delivery === 'delivered') this.#delivered.add(rpcId)
      }
    } while (this.#again)
    return this.#entries.size === 0
  }
}
