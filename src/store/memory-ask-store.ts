import type { AskRecord, PostedMessage, Settlement, SettleResult } from './ask-record.js'
import type { AskStore } from './ask-store.js'
import { SettleWatchers } from './settle-watchers.js'

/**
 * Asks in this process's memory: for tests and for callers that want
 * nothing on disk. Records are copied in and out so callers cannot change
 * the store's state by mutating what they hold.
 */
export class MemoryAskStore implements AskStore {
  readonly #records = new Map<string, AskRecord>()
  readonly #byExternalKey = new Map<string, string>()
  readonly watchers = new SettleWatchers()
  readonly #leases = new Map<string, number>()
  readonly #claims = new Map<string, { holder: string; until: number }>()

  async insert(record: AskRecord): Promise<void> {
    if (this.#records.has(record.id)) throw new Error(`ask ${record.id} already exists`)
    if (record.externalKey !== undefined) {
      if (this.#byExternalKey.has(record.externalKey)) throw new Error(`an ask for ${record.externalKey} already exists`)
      this.#byExternalKey.set(record.externalKey, record.id)
    }
    this.#records.set(record.id, structuredClone(record))
  }

  async get(id: string): Promise<AskRecord | undefined> {
    const record = this.#records.get(id)
    return record && structuredClone(record)
  }

  async findByExternalKey(key: string): Promise<AskRecord | undefined> {
    const id = this.#byExternalKey.get(key)
    return id === undefined ? undefined : this.get(id)
  }

  async attachMessage(id: string, message: PostedMessage): Promise<void> {
    const record = this.#records.get(id)
    if (record) record.message = { ...message }
  }

  async settle(id: string, settlement: Settlement): Promise<SettleResult> {
    const record = this.#records.get(id)
    if (!record) throw new Error(`no ask ${id}`)
    // Check and write with no await in between: this is the atomic claim.
    if (record.status !== 'pending') return { won: false, record: structuredClone(record) }
    record.status = settlement.status
    record.settlement = structuredClone(settlement)
    record.finalMessageShown = false
    const copy = structuredClone(record)
    this.watchers.notify(structuredClone(record))
    return { won: true, record: copy }
  }

  async markFinalMessageShown(id: string): Promise<void> {
    const record = this.#records.get(id)
    if (record) record.finalMessageShown = true
  }

  async claimMessage(id: string, holder: string, now: number, until: number): Promise<boolean> {
    const claim = this.#claims.get(id)
    if (claim && claim.holder !== holder && claim.until >= now) return false
    this.#claims.set(id, { holder, until })
    return true
  }

  async releaseMessage(id: string, holder: string, shown: boolean): Promise<void> {
    if (this.#claims.get(id)?.holder !== holder) return
    this.#claims.delete(id)
    if (shown) await this.markFinalMessageShown(id)
  }

  watch(id: string, listener: (record: AskRecord) => void): () => void {
    return this.watchers.add(id, listener)
  }

  async listPending(): Promise<AskRecord[]> {
    return [...this.#records.values()].filter((record) => record.status === 'pending').map((record) => structuredClone(record))
  }

  async listUnshownSettled(): Promise<AskRecord[]> {
    return [...this.#records.values()]
      .filter((record) => record.status !== 'pending' && record.finalMessageShown === false && record.message)
      .map((record) => structuredClone(record))
  }

  async renewLease(instance: string, until: number): Promise<void> {
    this.#leases.set(instance, Math.max(until, this.#leases.get(instance) ?? 0))
  }

  async leaseUntil(instance: string): Promise<number | undefined> {
    return this.#leases.get(instance)
  }

  async endLease(instance: string): Promise<void> {
    this.#leases.delete(instance)
  }

  async close(): Promise<void> {
    this.#records.clear()
    this.#byExternalKey.clear()
    this.#claims.clear()
  }
}
