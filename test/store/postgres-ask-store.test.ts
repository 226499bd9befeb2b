import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AskRecord } from '../../src/store/ask-record.js'
import { openStore } from '../../src/store/open-store.js'
import { migratePostgres } from '../../src/store/postgres/migrate.js'
import { describePostgresUrl, isPostgresUrl, PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { loadMigrations } from '../../src/store/migrations/load-migrations.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { aborted, answered, askStoreConformance, pendingRecord } from './ask-store-conformance.js'

let db: FreshDatabase

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db?.drop()
})

async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  try {
    return await client.query(text, values)
  } finally {
    await client.end()
  }
}

askStoreConformance('PostgresAskStore', {
  create: async () => {
    const store = await PostgresAskStore.open(db.url)
    await sql('TRUNCATE asks, instance_leases, approvals, jobs, events')
    return store
  },
  reopen: async (store) => {
    await store.close()
    return PostgresAskStore.open(db.url)
  },
})

describe('PostgresAskStore shared by several instances', () => {
  const stores: PostgresAskStore[] = []
  const open = async (count: number) => {
    const opened = await Promise.all(Array.from({ length: count }, () => PostgresAskStore.open(db.url)))
    stores.push(...opened)
    return opened
  }

  afterEach(async () => {
    vi.restoreAllMocks()
    await Promise.all(stores.splice(0).map((store) => store.close()))
  })

  it('migrates once when several instances start at the same moment', async () => {
    const fresh = await freshDatabase()
    try {
      const racing = await Promise.all(Array.from({ length: 5 }, () => PostgresAskStore.open(fresh.url)))
      await Promise.all(racing.map((store) => store.close()))

      const client = new pg.Client({ connectionString: fresh.url })
      await client.connect()
      const { rows } = await client.query<{ version: number }>('SELECT version FROM dsh_slack_migrations ORDER BY version')
      await client.end()
      expect(rows.map((row) => row.version)).toEqual(loadMigrations('postgres').map((migration) => migration.version))
    } finally {
      await fresh.drop()
    }
  })

  it('reads an ask written with the old external key as its idempotency key or its relayed request, by the key', async () => {
    const fresh = await freshDatabase()
    try {
      const pool = new pg.Pool({ connectionString: fresh.url })
      await migratePostgres(pool, loadMigrations('postgres').filter((migration) => migration.version <= 7))
      const posted = { ...pendingRecord(), externalKey: 'http-idempotency:ci:run-7' }
      const relayed = { ...pendingRecord(), externalKey: 'http://127.0.0.1:4000#rpc-3' }
      for (const record of [posted, relayed]) {
        await pool.query(`INSERT INTO asks (id, status, external_key, owner_instance, created_at, record) VALUES ($1, 'pending', $2, NULL, 1, $3::jsonb)`, [record.id, record.externalKey, JSON.stringify(record)])
      }
      await pool.end()

      const store = await PostgresAskStore.open(fresh.url)
      const [idempotent, relay] = await Promise.all([store.findByExternalKey(posted.externalKey), store.findByExternalKey(relayed.externalKey)])
      await store.close()

      const { externalKey: _posted, ...postedRest } = posted
      const { externalKey: _relayed, ...relayedRest } = relayed
      expect(idempotent).toEqual({ ...postedRest, idempotencyKey: 'http-idempotency:ci:run-7' })
      expect(relay).toEqual({ ...relayedRest, relayDelivery: { key: 'http://127.0.0.1:4000#rpc-3' } })
    } finally {
      await fresh.drop()
    }
  })

  it('migrates a database of schema 8 so the sweep finds what it did before: unposted asks by their claim, posted ones not', async () => {
    const fresh = await freshDatabase()
    try {
      const pool = new pg.Pool({ connectionString: fresh.url })
      await migratePostgres(pool, loadMigrations('postgres').filter((migration) => migration.version <= 8))
      const now = 1_700_000_000_000
      const posted = pendingRecord({ message: { channel: 'C0123ABCDEF', ts: '1.1' } })
      const unposted = pendingRecord()
      const insert = `INSERT INTO asks (id, status, created_at, record, post_claim, post_claim_until) VALUES ($1, 'pending', 1, $2::jsonb, $3, $4)`
      await pool.query(insert, [posted.id, JSON.stringify(posted), 'gone', now - 10])
      await pool.query(insert, [unposted.id, JSON.stringify(unposted), null, null])
      await pool.end()

      const store = await PostgresAskStore.open(fresh.url)
      const found = (await store.listSweepable(now, now + 60_000)).map((summary) => summary.id)
      await store.close()

      expect(found).toEqual([unposted.id])
    } finally {
      await fresh.drop()
    }
  })

  it('lets exactly one of twenty settle calls spread over three instances win', async () => {
    const [a, b, c] = await open(3)
    const record = pendingRecord()
    await a!.insert(record)

    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => [a!, b!, c!][index % 3]!.settle(record.id, answered(`U0P${index}`))))

    expect(results.filter((result) => result.won)).toHaveLength(1)
    const winner = results.find((result) => result.won)!.record.settlement
    for (const result of results) expect(result.record.settlement).toEqual(winner)
  })

  it('tells a watcher at once about a settlement another instance wrote', async () => {
    const [a, b] = await open(2)
    const record = pendingRecord()
    await a!.insert(record)
    const settled = new Promise<AskRecord>((resolve) => a!.watch(record.id, resolve))

    await b!.settle(record.id, answered('U0BOB'))

    expect(await settled).toMatchObject({ id: record.id, status: 'answered', settlement: answered('U0BOB') })
    expect(a!.watchers.size).toBe(0)
  })

  it('parses a settlement it hears only on an instance where someone waits for that ask', async () => {
    const [a, b] = await open(2)
    const unwatched = pendingRecord()
    const watched = pendingRecord()
    for (const record of [unwatched, watched]) await a!.insert(record)
    const heard = new Promise<AskRecord>((resolve) => b!.watch(watched.id, resolve))
    const parse = vi.spyOn(JSON, 'parse')

    await a!.settle(unwatched.id, answered('U0ALICE'))
    await a!.settle(watched.id, answered('U0ALICE'))
    await heard

    // Notifications arrive in order: both instances have heard the first settle by now, and neither parsed it.
    // (The driver parses the settle's own result row with the JSON.parse it kept at load, which this spy does not see.)
    const parsedUnwatched = parse.mock.calls.filter(([text]) => typeof text === 'string' && text.includes(`"${unwatched.id}"`))
    expect(parsedUnwatched).toHaveLength(0)
  })

  it('reads back a settled record too long for a NOTIFY payload before telling the watcher', async () => {
    const [a, b] = await open(2)
    const detail = 'x'.repeat(20_000)
    const record = pendingRecord({ questions: [{ id: 'q1', question: 'Long?', detail, options: [{ label: 'Yes' }], multiSelect: false }] })
    await a!.insert(record)
    const settled = new Promise<AskRecord>((resolve) => a!.watch(record.id, resolve))
    const queriesBefore = a!.queries

    await b!.settle(record.id, aborted())

    expect(await settled).toMatchObject({ status: 'aborted', questions: [{ detail }] })
    expect(a!.queries).toBe(queriesBefore + 1)
  })

  it('tells a watcher about a settlement made while its LISTEN connection was down', async () => {
    const [a, b] = await open(2)
    const record = pendingRecord()
    await a!.insert(record)
    const settled = new Promise<AskRecord>((resolve) => a!.watch(record.id, resolve))

    await sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'`, [db.name])
    await b!.settle(record.id, answered('U0BOB'))

    expect(await settled).toMatchObject({ id: record.id, status: 'answered' })
  })

  it('sees an external key another instance took', async () => {
    const [a, b] = await open(2)
    await a!.insert(pendingRecord({ relayDelivery: { key: 'http://host#rpc-pg' } }))

    await expect(b!.insert(pendingRecord({ relayDelivery: { key: 'http://host#rpc-pg' } }))).rejects.toThrow(/already exists/)
  })

  it('shares leases between instances', async () => {
    const [a, b] = await open(2)

    await a!.renewLease('library-1', 5_000)

    expect(await b!.leaseUntil('library-1')).toBe(5_000)
  })
})

