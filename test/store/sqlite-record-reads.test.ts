import { afterEach, describe, expect, it, vi } from 'vitest'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { aborted, pendingRecord } from './ask-store-conformance.js'

/**
 * What the SQLite store parses on a round trip's writes (decision 0079):
 * an ask it can hand back from the caller's copy is not read back. The
 * conformance suite holds that what comes back is the ask as stored; these
 * hold that it costs no parse of the row.
 */
describe('SqliteAskStore: records handed back, not read back', () => {
  const stores: SqliteAskStore[] = []
  const open = () => {
    const store = new SqliteAskStore(':memory:')
    stores.push(store)
    return store
  }

  afterEach(async () => {
    vi.restoreAllMocks()
    await Promise.all(stores.splice(0).map((store) => store.close()))
  })

  it('parses no JSON when it records the message of an ask unchanged since the caller wrote it', async () => {
    const store = open()
    const record = pendingRecord()
    await store.insert(record)
    const parse = vi.spyOn(JSON, 'parse')

    const current = await store.attachMessage(record.id, { channel: 'C0123ABCDEF', ts: '1.1' }, undefined, record)

    expect(parse).not.toHaveBeenCalled()
    expect(current?.message?.ts).toBe('1.1')
  })

  it('reads the row back when the caller has no copy of the ask (a click adopting a message)', async () => {
    const store = open()
    const record = pendingRecord()
    await store.insert(record)
    const parse = vi.spyOn(JSON, 'parse')

    await store.attachMessage(record.id, { channel: 'C0123ABCDEF', ts: '1.1' })

    expect(parse).toHaveBeenCalledTimes(1)
  })

  it('parses no JSON for the winner of a settle given the ask as read, and one copy for whoever waits on it', async () => {
    const store = open()
    const record = pendingRecord()
    await store.insert(record)
    const known = (await store.attachMessage(record.id, { channel: 'C0123ABCDEF', ts: '1.1' }, undefined, record))!
    const waited: unknown[] = []
    store.watch(record.id, (settled) => waited.push(settled))
    const parse = vi.spyOn(JSON, 'parse')

    const result = await store.settle(record.id, aborted(), { known })

    expect(parse).toHaveBeenCalledTimes(1)
    expect(waited).toEqual([result.record])
    expect(waited[0]).not.toBe(result.record)
  })
})
