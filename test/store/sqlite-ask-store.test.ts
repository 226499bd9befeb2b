import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { AskRecord } from '../../src/store/ask-record.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { loadMigrations } from '../../src/store/migrations/load-migrations.js'
import { openStore } from '../../src/store/open-store.js'
import { SETTLED_RETENTION_MS, SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { SqliteDatabase } from '../../src/store/sqlite-driver.js'
import { aborted, answered, askStoreConformance, pendingRecord } from './ask-store-conformance.js'

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-store-'))
let files = 0
const freshPath = () => join(dir, `nested-${++files}`, 'state.sqlite')
const paths = new WeakMap<object, string>()

/** A record as written before `externalKey` became `idempotencyKey` and `relayDelivery`, without it. */
function withoutExternalKey(record: AskRecord & { externalKey: string }): AskRecord {
  const { externalKey: _old, ...rest } = record
  return rest
}

afterAll(() => rmSync(dir, { recursive: true, force: true }))

askStoreConformance('MemoryAskStore', { create: () => new MemoryAskStore() })

askStoreConformance('SqliteAskStore in memory', { create: () => new SqliteAskStore(':memory:') })

askStoreConformance('SqliteAskStore on a file', {
  create: () => {
    const path = freshPath()
    const store = new SqliteAskStore(path, { pollIntervalMs: 20 })
    paths.set(store, path)
    return store
  },
  reopen: async (store) => {
    const path = paths.get(store)!
    await store.close()
    return new SqliteAskStore(path, { pollIntervalMs: 20 })
  },
})

describe('SqliteAskStore shared by two instances on one file', () => {
  const stores: SqliteAskStore[] = []
  const openTwo = () => {
    const path = freshPath()
    const pair = [new SqliteAskStore(path, { pollIntervalMs: 20 }), new SqliteAskStore(path, { pollIntervalMs: 20 })] as const
    stores.push(...pair)
    return pair
  }

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()))
  })

  it('lets exactly one of many settle calls across both instances win', async () => {
    const [a, b] = openTwo()
    const record = pendingRecord()
    await a.insert(record)

    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? a : b).settle(record.id, answered(`U0P${index}`))))

    expect(results.filter((result) => result.won)).toHaveLength(1)
    const winner = results.find((result) => result.won)!.record.settlement
    for (const result of results) expect(result.record.settlement).toEqual(winner)
  })

  it('tells a watcher about a settlement the other instance wrote', async () => {
    const [a, b] = openTwo()
    const record = pendingRecord()
    await a.insert(record)
    const settled = new Promise<AskRecord>((resolve) => a.watch(record.id, resolve))

    await b.settle(record.id, answered('U0BOB'))

    expect(await settled).toMatchObject({ id: record.id, status: 'answered', settlement: answered('U0BOB') })
    expect(a.watchers.size).toBe(0)
    expect(a.polling).toBe(false)
  })

  it('sees an external key the other instance took', async () => {
    const [a, b] = openTwo()
    await a.insert(pendingRecord({ relayDelivery: { key: 'http://host#rpc-1' } }))

    await expect(b.insert(pendingRecord({ relayDelivery: { key: 'http://host#rpc-1' } }))).rejects.toThrow(/already exists/)
  })
})

