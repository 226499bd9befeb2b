import type { AskLimits } from '../../policy/operator-policy.js'
import pg from 'pg'
import type { Logger } from '../../log/logger.js'
import { doorColumns, requestKeyOf, type AskDoor, type AskOwner, type AskRecord, type PendingSummary, type PostClaim, type PostClaimResult, type PostedMessage, type SettleAlso, type Settlement, type SettleResult } from '../ask-record.js'
import type { AskStore } from '../ask-store.js'
import { PendingCapReached } from '../pending-caps.js'
import { SettleWatchers, type WatchOptions } from '../settle-watchers.js'
import { SETTLED_RETENTION_MS } from '../sqlite-ask-store.js'
import { migratePostgres } from './migrate.js'
import { SQL } from './queries.js'
import { PostgresRateLedger } from './postgres-rate-ledger.js'
import { RECONNECT_DELAY_MS, SettleListener } from './settle-listener.js'
import { TEAM_SQL } from './team-queries.js'
import { HOME_SQL } from './home-queries.js'
import { PostgresHomeViewers } from './postgres-home-viewers.js'
import { decodeAskCursor, encodeAskCursor, type Approval, type ApprovalResult, type AskEvent, type AskPage, type AskPolicy, type AskQuery, type EventQuery, type NewAskEvent, type PendingCount, type ScheduledJob } from '../team-records.js'

/** The id at the head of a record as jsonb writes it (`{"id": "…", …}`): read without parsing the record. */
const RECORD_ID = /^\{"id": "([^"\\]*)"/

/** Connections per instance: a click, a post and a long-poll's read rarely need more at once. */
const POOL_SIZE = 10
/**
 * A new connection that is not established in this long fails (pg's default
 * is to wait forever): while the database is frozen or unreachable through a
 * silent network, a request answers 503 and /healthz says so, instead of
 * hanging with it.
 */
const CONNECT_TIMEOUT_MS = 5_000
const RECONNECT_SECONDS = RECONNECT_DELAY_MS / 1000

/** A `DSH_SLACK_STATE` / `state` value that names a PostgreSQL database. */
export function isPostgresUrl(state: string): boolean {
  return /^postgres(ql)?:\/\//i.test(state)
}

/** The URL without its password, for messages and logs. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.password = ''
    parsed.search = ''
    return parsed.toString()
  } catch {
    return 'a malformed postgres:// URL'
  }
}

export interface PostgresAskStoreOptions {
  /** Settled asks older than this are deleted at open (default `SETTLED_RETENTION_MS`). */
  retentionMs?: number
  /** The clock, for pruning and `settled_at`. */
  now?: () => number
  /** Where a dropped LISTEN connection or an idle pool error is reported. */
  logger?: Logger
  /** Pool size (default 10). */
  maxConnections?: number
}

/**
 * Asks in PostgreSQL, shared by every process on one Slack app: any
 * instance can take any click, and whoever waits hears of the settlement
 * through LISTEN/NOTIFY within milliseconds.
 *
 * Open it with `PostgresAskStore.open(url)`: the schema is created and
 * migrated first (numbered files in `migrations/postgres/`).
 */
