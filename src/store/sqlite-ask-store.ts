import type { AskLimits } from '../policy/operator-policy.js'
import { silentLogger, type Logger } from '../log/logger.js'
import type { AskPolicy, PendingCount } from './team-records.js'
import { doorColumns, requestKeyOf, type AskDoor, type AskOwner, type AskRecord, type PendingSummary, type PostClaim, type PostClaimResult, type PostedMessage, type SettleAlso, type Settlement, type SettleResult } from './ask-record.js'
import type { AskStore, StoreKind } from './ask-store.js'
import { loadMigrations } from './migrations/load-migrations.js'
import { PendingCapReached } from './pending-caps.js'
import { preparePrivateStateFile, tightenStateFiles } from './private-files.js'
import { SettleWatchers, type WatchOptions } from './settle-watchers.js'
import { SqliteDatabase } from './sqlite-driver.js'
import { SqliteTeamTables } from './sqlite-team-tables.js'
import { sharedWalCheckpointer, type CheckpointMode, type CheckpointTicket, type WalCheckpointer } from './wal-checkpoints.js'
import type { Approval, ApprovalResult, AskEvent, AskPage, AskQuery, EventQuery, NewAskEvent, ScheduledJob } from './team-records.js'

/**
 * How long a settled ask stays readable (`GET /v1/asks/:id`) after it was
 * settled. Pending asks are never pruned: a question may wait for weeks.
 * Pruning runs when a store opens, so a long-lived service prunes at its
 * next restart; nothing runs on a timer.
 */
export const SETTLED_RETENTION_MS = 7 * 24 * 60 * 60 * 1000

/**
 * How often a store looks for settlements written by another process (a
 * second service instance, or a click handled by another process on the
 * same file), and only while someone in this process waits for one.
 */
export const CROSS_PROCESS_POLL_MS = 500

/** How long a write waits for another process's lock before it fails. */
const BUSY_TIMEOUT_MS = 5000

export interface SqliteAskStoreOptions {
  /** Settled asks older than this are deleted at open (default `SETTLED_RETENTION_MS`). */
  retentionMs?: number
  /** Poll interval for other processes' settlements (default `CROSS_PROCESS_POLL_MS`). */
  pollIntervalMs?: number
  /** The clock, for pruning and `settled_at`. */
  now?: () => number
  /** Who takes a file's WAL checkpoints off the event loop (default: the process's one thread for every state file). */
  checkpointer?: WalCheckpointer
  /** Where a file going back to checkpointing on commit is reported. */
  logger?: Logger
}

/**
 * Asks in a SQLite file (node:sqlite, through sqlite-driver.ts), so a service restart loses
 * nothing and several processes on one machine can share one file.
 *
 * Each record is stored whole as JSON, beside the columns that are queried
 * (`status`, the unique `external_key`, `owner`). Updates that touch one
 * field use `json_set` in a single statement, so no read-modify-write spans
 * two statements and no other process can slip in between.
 *
 * node:sqlite is synchronous: a statement runs to completion before any
 * other JavaScript in this process, so within one process every method is
 * atomic; across processes `settle` is a conditional `UPDATE … WHERE
 * status = 'pending'`, and SQLite's write lock lets exactly one succeed.
 */
export class SqliteAskStore implements AskStore {
  readonly watchers = new SettleWatchers()
  readonly #db: SqliteDatabase
  readonly #pollIntervalMs: number
  readonly #now: () => number
  #pollTimer: NodeJS.Timeout | undefined
  readonly #statements
  readonly #attach: (id: string, message: PostedMessage, event: NewAskEvent | undefined, written: AskRecord | undefined) => AskRecord | undefined
  readonly #settle: (id: string, settlement: Settlement, also: SettleAlso) => SettleResult & { text?: string }
  readonly #team: SqliteTeamTables
  readonly #checkpoints: CheckpointTicket | undefined

  readonly kind: StoreKind

