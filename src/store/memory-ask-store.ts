import type { AskLimits } from '../policy/operator-policy.js'
import { doorOf, requestKeyOf, sameDoor, type AskDoor, type AskRecord, type PendingSummary, type PostClaim, type PostClaimResult, type PostedMessage, type SettleAlso, type Settlement, type SettleResult } from './ask-record.js'
import type { AskStore } from './ask-store.js'
import { capReached, PendingCapReached } from './pending-caps.js'
import { SettleWatchers, type WatchOptions } from './settle-watchers.js'
import { type PendingCount, decodeAskCursor, encodeAskCursor, type Approval, type ApprovalResult, type AskEvent, type AskPage, type AskQuery, type EventQuery, type NewAskEvent, type ScheduledJob } from './team-records.js'

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
  readonly #postClaims = new Map<string, PostClaim>()
  readonly #approvals = new Map<string, Approval[]>()
  /** Unclaimed jobs by `askId:kind`. */
  readonly #jobs = new Map<string, ScheduledJob>()
  readonly #events: AskEvent[] = []

  async insert(record: AskRecord, caps?: AskLimits, postClaim?: PostClaim): Promise<void> {
    if (this.#records.has(record.id)) throw new Error(`ask ${record.id} already exists`)
    if (caps) {
      const count = await this.countPending(record.apiKey)
      if (capReached(count, caps, record.apiKey)) throw new PendingCapReached(count, caps, record.apiKey)
    }
    const requestKey = requestKeyOf(record)
    if (requestKey !== undefined) {
      if (this.#byExternalKey.has(requestKey)) throw new Error(`an ask for ${requestKey} already exists`)
      this.#byExternalKey.set(requestKey, record.id)
    }
    this.#records.set(record.id, structuredClone(record))
    if (postClaim) this.#postClaims.set(record.id, { ...postClaim })
  }

  async claimPost(id: string, holder: string, now: number, until: number): Promise<PostClaimResult> {
    const record = this.#records.get(id)
    if (!record || record.status !== 'pending' || record.message) return { kind: 'moot' }
    const claim = this.#postClaims.get(id)
    if (claim && claim.holder !== holder && claim.until >= now) return { kind: 'held', until: claim.until }
    this.#postClaims.set(id, { holder, until })
    return { kind: 'taken' }
  }

  async get(id: string): Promise<AskRecord | undefined> {
    const record = this.#records.get(id)
    return record && structuredClone(record)
  }

  async newestOfAgent(door: AskDoor, agentId: string, limit: number): Promise<AskRecord[]> {
    return [...this.#records.values()]
      .filter((record) => record.agent?.id === agentId && sameDoor(doorOf(record), door))
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit)
      .map((record) => structuredClone(record))
  }

  async findByExternalKey(key: string): Promise<AskRecord | undefined> {
    const id = this.#byExternalKey.get(key)
    return id === undefined ? undefined : this.get(id)
  }

  async attachMessage(id: string, message: PostedMessage, event?: NewAskEvent): Promise<AskRecord | undefined> {
    const record = this.#records.get(id)
    if (!record) return undefined
    record.message = { ...message }
    this.#postClaims.delete(id)
    if (event) this.#append(event)
    return structuredClone(record)
  }

  async attachApprovalArguments(id: string, args: string): Promise<boolean> {
    const record = this.#records.get(id)
    if (!record?.approval || record.status !== 'pending') return false
    record.approval = { ...record.approval, arguments: args }
    return true
  }

  async settle(id: string, settlement: Settlement, also: SettleAlso = {}): Promise<SettleResult> {
    const record = this.#records.get(id)
    if (!record) throw new Error(`no ask ${id}`)
    // Check and write with no await in between: this is the atomic claim.
    if (record.status !== 'pending') return { won: false, record: structuredClone(record) }
    record.status = settlement.status
    record.settlement = structuredClone(settlement)
    record.finalMessageShown = false
    for (const [key, job] of this.#jobs) if (job.askId === id) this.#jobs.delete(key)
    if (also.messageClaim && record.message) this.#claims.set(id, { ...also.messageClaim })
    if (also.event) this.#append(also.event)
    const copy = structuredClone(record)
    this.watchers.notifyWith(id, () => structuredClone(record), copy)
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

  watch(id: string, listener: (record: AskRecord) => void, options?: WatchOptions): () => void {
    return this.watchers.add(id, listener, options)
  }

  async listPending(): Promise<AskRecord[]> {
    return [...this.#records.values()].filter((record) => record.status === 'pending').map((record) => structuredClone(record))
  }

  async listPendingAmong(ids: readonly string[]): Promise<AskRecord[]> {
    return ids.flatMap((id) => {
      const record = this.#records.get(id)
      return record?.status === 'pending' ? [structuredClone(record)] : []
    })
  }

  async listPendingSummaries(): Promise<PendingSummary[]> {
    return [...this.#records.values()]
      .filter((record) => record.status === 'pending')
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(({ id, createdAt, owner, expiresAt, message, policy }) => structuredClone({ id, createdAt, owner, ...(expiresAt !== undefined ? { expiresAt } : {}), ...(message ? { message } : {}), ...(policy ? { policy } : {}) }))
  }

  async listSweepable(now: number, armBy: number): Promise<PendingSummary[]> {
    return [...this.#records.values()]
      .filter((record) => {
        if (record.status !== 'pending') return false
        const claim = this.#postClaims.get(record.id)
        return record.owner.kind !== 'service' || (record.expiresAt !== undefined && record.expiresAt <= armBy) || (!record.message && (claim?.until ?? 0) <= now)
      })
      .map(({ id, createdAt, owner, expiresAt, message, policy }) => structuredClone({ id, createdAt, owner, ...(expiresAt !== undefined ? { expiresAt } : {}), ...(message ? { message } : {}), ...(policy ? { policy } : {}) }))
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

  async addApproval(id: string, approval: Approval): Promise<ApprovalResult> {
    const record = this.#records.get(id)
    if (!record) throw new Error(`no ask ${id}`)
    if (record.status !== 'pending') return { kind: 'closed', record: structuredClone(record) }
    const approvals = this.#approvals.get(id) ?? []
    if (approvals.some((given) => given.by.id === approval.by.id)) return { kind: 'duplicate', approvals: structuredClone(approvals) }
    approvals.push(structuredClone(approval))
    this.#approvals.set(id, approvals)
    return { kind: 'added', approvals: structuredClone(approvals) }
  }

  async approvals(id: string): Promise<Approval[]> {
    return structuredClone(this.#approvals.get(id) ?? [])
  }

  async schedule(jobs: ScheduledJob[]): Promise<void> {
    for (const job of jobs) {
      const key = `${job.askId}:${job.kind}`
      if (!this.#jobs.has(key) && this.#records.get(job.askId)?.status === 'pending') this.#jobs.set(key, { ...job })
    }
  }

  async claimDueJobs(now: number): Promise<ScheduledJob[]> {
    const due: ScheduledJob[] = []
    for (const [key, job] of [...this.#jobs].sort((a, b) => a[1].dueAt - b[1].dueAt)) {
      if (job.dueAt > now) continue
      this.#jobs.delete(key)
      if (this.#records.get(job.askId)?.status === 'pending') due.push(job)
    }
    return due
  }

  async listScheduled(): Promise<ScheduledJob[]> {
    return [...this.#jobs.values()].map((job) => ({ ...job })).sort((a, b) => a.dueAt - b.dueAt)
  }

  async appendEvent(event: NewAskEvent): Promise<AskEvent> {
    return structuredClone(this.#append(event))
  }

  #append(event: NewAskEvent): AskEvent {
    const stored: AskEvent = { ...structuredClone(event), seq: this.#events.length + 1 }
    this.#events.push(stored)
    return stored
  }

  async events(askId: string): Promise<AskEvent[]> {
    return this.#events.filter((event) => event.askId === askId).map((event) => structuredClone(event))
  }

  async listEvents(query: EventQuery): Promise<AskEvent[]> {
    return this.#events
      .filter((event) => (query.since === undefined || event.at >= query.since) && (query.afterSeq === undefined || event.seq > query.afterSeq))
      .slice(0, query.limit)
      .map((event) => structuredClone(event))
  }

  async listAsks(query: AskQuery): Promise<AskPage> {
    const after = query.cursor === undefined ? null : decodeAskCursor(query.cursor)
    const matching = [...this.#records.values()]
      .filter((record) => (query.status === undefined || record.status === query.status) && (query.since === undefined || record.createdAt >= query.since))
      .filter((record) => (query.key === undefined || record.apiKey === query.key) && (query.rule === undefined || record.rule === query.rule))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .filter((record) => after === null || record.createdAt < after.createdAt || (record.createdAt === after.createdAt && record.id < after.id))
    const asks = matching.slice(0, query.limit).map((record) => structuredClone(record))
    const page: AskPage = { asks }
    if (matching.length > query.limit && asks.length > 0) page.nextCursor = encodeAskCursor(asks.at(-1)!)
    return page
  }

  async countPending(key?: string): Promise<PendingCount> {
    let total = 0
    let forKey = 0
    for (const record of this.#records.values()) {
      if (record.status !== 'pending') continue
      total++
      if (key !== undefined && record.apiKey === key) forKey++
    }
    return { total, forKey }
  }

  readonly kind = 'memory'

  async ping(): Promise<boolean> {
    return true
  }

  async close(): Promise<void> {
    this.#records.clear()
    this.#byExternalKey.clear()
    this.#claims.clear()
    this.#approvals.clear()
    this.#jobs.clear()
  }
}
