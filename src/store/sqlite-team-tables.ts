import type { AskRecord } from './ask-record.js'
import type { SqliteDatabase } from './sqlite-driver.js'
import { decodeAskCursor, encodeAskCursor, type Approval, type ApprovalResult, type AskEvent, type AskPage, type AskQuery, type EventQuery, type NewAskEvent, type PendingCount, type ScheduledJob } from './team-records.js'

/**
 * The statements behind the team features of `SqliteAskStore`. Each claim
 * is one conditional statement (an INSERT … WHERE the ask is pending, a
 * DELETE … RETURNING of due jobs), so SQLite's write lock makes it atomic
 * across processes on one file.
 */
export class SqliteTeamTables {
  readonly #statements

  constructor(db: SqliteDatabase) {
    this.#statements = {
      addApproval: db.prepare(
        `INSERT OR IGNORE INTO approvals (ask_id, user_id, approval, seq)
         SELECT @askId, @userId, @approval, (SELECT COUNT(*) FROM approvals WHERE ask_id = @askId)
         WHERE EXISTS (SELECT 1 FROM asks WHERE id = @askId AND status = 'pending')`,
      ),
      approvals: db.prepare('SELECT approval FROM approvals WHERE ask_id = ? ORDER BY seq').pluck(),
      status: db.prepare('SELECT status FROM asks WHERE id = ?').pluck(),
      record: db.prepare('SELECT record FROM asks WHERE id = ?').pluck(),
      schedule: db.prepare(
        `INSERT OR IGNORE INTO jobs (ask_id, kind, due_at)
         SELECT @askId, @kind, @dueAt WHERE EXISTS (SELECT 1 FROM asks WHERE id = @askId AND status = 'pending')`,
      ),
      claim: db.prepare(
        `DELETE FROM jobs WHERE due_at <= ? RETURNING ask_id AS askId, kind, due_at AS dueAt,
           (SELECT status FROM asks WHERE asks.id = jobs.ask_id) AS status`,
      ),
      scheduled: db.prepare('SELECT ask_id AS askId, kind, due_at AS dueAt FROM jobs ORDER BY due_at'),
      dropJobs: db.prepare('DELETE FROM jobs WHERE ask_id = ?'),
      append: db.prepare('INSERT INTO events (ask_id, at, event) VALUES (?, ?, ?) RETURNING seq').pluck(),
      events: db.prepare('SELECT seq, event FROM events WHERE ask_id = ? ORDER BY seq'),
      listEvents: db.prepare('SELECT seq, event FROM events WHERE at >= @since AND seq > @afterSeq ORDER BY seq LIMIT @limit'),
      // The cursor's bound on created_at alone lets the index seek to the page (see the PostgreSQL store's listAsks).
      listAsks: db
        .prepare(
          `SELECT record FROM asks
           WHERE (@status IS NULL OR status = @status) AND created_at >= @since
             AND (@key IS NULL OR api_key = @key) AND (@rule IS NULL OR rule = @rule)
             AND created_at <= COALESCE(@afterCreated, 9223372036854775807)
             AND (@afterCreated IS NULL OR created_at < @afterCreated OR (created_at = @afterCreated AND id < @afterId))
           ORDER BY created_at DESC, id DESC LIMIT @limit`,
        )
        .pluck(),
      countPending: db.prepare(`SELECT count(*) AS total, coalesce(sum(api_key IS @key), 0) AS forKey FROM asks WHERE status = 'pending'`),
    }
  }

  countPending(key: string | undefined): PendingCount {
    const row = this.#statements.countPending.get({ key: key ?? null }) as { total: number; forKey: number }
    return { total: row.total, forKey: key === undefined ? 0 : row.forKey }
  }

  addApproval(id: string, approval: Approval): ApprovalResult {
    const { changes } = this.#statements.addApproval.run({ askId: id, userId: approval.by.id, approval: JSON.stringify(approval) })
    const status = this.#statements.status.get(id)
    if (status === undefined) throw new Error(`no ask ${id}`)
    if (changes === 0 && status !== 'pending') return { kind: 'closed', record: JSON.parse(this.#statements.record.get(id) as string) as AskRecord }
    return { kind: changes === 1 ? 'added' : 'duplicate', approvals: this.approvals(id) }
  }

  approvals(id: string): Approval[] {
    return this.#statements.approvals.all(id).map((text) => JSON.parse(text as string) as Approval)
  }

  schedule(jobs: ScheduledJob[]): void {
    for (const job of jobs) this.#statements.schedule.run(job)
  }

  claimDueJobs(now: number): ScheduledJob[] {
    const rows = this.#statements.claim.all(now) as (ScheduledJob & { status: string | null })[]
    return rows.filter((row) => row.status === 'pending').map(({ askId, kind, dueAt }) => ({ askId, kind, dueAt })).sort((a, b) => a.dueAt - b.dueAt)
  }

  listScheduled(): ScheduledJob[] {
    return this.#statements.scheduled.all() as ScheduledJob[]
  }

  /** A settled ask's reminders and escalations are no longer wanted. */
  dropJobs(id: string): void {
    this.#statements.dropJobs.run(id)
  }

  appendEvent(event: NewAskEvent): AskEvent {
    return { ...structuredClone(event), seq: this.record(event) }
  }

  /** Appends an event and returns its sequence number (no copy of the event: the caller keeps its own). */
  record(event: NewAskEvent): number {
    return this.#statements.append.get(event.askId, event.at, JSON.stringify(event)) as number
  }

  events(askId: string): AskEvent[] {
    return (this.#statements.events.all(askId) as { seq: number; event: string }[]).map(eventOf)
  }

  listEvents(query: EventQuery): AskEvent[] {
    return (this.#statements.listEvents.all({ since: query.since ?? 0, afterSeq: query.afterSeq ?? 0, limit: query.limit }) as { seq: number; event: string }[]).map(eventOf)
  }

  listAsks(query: AskQuery): AskPage {
    const after = query.cursor === undefined ? null : decodeAskCursor(query.cursor)
    const rows = this.#statements.listAsks.all({
      status: query.status ?? null,
      since: query.since ?? 0,
      key: query.key ?? null,
      rule: query.rule ?? null,
      afterCreated: after?.createdAt ?? null,
      afterId: after?.id ?? null,
      limit: query.limit + 1,
    })
    const asks = rows.slice(0, query.limit).map((text) => JSON.parse(text as string) as AskRecord)
    const page: AskPage = { asks }
    if (rows.length > query.limit && asks.length > 0) page.nextCursor = encodeAskCursor(asks.at(-1)!)
    return page
  }
}

function eventOf(row: { seq: number; event: string }): AskEvent {
  return { ...(JSON.parse(row.event) as NewAskEvent), seq: row.seq }
}
