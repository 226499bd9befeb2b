import { randomBytes } from 'node:crypto'
import pg from 'pg'

/**
 * The PostgreSQL server the tests use (CI starts one; .ci/run fails when it
 * cannot). Override with DSH_SLACK_TEST_POSTGRES for another server.
 */
export const TEST_POSTGRES_URL = process.env.DSH_SLACK_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface FreshDatabase {
  /** A URL for `DSH_SLACK_STATE` / the `state` option. */
  url: string
  name: string
  /** Drops the database, closing whatever is still connected to it. */
  drop(): Promise<void>
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A new, empty database with a random name; each suite makes its own and drops it after. */
export async function freshDatabase(): Promise<FreshDatabase> {
  const name = `dsh_slack_test_${randomBytes(6).toString('hex')}`
  await admin((client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(TEST_POSTGRES_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    name,
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  }
}

/**
 * Slack's rate limits refill for instances sharing `databaseUrl`: the
 * stand-in's clock moves on a minute, and the budget the instances share in
 * PostgreSQL is forgotten (its clock is the database's, which a test cannot
 * move). For suites about sharing state or outages, not about pacing.
 */
export async function aMinutePasses(clock: { advance(ms: number): void }, databaseUrl: string): Promise<void> {
  clock.advance(60_000)
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('DELETE FROM rate_budget')
  } finally {
    await client.end()
  }
}
