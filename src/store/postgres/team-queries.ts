/**
 * The PostgreSQL statements behind quorum approvals, reminders/escalations
 * and the audit trail (migration 0003-team). Parameters are always bound.
 */
export const TEAM_SQL = {
  /**
   * Counts an approval only while the ask is pending. FOR SHARE makes a
   * racing settle finish first, and its re-checked `status = 'pending'`
   * then fails, so no approval lands on a settled ask.
   */
  addApproval: `INSERT INTO approvals (ask_id, user_id, approval)
                SELECT $1, $2, $3::jsonb
                WHERE EXISTS (SELECT 1 FROM asks WHERE id = $1 AND status = 'pending' FOR SHARE)
                ON CONFLICT (ask_id, user_id) DO NOTHING
                RETURNING seq`,
  approvals: `SELECT approval FROM approvals WHERE ask_id = $1 ORDER BY seq`,
  status: `SELECT status, record FROM asks WHERE id = $1`,
  schedule: `INSERT INTO jobs (ask_id, kind, due_at)
             SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM asks WHERE id = $1 AND status = 'pending')
             ON CONFLICT (ask_id, kind) DO NOTHING`,
  /** The claim: a row deleted by one instance is gone for every other (they block, then skip it). */
  claim: `DELETE FROM jobs WHERE due_at <= $1
          RETURNING ask_id AS "askId", kind, due_at AS "dueAt",
            (SELECT status FROM asks WHERE asks.id = jobs.ask_id) AS status`,
  scheduled: `SELECT ask_id AS "askId", kind, due_at AS "dueAt" FROM jobs ORDER BY due_at, ask_id, kind`,
  append: `INSERT INTO events (ask_id, at, event) VALUES ($1, $2, $3::jsonb) RETURNING seq`,
  events: `SELECT seq, event FROM events WHERE ask_id = $1 ORDER BY seq`,
  listEvents: `SELECT seq, event FROM events WHERE at >= $1 AND seq > $2 ORDER BY seq LIMIT $3`,
  /**
   * Newest first, a page after the cursor ($3, $4). The cursor's bound on
   * `created_at` alone is what an index can seek to: the `OR` that breaks
   * ties by id cannot, and without it each page read every ask newer than
   * its cursor again (paging through N asks read N²/2 rows).
   */
  listAsks: `SELECT record FROM asks
             WHERE ($1::text IS NULL OR status = $1) AND created_at >= $2
               AND created_at <= COALESCE($3::bigint, 9223372036854775807)
               AND ($6::text IS NULL OR api_key = $6) AND ($7::text IS NULL OR rule = $7)
               AND ($3::bigint IS NULL OR created_at < $3 OR (created_at = $3 AND id < $4))
             ORDER BY created_at DESC, id DESC LIMIT $5`,
  countPending: `SELECT count(*) AS total, count(*) FILTER (WHERE api_key = $1) AS for_key FROM asks WHERE status = 'pending'`,
} as const
