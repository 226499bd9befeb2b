import type { LedgerBucket, LedgerTurn, RateLedger } from '../rate-ledger.js'

type Query = <Row extends Record<string, unknown>>(text: string, values: unknown[]) => Promise<{ rows: Row[] }>

/** The database's clock in ms, read once per statement (a volatile CTE is evaluated once). */
const NOW = `now AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms)`

/**
 * Each wanted bucket's row, in key order: two instances reserving the same
 * buckets lock their rows in the same order, so they never deadlock.
 */
const WANTED = `wanted AS (SELECT key, amount FROM unnest($1::text[], $2::float8[]) AS w(key, amount) ORDER BY key)`

const SQL = {
  /**
   * GCRA reservation: the bucket's arrival time moves on by one call's cost
   * from whichever is later, itself or now. `amount` is the cost; the wait
   * (arrival − cost − burst − now) is worked out by the caller, who knows the burst.
   */
  reserve: `WITH ${NOW}, ${WANTED}
            INSERT INTO rate_budget AS b (key, tat)
            SELECT key, (SELECT ms FROM now) + amount FROM wanted
            ON CONFLICT (key) DO UPDATE SET tat = GREATEST(b.tat, (SELECT ms FROM now)) + (EXCLUDED.tat - (SELECT ms FROM now))
            RETURNING b.key, b.tat, b.per_minute, (SELECT ms FROM now) AS now`,
  /**
   * A 429's pause: moves each bucket's arrival time to at least now +
   * `amount` (never back), and records what was learned ($3; null keeps it).
   */
  pause: `WITH ${NOW}, ${WANTED}
          INSERT INTO rate_budget AS b (key, tat, per_minute)
          SELECT key, (SELECT ms FROM now) + amount, $3::float8 FROM wanted
          ON CONFLICT (key) DO UPDATE SET tat = GREATEST(b.tat, EXCLUDED.tat), per_minute = COALESCE(EXCLUDED.per_minute, b.per_minute)`,
} as const

/** Slack's rate-limit buckets in PostgreSQL, one row per bucket, shared by every instance on the database. */
export class PostgresRateLedger implements RateLedger {
  constructor(private readonly query: Query) {}

  async reserve(buckets: readonly LedgerBucket[]): Promise<LedgerTurn> {
    if (buckets.length === 0) return { waitMs: 0 }
    const byKey = new Map(buckets.map((bucket) => [bucket.key, bucket]))
    const rows = (await this.query<{ key: string; tat: number; per_minute: number | null; now: number }>(SQL.reserve, [[...byKey.keys()], [...byKey.values()].map((bucket) => bucket.costMs)])).rows
    const turn: LedgerTurn = { waitMs: 0 }
    for (const row of rows) {
      const bucket = byKey.get(row.key)!
      turn.waitMs = Math.max(turn.waitMs, Number(row.tat) - bucket.costMs - bucket.burstMs - Number(row.now))
      if (row.per_minute !== null) turn.learnedPerMinute = Number(row.per_minute)
    }
    return turn
  }

  async pause(buckets: readonly LedgerBucket[], forMs: number, learnedPerMinute?: number): Promise<void> {
    if (buckets.length === 0) return
    const byKey = new Map(buckets.map((bucket) => [bucket.key, bucket]))
    await this.query(SQL.pause, [[...byKey.keys()], [...byKey.values()].map((bucket) => forMs + bucket.burstMs), learnedPerMinute ?? null])
  }
}