  /** `path` is a file (parent directories are created) or `':memory:'`. */
  constructor(path: string, options: SqliteAskStoreOptions = {}) {
    this.kind = path === ':memory:' || path === '' ? 'memory' : 'sqlite'
    this.#pollIntervalMs = options.pollIntervalMs ?? CROSS_PROCESS_POLL_MS
    this.#now = options.now ?? Date.now
    const onDisk = path !== ':memory:' && path !== ''
    if (onDisk) preparePrivateStateFile(path)
    this.#db = new SqliteDatabase(path)
    try {
      this.#db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
      if (onDisk) {
        this.#db.pragma('journal_mode = WAL')
        // The WAL and shared-memory files exist now; ones left by an older
        // version with looser modes are tightened here.
        tightenStateFiles(path)
        // Every write (insert, attach, settle, shown) runs on the event loop: in WAL mode NORMAL
        // commits without an fsync each time and still survives a crash of the process; only a
        // power cut can lose the last commits, and a settled answer has reached its caller by then.
        this.#db.pragma('synchronous = NORMAL')
      }
      this.#migrate()
    } catch (error) {
      this.#db.close()
      throw error
    }
    const logger = options.logger ?? silentLogger
    this.#checkpoints = onDisk
      ? (options.checkpointer ?? sharedWalCheckpointer()).adopt({
          path,
          setAutoCheckpoint: (pages) => {
            if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${pages}`)
          },
          warn: (message) => logger.warn(message),
        })
      : undefined
    const db = this.#db
    this.#statements = {
      insert: db.prepare(
        `INSERT INTO asks (id, status, external_key, owner, created_at, settled_at, record, api_key, rule, post_claim, post_claim_until, expires_at)
         VALUES (@id, @status, @externalKey, json_extract(@record, '$.owner'), @createdAt, NULL, @record, @apiKey, @rule, @postClaim, @postClaimUntil, @expiresAt)`,
      ),
      // The caps counted in the insert itself: one statement, and no other writer between the count and the row.
      insertWithinCaps: db.prepare(
        `INSERT INTO asks (id, status, external_key, owner, created_at, settled_at, record, api_key, rule, post_claim, post_claim_until, expires_at)
         SELECT @id, @status, @externalKey, json_extract(@record, '$.owner'), @createdAt, NULL, @record, @apiKey, @rule, @postClaim, @postClaimUntil, @expiresAt
         WHERE (SELECT count(*) FROM asks WHERE status = 'pending') < @pending
           AND (@apiKey IS NULL OR (SELECT count(*) FROM asks WHERE status = 'pending' AND api_key = @apiKey) < @pendingPerKey)`,
      ),
      get: db.prepare('SELECT record FROM asks WHERE id = ?').pluck(),
      byExternalKey: db.prepare('SELECT record FROM asks WHERE external_key = ?').pluck(),
      // The door as doorOf reads it: the key's name in api_key, or a relayed request's key beginning with its host.
      newestOfAgent: db
        .prepare(
          `SELECT record FROM asks WHERE json_extract(record, '$.agent.id') = @agentId AND api_key IS @apiKey
             AND CASE WHEN @hostPrefix IS NULL THEN json_extract(record, '$.relayDelivery.key') IS NULL
                      ELSE substr(json_extract(record, '$.relayDelivery.key'), 1, length(@hostPrefix)) = @hostPrefix END
           ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
        )
        .pluck(),
      // The row comes back only when the caller's copy (@written) cannot stand for it: settled meanwhile, or a relayed
      // approval's arguments arrived (nothing else changes an open ask). NULL: it is @written with the message.
      // The post claim goes with the card posted: only an unposted ask holds one, so the sweep finds those by it (decision 0104).
      attachMessage: db
        .prepare(
          `UPDATE asks SET record = json_set(record, '$.message', json(@message)), post_claim = NULL, post_claim_until = NULL WHERE id = @id
           RETURNING CASE WHEN @written AND status = 'pending' AND json_extract(record, '$.approval.arguments') IS @arguments THEN NULL ELSE record END`,
        )
        .pluck(),
      attachApprovalArguments: db.prepare(
        `UPDATE asks SET record = json_set(record, '$.approval.arguments', ?)
         WHERE id = ? AND status = 'pending' AND json_extract(record, '$.approval') IS NOT NULL`,
      ),
      // The winner also takes the card's claim (@holder, or null: none), whoever held it: nobody updates a pending ask's card under a claim.
      // Only once the message is recorded (SET reads the row as it was): until then its poster shows the settlement.
      settle: db
        .prepare(
          `UPDATE asks
           SET status = @status, settled_at = @settledAt,
               record = json_set(record, '$.status', @status, '$.settlement', json(@settlement), '$.finalMessageShown', json('false')),
               message_claim = CASE WHEN @holder IS NULL OR json_extract(record, '$.message') IS NULL THEN message_claim ELSE @holder END,
               message_claim_until = CASE WHEN @holder IS NULL OR json_extract(record, '$.message') IS NULL THEN message_claim_until ELSE @until END
           WHERE id = @id AND status = 'pending'
           RETURNING record,
             @known AND json_extract(record, '$.message.channel') IS @knownChannel AND json_extract(record, '$.message.ts') IS @knownTs
               AND json_extract(record, '$.approval.arguments') IS @knownArguments AS asKnown`,
        ),
      markShown: db.prepare(`UPDATE asks SET record = json_set(record, '$.finalMessageShown', json('true')) WHERE id = ?`),
      pending: db.prepare(`SELECT record FROM asks WHERE status = 'pending' ORDER BY created_at`).pluck(),
      pendingSummaries: db.prepare(
        `SELECT id, created_at AS createdAt, owner, json_extract(record, '$.expiresAt') AS expiresAt,
                json_extract(record, '$.message') AS message, json_extract(record, '$.policy') AS policy
         FROM asks WHERE status = 'pending' ORDER BY created_at`,
      ),
      // Each part on its own partial index (migration 0008), named: without statistics the planner would take the
      // status index and read every pending ask. None reads an ask the sweep has nothing to do with.
      sweepable: db.prepare(
        `SELECT id, created_at AS createdAt, owner, expires_at AS expiresAt,
                json_extract(record, '$.message') AS message, json_extract(record, '$.policy') AS policy
         FROM asks INDEXED BY asks_pending_library WHERE status = 'pending' AND owner <> '{"kind":"service"}'
         UNION
         SELECT id, created_at, owner, expires_at, json_extract(record, '$.message'), json_extract(record, '$.policy')
         FROM asks INDEXED BY asks_pending_expiry WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= @armBy
         UNION
         SELECT id, created_at, owner, expires_at, json_extract(record, '$.message'), json_extract(record, '$.policy')
         FROM asks INDEXED BY asks_pending_unposted WHERE status = 'pending' AND post_claim_until IS NOT NULL AND post_claim_until <= @now`,
      ),
      unshown: db
        .prepare(
          `SELECT record FROM asks
           WHERE status != 'pending'
             AND json_extract(record, '$.finalMessageShown') = 0
             AND json_extract(record, '$.message') IS NOT NULL
           ORDER BY settled_at`,
        )
        .pluck(),
      pendingAmong: db.prepare(`SELECT record FROM asks WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending'`).pluck(),
      settledAmong: db
        .prepare(`SELECT record FROM asks WHERE id IN (SELECT value FROM json_each(?)) AND status != 'pending'`)
        .pluck(),
      prune: db.prepare(`DELETE FROM asks WHERE status != 'pending' AND settled_at < ?`),
      renewLease: db.prepare(
        `INSERT INTO instance_leases (instance, lease_until) VALUES (?, ?)
         ON CONFLICT (instance) DO UPDATE SET lease_until = max(lease_until, excluded.lease_until)`,
      ),
      claimMessage: db.prepare(
        `UPDATE asks SET message_claim = @holder, message_claim_until = @until
         WHERE id = @id AND (message_claim IS NULL OR message_claim = @holder OR message_claim_until < @now)`,
      ),
      // Only while the card is unposted and the ask open: after that there is nothing left to post.
      claimPost: db.prepare(
        `UPDATE asks SET post_claim = @holder, post_claim_until = @until
         WHERE id = @id AND status = 'pending' AND json_extract(record, '$.message') IS NULL
           AND (post_claim IS NULL OR post_claim = @holder OR post_claim_until < @now)`,
      ),
      postClaimUntil: db.prepare(
        `SELECT post_claim_until FROM asks WHERE id = ? AND status = 'pending' AND json_extract(record, '$.message') IS NULL`,
      ).pluck(),
      releaseMessage: db.prepare(
        `UPDATE asks SET message_claim = NULL, message_claim_until = NULL,
             record = CASE WHEN @shown THEN json_set(record, '$.finalMessageShown', json('true')) ELSE record END
         WHERE id = @id AND message_claim = @holder`,
      ),
      leaseUntil: db.prepare('SELECT lease_until FROM instance_leases WHERE instance = ?').pluck(),
      endLease: db.prepare('DELETE FROM instance_leases WHERE instance = ?'),
    }
    this.#team = new SqliteTeamTables(db)
    // Each a transaction made once: one commit on disk for a step's writes.
    this.#attach = db.transaction((id: string, message: PostedMessage, event: NewAskEvent | undefined, written: AskRecord | undefined) => {
      const text = this.#statements.attachMessage.get({ id, message: JSON.stringify(message), written: written ? 1 : 0, arguments: written?.approval?.arguments ?? null })
      if (text === undefined) return undefined
      if (event) this.#team.record(event)
      // Handed back, not read back: the row is `written` with the message (decision 0079).
      return text === null && written ? { ...written, message } : parse(text)
    })
    this.#settle = db.transaction((id: string, settlement: Settlement, also: SettleAlso): SettleResult & { text?: string } => {
      const { messageClaim: claim, known } = also
      const row = this.#statements.settle.get({
        id,
        status: settlement.status,
        settledAt: this.#now(),
        settlement: JSON.stringify(settlement),
        holder: claim?.holder ?? null,
        until: claim?.until ?? null,
        known: known?.status === 'pending' ? 1 : 0,
        knownChannel: known?.message?.channel ?? null,
        knownTs: known?.message?.ts ?? null,
        knownArguments: known?.approval?.arguments ?? null,
      }) as { record: string; asKnown: number } | undefined
      if (!row) {
        const record = parse(this.#statements.get.get(id))
        if (!record) throw new Error(`no ask ${id}`)
        return { won: false, record }
      }
      if (also.hasJobs !== false) this.#team.dropJobs(id)
      if (also.event) this.#team.record(also.event)
      // The row is `known` with the settlement (what the statement wrote): handed back, not parsed (decision 0079).
      const won = row.asKnown === 1 && known ? { ...known, status: settlement.status, settlement, finalMessageShown: false } : parse(row.record)!
      return { won: true, record: won, text: row.record }
    })
    this.#statements.prune.run(this.#now() - (options.retentionMs ?? SETTLED_RETENTION_MS))
  }

  /**
   * Applies the numbered files of `migrations/sqlite/` this file has not
   * seen (`user_version` counts them). IMMEDIATE takes the write lock
   * before reading the version, so processes opening one file at once
   * migrate it once; a file from a newer dsh-slack is refused.
   */
  #migrate(): void {
    const migrations = loadMigrations('sqlite')
    this.#db
      .transaction(() => {
        const version = this.#db.pragma('user_version', { simple: true }) as number
        if (version > migrations.length) {
          throw new Error(`the state file was written by a newer dsh-slack (schema ${version}, this one knows ${migrations.length})`)
        }
        for (const migration of migrations.slice(version)) this.#db.exec(migration.sql)
        if (version < migrations.length) this.#db.pragma(`user_version = ${migrations.length}`)
      })
      .immediate()
  }

  async insert(record: AskRecord, caps?: AskLimits, postClaim?: PostClaim): Promise<void> {
    const row = {
      id: record.id,
      status: record.status,
      externalKey: requestKeyOf(record) ?? null,
      createdAt: record.createdAt,
      record: JSON.stringify(record),
      apiKey: record.apiKey ?? null,
      rule: record.rule ?? null,
      postClaim: postClaim?.holder ?? null,
      // Unposted and unclaimed: a claim that has run out, so the sweep posts it; recorded posted: none (only an unposted ask has a claim, decision 0104).
      postClaimUntil: postClaim?.until ?? (record.message ? null : 0),
      expiresAt: record.expiresAt ?? null,
    }
    try {
      if (!caps) {
        this.#statements.insert.run(row)
        return
      }
      if (this.#statements.insertWithinCaps.run({ ...row, pending: caps.pending, pendingPerKey: caps.pendingPerKey }).changes === 1) return
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
        throw new Error(`ask ${record.id}${requestKeyOf(record) === undefined ? '' : ` or an ask for ${requestKeyOf(record)}`} already exists`, { cause: error })
      }
      throw error
    }
    // No row: a cap is reached. Counted again only now, to say which (a rare path).
    throw new PendingCapReached(this.#team.countPending(record.apiKey), caps, record.apiKey)
  }

  async get(id: string): Promise<AskRecord | undefined> {
    return parse(this.#statements.get.get(id))
  }

  async newestOfAgent(door: AskDoor, agentId: string, limit: number): Promise<AskRecord[]> {
    return this.#statements.newestOfAgent.all({ agentId, limit, ...doorColumns(door) }).map((text) => parse(text)!)
  }

  async findByExternalKey(key: string): Promise<AskRecord | undefined> {
    return parse(this.#statements.byExternalKey.get(key))
  }

  async attachMessage(id: string, message: PostedMessage, event?: NewAskEvent, written?: AskRecord): Promise<AskRecord | undefined> {
    return this.#attach(id, message, event, written)
  }

  async attachApprovalArguments(id: string, args: string): Promise<boolean> {
    return this.#statements.attachApprovalArguments.run(args, id).changes === 1
  }

  async settle(id: string, settlement: Settlement, also: SettleAlso = {}): Promise<SettleResult> {
    const { text, ...result } = this.#settle(id, settlement, also)
    // Waiters get a parse of their own; a read-only one (the long-poll) the winner's record as it is.
    if (text !== undefined) this.watchers.notifyWith(id, () => parse(text)!, result.record)
    return result
  }

  async markFinalMessageShown(id: string): Promise<void> {
    this.#statements.markShown.run(id)
  }

  async claimMessage(id: string, holder: string, now: number, until: number): Promise<boolean> {
    return this.#statements.claimMessage.run({ id, holder, now, until }).changes === 1
  }

  async claimPost(id: string, holder: string, now: number, until: number): Promise<PostClaimResult> {
    if (this.#statements.claimPost.run({ id, holder, now, until }).changes === 1) return { kind: 'taken' }
    const held = this.#statements.postClaimUntil.get(id) as number | null | undefined
    return typeof held === 'number' ? { kind: 'held', until: held } : { kind: 'moot' }
  }

  async releaseMessage(id: string, holder: string, shown: boolean): Promise<void> {
    this.#statements.releaseMessage.run({ id, holder, shown: shown ? 1 : 0 })
  }

  watch(id: string, listener: (record: AskRecord) => void, options?: WatchOptions): () => void {
    const unsubscribe = this.watchers.add(id, listener, options)
    this.#pollTimer ??= setInterval(() => this.#poll(), this.#pollIntervalMs)
    return () => {
      unsubscribe()
      this.#stopPollingIfIdle()
    }
  }

  /** Notifies watchers of asks another process settled. */
  #poll(): void {
    const ids = this.watchers.ids()
    if (ids.length > 0) {
      try {
        for (const text of this.#statements.settledAmong.all(JSON.stringify(ids))) this.watchers.notify(parse(text)!)
      } catch {
        // A locked or closing file: the next tick tries again.
      }
    }
    this.#stopPollingIfIdle()
  }

  #stopPollingIfIdle(): void {
    if (this.watchers.size > 0 || this.#pollTimer === undefined) return
    clearInterval(this.#pollTimer)
    this.#pollTimer = undefined
  }

  /** Whether the cross-process poll runs (for leak checks: only while someone watches). */
  get polling(): boolean {
    return this.#pollTimer !== undefined
  }

  async renewLease(instance: string, until: number): Promise<void> {
    this.#statements.renewLease.run(instance, until)
  }

  async leaseUntil(instance: string): Promise<number | undefined> {
    const until = this.#statements.leaseUntil.get(instance)
    return typeof until === 'number' ? until : undefined
  }

  async endLease(instance: string): Promise<void> {
    this.#statements.endLease.run(instance)
  }

  async listPending(): Promise<AskRecord[]> {
    return this.#statements.pending.all().map((text) => parse(text)!)
  }

  async listPendingAmong(ids: readonly string[]): Promise<AskRecord[]> {
    return this.#statements.pendingAmong.all(JSON.stringify(ids)).map((text) => parse(text)!)
  }

  async listPendingSummaries(): Promise<PendingSummary[]> {
    return this.#statements.pendingSummaries.all().map((row) => summaryOf(row as SummaryRow))
  }

  async listSweepable(now: number, armBy: number): Promise<PendingSummary[]> {
    return this.#statements.sweepable.all({ now, armBy }).map((row) => summaryOf(row as SummaryRow))
  }

  async listUnshownSettled(): Promise<AskRecord[]> {
    return this.#statements.unshown.all().map((text) => parse(text)!)
  }

  async addApproval(id: string, approval: Approval): Promise<ApprovalResult> {
    return this.#team.addApproval(id, approval)
  }

  async approvals(id: string): Promise<Approval[]> {
    return this.#team.approvals(id)
  }

  async schedule(jobs: ScheduledJob[]): Promise<void> {
    this.#team.schedule(jobs)
  }

  async claimDueJobs(now: number): Promise<ScheduledJob[]> {
    return this.#team.claimDueJobs(now)
  }

  async listScheduled(): Promise<ScheduledJob[]> {
    return this.#team.listScheduled()
  }

  async appendEvent(event: NewAskEvent): Promise<AskEvent> {
    return this.#team.appendEvent(event)
  }

  async events(askId: string): Promise<AskEvent[]> {
    return this.#team.events(askId)
  }

  async listEvents(query: EventQuery): Promise<AskEvent[]> {
    return this.#team.listEvents(query)
  }

  async listAsks(query: AskQuery): Promise<AskPage> {
    return this.#team.listAsks(query)
  }

  async countPending(key?: string): Promise<PendingCount> {
    return this.#team.countPending(key)
  }

  async ping(): Promise<boolean> {
    try {
      return this.#db.open && this.#db.prepare('SELECT 1 AS one').get() !== undefined
    } catch {
      return false
    }
  }

  /** Who copies this file's WAL into the database now (undefined in memory, which has no WAL). */
  get checkpointMode(): CheckpointMode | undefined {
    return this.#checkpoints?.mode
  }

  async close(): Promise<void> {
    if (this.#pollTimer !== undefined) clearInterval(this.#pollTimer)
    this.#pollTimer = undefined
    await this.#checkpoints?.release()
    if (this.#db.open) this.#db.close()
  }
}

function parse(text: unknown): AskRecord | undefined {
  return typeof text === 'string' ? (JSON.parse(text) as AskRecord) : undefined
}

/** A row of `pendingSummaries`: objects as JSON text (json_extract of an object), absent fields null. */
interface SummaryRow {
  id: string
  createdAt: number
  owner: string
  expiresAt: number | null
  message: string | null
  policy: string | null
}

function summaryOf(row: SummaryRow): PendingSummary {
  return {
    id: row.id,
    createdAt: row.createdAt,
    owner: JSON.parse(row.owner) as AskOwner,
    ...(row.expiresAt !== null ? { expiresAt: row.expiresAt } : {}),
    ...(row.message !== null ? { message: JSON.parse(row.message) as PostedMessage } : {}),
    ...(row.policy !== null ? { policy: JSON.parse(row.policy) as AskPolicy } : {}),
  }
}