export class PostgresAskStore implements AskStore {
  readonly shared = true
  readonly kind = 'postgres'
  readonly watchers = new SettleWatchers()
  readonly #pool: pg.Pool
  /**
   * A connection was lost and the log said so: quiet until the database is
   * back (every idle pooled connection and the LISTEN connection report the
   * same loss, and reconnecting is retried twice a second).
   */
  #down = false
  readonly #listener: SettleListener
  readonly #now: () => number
  readonly #logger: Logger | undefined
  readonly #insertListeners = new Set<(ask: { id: string; expiresAt: number }) => void>()
  /** Asks this store inserted itself: their announcement is not news here. */
  readonly #insertedHere = new Set<string>()
  /** Statements run (for the benchmark's queries-per-ask figure). */
  queries = 0
  /** Statements run, by their text (which statements an ask costs: the benchmark and its test). */
  readonly statementCounts = new Map<string, number>()
  /** Slack's rate-limit buckets, shared with every instance on this database. */
  readonly rateLedger = new PostgresRateLedger((text, values) => this.#query(text, values))
  /** Who has the Home tab open, in a table: any instance refreshes a tab another one was asked to show. */
  readonly homeViewers = new PostgresHomeViewers((text, values) => this.#query(text, values))

  private constructor(url: string, options: PostgresAskStoreOptions) {
    this.#now = options.now ?? Date.now
    this.#logger = options.logger
    this.#pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
    // An idle connection the server dropped must not take the process down; the next query reconnects.
    this.#pool.on('error', (error) => this.#noteLost(error))
    this.#listener = new SettleListener({
      connectionString: url,
      onSettled: (payload) => this.#heard(payload),
      onInserted: (id) => this.#heardInserted(id),
      onHomeSeen: (payload) => this.homeViewers.followed(payload),
      onResumed: ({ attempts, downMs }) => {
        this.#down = false
        this.homeViewers.forget()
        this.#logger?.info(`PostgreSQL is back: listening for settlements again after ${(downMs / 1000).toFixed(1)} s (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'} to reconnect)`)
        void this.#catchUp()
      },
      onLost: (error) => {
        this.homeViewers.forget()
        this.#noteLost(error)
      },
    })
  }

  /** Once per outage: the first of the connections to notice says so. */
  #noteLost(error: Error | undefined): void {
    if (this.#down) return
    this.#down = true
    this.#logger?.warn(`PostgreSQL connection lost${error ? ` (${error.message})` : ''}; reconnecting every ${RECONNECT_SECONDS} s until it answers`)
  }

  /** Connects, migrates, listens, prunes old settled asks. */
  static async open(url: string, options: PostgresAskStoreOptions = {}): Promise<PostgresAskStore> {
    const store = new PostgresAskStore(url, options)
    try {
      await migratePostgres(store.#pool)
      await store.#listener.start()
      const cutoff = store.#now() - (options.retentionMs ?? SETTLED_RETENTION_MS)
      await store.#query(SQL.prune, [cutoff])
      await store.#query(SQL.pruneLeases, [cutoff])
      await store.#query(HOME_SQL.prune, [cutoff])
    } catch (error) {
      await store.close()
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(`could not open the PostgreSQL state at ${describePostgresUrl(url)}: ${reason}`, { cause: error })
    }
    return store
  }

  async #query<Row extends pg.QueryResultRow = { record: AskRecord }>(text: string, values: unknown[]): Promise<pg.QueryResult<Row>> {
    this.queries += 1
    this.statementCounts.set(text, (this.statementCounts.get(text) ?? 0) + 1)
    const result = await this.#pool.query<Row>(text, values)
    // Only a pooled connection dropped (the LISTEN connection never did): it is over, and said nothing more.
    if (this.#down && this.#listener.listening) this.#down = false
    return result
  }

  async insert(record: AskRecord, caps?: AskLimits, postClaim?: PostClaim): Promise<void> {
    if (this.#insertListeners.size > 0 && record.expiresAt !== undefined) this.#insertedHere.add(record.id)
    let capped: AskLimits | undefined
    try {
      const result = await this.#query(SQL.insert, [
        record.id,
        record.status,
        requestKeyOf(record) ?? null,
        record.owner.kind === 'library' ? record.owner.instance : null,
        record.createdAt,
        JSON.stringify(record),
        record.expiresAt ?? null,
        record.apiKey ?? null,
        record.rule ?? null,
        caps?.pending ?? null,
        caps?.pendingPerKey ?? null,
        postClaim?.holder ?? null,
        // Unposted and unclaimed: a claim that has run out, so the sweep posts it; recorded posted: none (only an unposted ask has a claim, decision 0104).
        postClaim?.until ?? (record.message ? null : 0),
      ])
      // Without caps the insert has no condition: it added the row or threw.
      if (caps && result.rows.length === 0) capped = caps
    } catch (error) {
      this.#insertedHere.delete(record.id)
      if ((error as { code?: string }).code === '23505') {
        throw new Error(`ask ${record.id}${requestKeyOf(record) === undefined ? '' : ` or an ask for ${requestKeyOf(record)}`} already exists`, { cause: error })
      }
      throw error
    }
    if (!capped) return
    this.#insertedHere.delete(record.id)
    // No row: a cap is reached. Counted again only now, to say which (a rare path).
    throw new PendingCapReached(await this.countPending(record.apiKey), capped, record.apiKey)
  }

