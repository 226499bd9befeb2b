import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { isStoreUnavailable } from '../../src/store/store-unavailable.js'
import { recordingLogger } from '../support/e2e.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { startTcpProxy } from '../support/tcp-proxy.js'
import { pendingRecord } from './ask-store-conformance.js'

/** The PostgreSQL store while its database goes away, cut at a TCP proxy the test owns (the shared server keeps running). */

let db: FreshDatabase

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db?.drop()
})

async function storeThroughProxy() {
  const url = new URL(db.url)
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
  const logger = recordingLogger()
  const store = await PostgresAskStore.open(proxy.through(db.url), { logger })
  return { proxy, logger, store }
}

describe('PostgresAskStore through a database outage', () => {
  it('logs the lost connection once, the return once, and counts the attempts between', async () => {
    const { proxy, logger, store } = await storeThroughProxy()
    try {
      await proxy.cut()
      await new Promise((resolve) => setTimeout(resolve, 2_600))
      await proxy.restore()
      await vi.waitFor(() => expect(logger.lines.some((line) => line.includes('PostgreSQL is back'))).toBe(true), { timeout: 5_000, interval: 50 })

      const about = logger.lines.filter((line) => /PostgreSQL|LISTEN/.test(line))
      expect(about).toHaveLength(2)
      expect(about[0]).toMatch(/^warn PostgreSQL connection lost \(.+\); reconnecting every 0\.5 s until it answers$/)
      expect(about[1]).toMatch(/^info PostgreSQL is back: listening for settlements again after \d+\.\d s \((\d+) attempts to reconnect\)/)
      expect(Number(/\((\d+) attempts/.exec(about[1]!)![1])).toBeGreaterThanOrEqual(3)
    } finally {
      await store.close()
      await proxy.close()
    }
  })

  it('fails calls with an error recognised as the store being unreachable, and works again once it is back', async () => {
    const { proxy, store } = await storeThroughProxy()
    try {
      await proxy.cut()

      const failure = await store.get('any').then(() => undefined, (error: unknown) => error)
      expect(isStoreUnavailable(failure)).toBe(true)
      expect(await store.ping()).toBe(false)

      await proxy.restore()
      await store.insert(pendingRecord({ id: 'back' }))
      expect((await store.get('back'))?.id).toBe('back')
    } finally {
      await store.close()
      await proxy.close()
    }
  })
})
