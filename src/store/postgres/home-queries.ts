import { HOME_CHANNEL } from './queries.js'

/**
 * The PostgreSQL statements behind the Home tab's viewers (migration
 * 0005-home-viewers). In an UPDATE every expression reads the row as it was,
 * so each statement decides and writes in one step, under the row's lock.
 */
export const HOME_SQL = {
  /** Every instance hears of it (HOME_CHANNEL), so none reads the table again to learn who has the tab open. */
  seen: `WITH noted AS (
           INSERT INTO home_viewers (user_id, opened_at) VALUES ($1, $2)
           ON CONFLICT (user_id) DO UPDATE SET opened_at = GREATEST(home_viewers.opened_at, EXCLUDED.opened_at)
           RETURNING user_id, opened_at
         )
         SELECT pg_notify('${HOME_CHANNEL}', user_id || ' ' || opened_at) FROM noted`,
  openSince: `SELECT user_id, opened_at FROM home_viewers WHERE opened_at >= $1`,
  /** The row exists once anyone publishes for the person (a refresh of someone who never opened the tab). */
  ensure: `INSERT INTO home_viewers (user_id, opened_at) VALUES ($1, 0) ON CONFLICT (user_id) DO NOTHING`,
  /** Free (or ours, or run out): take it; held by another: mark the tab stale for them. */
  claim: `UPDATE home_viewers SET
            claim = CASE WHEN claim IS NULL OR claim = $2 OR claim_until < $3 THEN $2 ELSE claim END,
            claim_until = CASE WHEN claim IS NULL OR claim = $2 OR claim_until < $3 THEN $4 ELSE claim_until END,
            stale = NOT (claim IS NULL OR claim = $2 OR claim_until < $3)
          WHERE user_id = $1
          RETURNING claim = $2 AS held`,
  /** Let go unless stale; stale: keep the claim, clear the mark, publish again. RETURNING reads the new row. */
  release: `UPDATE home_viewers SET
              claim = CASE WHEN stale THEN claim ELSE NULL END,
              claim_until = CASE WHEN stale THEN claim_until ELSE NULL END,
              stale = false
            WHERE user_id = $1 AND claim = $2
            RETURNING claim IS NULL AS released`,
  prune: `DELETE FROM home_viewers WHERE opened_at < $1 AND claim IS NULL`,
} as const
