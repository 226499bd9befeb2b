import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryHomeViewers, type HomeViewers } from '../../src/store/home-viewers.js'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { eventually } from '../support/e2e.js'

let db: FreshDatabase
let store: PostgresAskStore

beforeAll(async () => {
  db = await freshDatabase()
  store = await PostgresAskStore.open(db.url)
})

afterAll(async () => {
  await store?.close()
  await db?.drop()
})

let next = 0
/** A user id no other test touched (the PostgreSQL table is shared by the tests). */
const someone = () => `U0HOME${String(++next).padStart(4, '0')}`

describe.each([
  ['in memory', () => new MemoryHomeViewers() as HomeViewers],
  ['in PostgreSQL', () => store.homeViewers],
])('home viewers %s', (_name, viewers) => {
  it('lists who opened the tab since a time, once each, with the latest opening', async () => {
    const home = viewers()
    const [a, b] = [someone(), someone()]

    await home.seen(a, 1_000)
    await home.seen(b, 5_000)
    await home.seen(a, 9_000)
    await home.seen(a, 2_000)

    expect((await home.openSince(4_000)).filter((user) => user === a || user === b).sort()).toEqual([a, b].sort())
    expect((await home.openSince(9_001)).filter((user) => user === a || user === b)).toEqual([])
  })

  it('lets one holder publish at a time, and makes it publish again when another wanted to meanwhile', async () => {
    const home = viewers()
    const user = someone()
    await home.seen(user, 1_000)

    expect(await home.claim(user, 'A', 1_000, 2_000)).toBe(true)
    expect(await home.claim(user, 'B', 1_100, 2_100)).toBe(false)
    expect(await home.release(user, 'A')).toBe(false)
    expect(await home.release(user, 'A')).toBe(true)
    expect(await home.claim(user, 'B', 1_200, 2_200)).toBe(true)
  })

  it('hands the claim to another holder once it ran out (its holder died)', async () => {
    const home = viewers()
    const user = someone()

    expect(await home.claim(user, 'A', 1_000, 2_000)).toBe(true)
    expect(await home.claim(user, 'B', 2_001, 3_000)).toBe(true)
    expect(await home.release(user, 'A')).toBe(true)
    expect(await home.claim(user, 'A', 2_500, 3_500)).toBe(false)
  })
})

describe('home viewers in PostgreSQL, seen from another instance', () => {
  it('hears a tab opened on another instance without reading the table again, and reads it afresh after losing the news', async () => {
    const other = await PostgresAskStore.open(db.url)
    try {
      const [early, late] = [someone(), someone()]
      await store.homeViewers.seen(early, 10_000)
      expect(await other.homeViewers.openSince(5_000)).toContain(early)
      const statements = other.queries

      await store.homeViewers.seen(late, 20_000)
      await eventually(async () => (await other.homeViewers.openSince(5_000)).includes(late))
      expect(other.queries).toBe(statements)

      // Announcements missed while not listening are unknown: the next question reads the table.
      other.homeViewers.forget()
      expect(await other.homeViewers.openSince(5_000)).toEqual(expect.arrayContaining([early, late]))
      expect(other.queries).toBe(statements + 1)
    } finally {
      await other.close()
    }
  })
})