describe('PostgresAskStore housekeeping', () => {
  it('deletes settled asks older than the retention period at open and keeps pending ones', async () => {
    let now = 1_700_000_000_000
    const first = await PostgresAskStore.open(db.url, { now: () => now, retentionMs: 60_000 })
    const old = pendingRecord()
    const waiting = pendingRecord()
    await first.insert(old)
    await first.insert(waiting)
    await first.settle(old.id, aborted())
    await first.close()

    now += 120_000
    const reopened = await PostgresAskStore.open(db.url, { now: () => now, retentionMs: 60_000 })

    expect(await reopened.get(old.id)).toBeUndefined()
    expect(await reopened.get(waiting.id)).toBeDefined()
    await reopened.close()
  })

  it('refuses a database migrated by a newer dsh-slack', async () => {
    const fresh = await freshDatabase()
    try {
      const pool = new pg.Pool({ connectionString: fresh.url })
      await migratePostgres(pool, [...loadMigrations('postgres'), { version: 99, name: 'future', sql: 'SELECT 1' }])
      await pool.end()

      await expect(PostgresAskStore.open(fresh.url)).rejects.toThrow(/newer dsh-slack/)
    } finally {
      await fresh.drop()
    }
  })

  it('names the server but never the password when it cannot connect', async () => {
    const error = await PostgresAskStore.open('postgres://someone:s3cret-pw@127.0.0.1:1/nowhere').catch((caught: unknown) => caught)

    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/could not open the PostgreSQL state at postgres:\/\/someone@127\.0\.0\.1:1\/nowhere/)
    expect((error as Error).message).not.toContain('s3cret-pw')
  })

  it('recognises postgres:// and postgresql:// URLs and nothing else', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true)
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true)
    expect(isPostgresUrl('.dsh-slack/state.sqlite')).toBe(false)
    expect(isPostgresUrl(':memory:')).toBe(false)
    expect(describePostgresUrl('postgresql://u:pw@h:5432/db?sslmode=require')).toBe('postgresql://u@h:5432/db')
  })

  it('is what openStore opens for a postgres URL, and it is shared', async () => {
    const store = await openStore(db.url)

    expect(store).toBeInstanceOf(PostgresAskStore)
    expect(store.shared).toBe(true)
    await store.close()
  })
})