  async get(id: string): Promise<AskRecord | undefined> {
    return (await this.#query(SQL.get, [id])).rows[0]?.record
  }

  async newestOfAgent(door: AskDoor, agentId: string, limit: number): Promise<AskRecord[]> {
    const { apiKey, hostPrefix } = doorColumns(door)
    return (await this.#query(SQL.newestOfAgent, [agentId, limit, apiKey, hostPrefix])).rows.map((row) => row.record)
  }

  async findByExternalKey(key: string): Promise<AskRecord | undefined> {
    return (await this.#query(SQL.byExternalKey, [key])).rows[0]?.record
  }

  async attachMessage(id: string, message: PostedMessage, event?: NewAskEvent, written?: AskRecord): Promise<AskRecord | undefined> {
    const params = [id, JSON.stringify(message), event?.at ?? null, event ? JSON.stringify(event) : null, written !== undefined, written?.approval?.arguments ?? null]
    const row = (await this.#query(SQL.attachMessage, params)).rows[0]
    if (!row) return undefined
    // Handed back, not read back: the row is `written` with the message (decision 0079).
    return row.record === null && written ? { ...written, message } : (row.record ?? undefined)
  }

  async attachApprovalArguments(id: string, args: string): Promise<boolean> {
    return (await this.#query(SQL.attachApprovalArguments, [id, args])).rowCount === 1
  }

  async settle(id: string, settlement: Settlement, also: SettleAlso = {}): Promise<SettleResult> {
    const { event, messageClaim } = also
    const values = [id, settlement.status, this.#now(), JSON.stringify(settlement), event ? JSON.stringify(event) : null, messageClaim?.holder ?? null, messageClaim?.until ?? null, event?.at ?? null]
    const won = (await this.#query(SQL.settle, values)).rows[0]?.record
    if (won) {
      this.watchers.notifyWith(id, () => structuredClone(won), won)
      return { won: true, record: won }
    }
    // A fresh statement, so it sees the winner's commit (the claim's own snapshot may predate it).
    const record = await this.get(id)
    if (!record) throw new Error(`no ask ${id}`)
    return { won: false, record }
  }

  async markFinalMessageShown(id: string): Promise<void> {
    await this.#query(SQL.markShown, [id])
  }

  watch(id: string, listener: (record: AskRecord) => void, options?: WatchOptions): () => void {
    return this.watchers.add(id, listener, options)
  }

  #heard(payload: string): void {
    if (payload.startsWith('{')) {
      // Every instance hears every settle; only one where someone waits needs the record. jsonb writes shorter keys
      // first, so the text starts with the id (unless a later version adds a shorter key: then it is parsed).
      const id = RECORD_ID.exec(payload)?.[1]
      if (id !== undefined && !this.watchers.has(id)) return
      const record = JSON.parse(payload) as AskRecord
      if (this.watchers.has(record.id)) this.watchers.notify(record)
    } else if (this.watchers.has(payload)) {
      void this.get(payload).then(
        (record) => record && record.status !== 'pending' && this.watchers.notify(record),
        (error: unknown) => this.#logger?.warn(`could not read settled ask ${payload}: ${error instanceof Error ? error.message : String(error)}`),
      )
    }
  }

  onInsertedElsewhere(listener: (ask: { id: string; expiresAt: number }) => void): () => void {
    this.#insertListeners.add(listener)
    return () => this.#insertListeners.delete(listener)
  }

  #heardInserted(payload: string): void {
    const [id = '', expiresAt] = payload.split(' ')
    if (this.#insertedHere.delete(id)) return
    const ask = { id, expiresAt: Number(expiresAt) }
    if (Number.isFinite(ask.expiresAt)) for (const listener of this.#insertListeners) listener(ask)
  }

  async claimMessage(id: string, holder: string, now: number, until: number): Promise<boolean> {
    return (await this.#query(SQL.claimMessage, [id, holder, now, until])).rowCount === 1
  }

  async claimPost(id: string, holder: string, now: number, until: number): Promise<PostClaimResult> {
    const row = (await this.#query<{ taken: number; until: string | null }>(SQL.claimPost, [id, holder, now, until])).rows[0]
    if (!row) return { kind: 'moot' }
    if (row.taken === 1) return { kind: 'taken' }
    // Taken by another in the moment since this statement's snapshot: held, for as long as a claim runs. (bigint comes back as text.)
    return { kind: 'held', until: row.until === null ? until : Number(row.until) }
  }

  async releaseMessage(id: string, holder: string, shown: boolean): Promise<void> {
    await this.#query(SQL.releaseMessage, [id, holder, shown])
  }

  /** After a dropped LISTEN connection: whatever settled meanwhile. */
  async #catchUp(): Promise<void> {
    const ids = this.watchers.ids()
    if (ids.length === 0) return
    try {
      for (const row of (await this.#query(SQL.settledAmong, [ids])).rows) this.watchers.notify(row.record)
    } catch (error) {
      this.#logger?.warn(`could not re-read watched asks: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  async listPending(): Promise<AskRecord[]> {
    return (await this.#query(SQL.pending, [])).rows.map((row) => row.record)
  }

  async listPendingAmong(ids: readonly string[]): Promise<AskRecord[]> {
    return (await this.#query(SQL.pendingAmong, [ids])).rows.map((row) => row.record)
  }

  async listPendingSummaries(): Promise<PendingSummary[]> {
    return (await this.#query<SummaryRow>(SQL.pendingSummaries, [])).rows.map(summaryOf)
  }

  async listSweepable(now: number, armBy: number): Promise<PendingSummary[]> {
    return (await this.#query<SummaryRow>(SQL.sweepable, [now, armBy])).rows.map(summaryOf)
  }

  async listUnshownSettled(): Promise<AskRecord[]> {
    return (await this.#query(SQL.unshown, [])).rows.map((row) => row.record)
  }

  async renewLease(instance: string, until: number): Promise<void> {
    await this.#query(SQL.renewLease, [instance, until])
  }

  async leaseUntil(instance: string): Promise<number | undefined> {
    const row = (await this.#query<{ lease_until: string }>(SQL.leaseUntil, [instance])).rows[0]
    return row === undefined ? undefined : Number(row.lease_until)
  }

  async endLease(instance: string): Promise<void> {
    await this.#query(SQL.endLease, [instance])
  }

  async addApproval(id: string, approval: Approval): Promise<ApprovalResult> {
    const added = (await this.#query<{ seq: string }>(TEAM_SQL.addApproval, [id, approval.by.id, JSON.stringify(approval)])).rowCount === 1
    const row = (await this.#query<{ status: string; record: AskRecord }>(TEAM_SQL.status, [id])).rows[0]
    if (!row) throw new Error(`no ask ${id}`)
    if (!added && row.status !== 'pending') return { kind: 'closed', record: row.record }
    return { kind: added ? 'added' : 'duplicate', approvals: await this.approvals(id) }
  }

  async approvals(id: string): Promise<Approval[]> {
    return (await this.#query<{ approval: Approval }>(TEAM_SQL.approvals, [id])).rows.map((row) => row.approval)
  }

  async schedule(jobs: ScheduledJob[]): Promise<void> {
    for (const job of jobs) await this.#query(TEAM_SQL.schedule, [job.askId, job.kind, job.dueAt])
  }

  async claimDueJobs(now: number): Promise<ScheduledJob[]> {
    const rows = (await this.#query<{ askId: string; kind: ScheduledJob['kind']; dueAt: string; status: string | null }>(TEAM_SQL.claim, [now])).rows
    return rows
      .filter((row) => row.status === 'pending')
      .map((row) => ({ askId: row.askId, kind: row.kind, dueAt: Number(row.dueAt) }))
      .sort((a, b) => a.dueAt - b.dueAt)
  }

  async listScheduled(): Promise<ScheduledJob[]> {
    return (await this.#query<{ askId: string; kind: ScheduledJob['kind']; dueAt: string }>(TEAM_SQL.scheduled, [])).rows.map((row) => ({ askId: row.askId, kind: row.kind, dueAt: Number(row.dueAt) }))
  }

  async appendEvent(event: NewAskEvent): Promise<AskEvent> {
    const row = (await this.#query<{ seq: string }>(TEAM_SQL.append, [event.askId, event.at, JSON.stringify(event)])).rows[0]!
    return { ...structuredClone(event), seq: Number(row.seq) }
  }

  async events(askId: string): Promise<AskEvent[]> {
    return (await this.#query<{ seq: string; event: NewAskEvent }>(TEAM_SQL.events, [askId])).rows.map((row) => ({ ...row.event, seq: Number(row.seq) }))
  }

  async listEvents(query: EventQuery): Promise<AskEvent[]> {
    const rows = (await this.#query<{ seq: string; event: NewAskEvent }>(TEAM_SQL.listEvents, [query.since ?? 0, query.afterSeq ?? 0, query.limit])).rows
    return rows.map((row) => ({ ...row.event, seq: Number(row.seq) }))
  }

  async listAsks(query: AskQuery): Promise<AskPage> {
    const after = query.cursor === undefined ? null : decodeAskCursor(query.cursor)
    const rows = (await this.#query(TEAM_SQL.listAsks, [query.status ?? null, query.since ?? 0, after?.createdAt ?? null, after?.id ?? null, query.limit + 1, query.key ?? null, query.rule ?? null])).rows
    const asks = rows.slice(0, query.limit).map((row) => row.record)
    const page: AskPage = { asks }
    if (rows.length > query.limit && asks.length > 0) page.nextCursor = encodeAskCursor(asks.at(-1)!)
    return page
  }

  async countPending(key?: string): Promise<PendingCount> {
    const row = (await this.#query<{ total: string; for_key: string }>(TEAM_SQL.countPending, [key ?? null])).rows[0]!
    return { total: Number(row.total), forKey: Number(row.for_key) }
  }

  /** Whether the database answers (for `/healthz`). */
  async ping(): Promise<boolean> {
    try {
      await this.#pool.query('SELECT 1')
      return true
    } catch {
      return false
    }
  }

  #closed: Promise<void> | undefined
  close(): Promise<void> {
    return (this.#closed ??= (async () => {
      await this.#listener.close()
      await this.#pool.end().catch(() => undefined)
    })())
  }
}

/** A row of `pendingSummaries` and `sweepable`: node-postgres parses the jsonb, bigints come as text. */
interface SummaryRow {
  id: string
  created_at: string
  owner: AskOwner
  expires_at: string | null
  message: PostedMessage | null
  policy: AskPolicy | null
}

function summaryOf({ id, created_at, owner, expires_at, message, policy }: SummaryRow): PendingSummary {
  return {
    id,
    createdAt: Number(created_at),
    owner,
    ...(expires_at !== null ? { expiresAt: Number(expires_at) } : {}),
    ...(message !== null ? { message } : {}),
    ...(policy !== null ? { policy } : {}),
  }
}