describe('SqliteAskStore housekeeping', () => {
  it('creates the parent directories of its file', async () => {
    const path = freshPath()

    const store = new SqliteAskStore(path)
    await store.close()

    expect(existsSync(path)).toBe(true)
  })

  it('writes its file in WAL mode, so readers never block the writer', async () => {
    const path = freshPath()
    const store = new SqliteAskStore(path)
    await store.close()

    const db = new SqliteDatabase(path, { readOnly: true })
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    db.close()
  })

  it('keeps one index of the pending asks: the pending counts use it, and a settle only takes its entry out (decision 0103)', async () => {
    const path = freshPath()
    const store = new SqliteAskStore(path)
    await store.close()

    const db = new SqliteDatabase(path, { readOnly: true })
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ')
    // No index of every ask by status: one of settled asks would be written by every settle and read by nothing.
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'asks' AND sql LIKE '%status%' AND sql NOT LIKE '%WHERE%'`).pluck().all()).toEqual([])
    expect(plan(`SELECT count(*) FROM asks WHERE status = 'pending'`)).toContain('COVERING INDEX asks_pending_key')
    expect(plan(`SELECT count(*) FROM asks WHERE status = 'pending' AND api_key = 'ci'`)).toContain('COVERING INDEX asks_pending_key (api_key=?)')
    db.close()
  })

  it('numbers events without AUTOINCREMENT, in order, keeping the numbers events had before', async () => {
    const path = freshPath()
    const store = new SqliteAskStore(path)
    const record = pendingRecord()
    await store.insert(record)
    const first = await store.appendEvent({ askId: record.id, type: 'posted', at: 1 })
    const second = await store.appendEvent({ askId: record.id, type: 'answered', at: 2 })
    await store.close()

    const db = new SqliteDatabase(path, { readOnly: true })
    expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'events'`).pluck().get()).not.toMatch(/AUTOINCREMENT/i)
    db.close()
    expect(second.seq).toBe(first.seq + 1)
  })

  it('deletes settled asks older than the retention period at open and keeps pending ones of any age', async () => {
    const path = freshPath()
    let now = 1_700_000_000_000
    const first = new SqliteAskStore(path, { now: () => now })
    const old = pendingRecord()
    const recent = pendingRecord()
    const waiting = pendingRecord()
    for (const record of [old, recent, waiting]) await first.insert(record)
    await first.settle(old.id, aborted())
    now += SETTLED_RETENTION_MS - 1000
    await first.settle(recent.id, answered())
    await first.close()

    now += 2000
    const reopened = new SqliteAskStore(path, { now: () => now })

    expect(await reopened.get(old.id)).toBeUndefined()
    expect(await reopened.get(recent.id)).toBeDefined()
    expect(await reopened.get(waiting.id)).toBeDefined()
    await reopened.close()
  })

  it('polls only while someone watches, and leaves no timer behind', async () => {
    const store = new SqliteAskStore(':memory:', { pollIntervalMs: 5 })
    const record = pendingRecord()
    await store.insert(record)

    const unsubscribe = store.watch(record.id, () => undefined)
    const pollingWhileWatched = store.polling
    unsubscribe()

    expect(pollingWhileWatched).toBe(true)
    expect(store.watchers.size).toBe(0)
    expect(store.polling).toBe(false)
    await store.close()
  })

  it('stops polling when closed with a watcher still registered', async () => {
    const store = new SqliteAskStore(':memory:')
    store.watch('ask-x', () => undefined)

    await store.close()

    expect(store.polling).toBe(false)
  })

  it('brings a file from the first schema up to date and keeps its asks', async () => {
    const path = freshPath()
    const record = pendingRecord()
    mkdirSync(dirname(path), { recursive: true })
    const old = new SqliteDatabase(path)
    old.exec(loadMigrations('sqlite')[0]!.sql)
    old.prepare(`INSERT INTO asks (id, status, owner, created_at, record) VALUES (?, 'pending', '{}', 1, ?)`).run(record.id, JSON.stringify(record))
    old.pragma('user_version = 1')
    old.close()

    const store = new SqliteAskStore(path)
    await store.renewLease('instance-a', 10)

    expect(await store.get(record.id)).toEqual(record)
    expect(await store.leaseUntil('instance-a')).toBe(10)
    await store.close()
    const db = new SqliteDatabase(path, { readOnly: true })
    expect(db.pragma('user_version', { simple: true })).toBe(loadMigrations('sqlite').length)
    db.close()
  })

  it('reads an ask written with the old external key as its idempotency key or its relayed request, by the key', async () => {
    const path = freshPath()
    const posted = { ...pendingRecord(), externalKey: 'http-idempotency:ci:run-7' }
    const relayed = { ...pendingRecord(), externalKey: 'http://127.0.0.1:4000#rpc-3' }
    mkdirSync(dirname(path), { recursive: true })
    const old = new SqliteDatabase(path)
    for (const migration of loadMigrations('sqlite').filter((m) => m.version <= 6)) old.exec(migration.sql)
    const insert = old.prepare(`INSERT INTO asks (id, status, external_key, owner, created_at, record) VALUES (?, 'pending', ?, '{}', 1, ?)`)
    for (const record of [posted, relayed]) insert.run(record.id, record.externalKey, JSON.stringify(record))
    old.pragma('user_version = 6')
    old.close()

    const store = new SqliteAskStore(path)
    const [idempotent, relay] = await Promise.all([store.findByExternalKey(posted.externalKey), store.findByExternalKey(relayed.externalKey)])
    await store.close()

    expect(idempotent).toEqual({ ...withoutExternalKey(posted), idempotencyKey: 'http-idempotency:ci:run-7' })
    expect(relay).toEqual({ ...withoutExternalKey(relayed), relayDelivery: { key: 'http://127.0.0.1:4000#rpc-3' } })
  })

  it('migrates a file of schema 7 so the sweep finds what it did before, and keeps its events and their numbers', async () => {
    const path = freshPath()
    const now = 1_700_000_000_000
    const posted = pendingRecord({ expiresAt: now + 30_000, message: { channel: 'C0123ABCDEF', ts: '1.1' } })
    const waiting = pendingRecord({ expiresAt: now + 3_600_000, message: { channel: 'C0123ABCDEF', ts: '1.2' } })
    const unposted = pendingRecord()
    const claimed = pendingRecord()
    mkdirSync(dirname(path), { recursive: true })
    const old = new SqliteDatabase(path)
    for (const migration of loadMigrations('sqlite').filter((m) => m.version <= 7)) old.exec(migration.sql)
    const insert = old.prepare(`INSERT INTO asks (id, status, owner, created_at, record, post_claim, post_claim_until) VALUES (?, 'pending', '{"kind":"service"}', 1, ?, ?, ?)`)
    insert.run(posted.id, JSON.stringify(posted), 'gone', now - 10)
    insert.run(waiting.id, JSON.stringify(waiting), null, null)
    insert.run(unposted.id, JSON.stringify(unposted), null, null)
    insert.run(claimed.id, JSON.stringify(claimed), 'alive', now + 60_000)
    const events = old.prepare('INSERT INTO events (ask_id, at, event) VALUES (?, ?, ?)')
    for (const at of [1, 2]) events.run(posted.id, at, JSON.stringify({ askId: posted.id, type: 'posted', at }))
    old.pragma('user_version = 7')
    old.close()

    const store = new SqliteAskStore(path)
    const found = (await store.listSweepable(now, now + 60_000)).map((summary) => summary.id).sort()
    const kept = await store.events(posted.id)
    const next = await store.appendEvent({ askId: posted.id, type: 'answered', at: 3 })
    await store.close()

    // The posted ask by its expiry only (its stale claim is gone), the unposted one by its claim; neither the one that only
    // waits (posted, expiring later) nor the claimed one yet.
    expect(found).toEqual([posted.id, unposted.id].sort())
    expect(kept.map((event) => [event.seq, event.at])).toEqual([[1, 1], [2, 2]])
    expect(next.seq).toBe(3)
  })

  it('refuses a file written by a newer schema', async () => {
    const path = freshPath()
    await new SqliteAskStore(path).close()
    const db = new SqliteDatabase(path)
    db.pragma('user_version = 99')
    db.close()

    expect(() => new SqliteAskStore(path)).toThrow(/newer dsh-slack/)
  })
})

describe('openStore', () => {
  it('returns a store object as given', async () => {
    const store = new MemoryAskStore()

    expect(await openStore(store)).toBe(store)
  })

  it('opens a SQLite store at a path, or in memory for :memory:', async () => {
    const path = freshPath()

    const onFile = await openStore(path)
    const inMemory = await openStore(':memory:')

    expect(onFile).toBeInstanceOf(SqliteAskStore)
    expect(inMemory).toBeInstanceOf(SqliteAskStore)
    expect(existsSync(path)).toBe(true)
    await onFile.close()
    await inMemory.close()
  })
})

