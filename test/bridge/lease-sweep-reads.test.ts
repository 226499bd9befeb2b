import { describe, expect, it } from 'vitest'
import type { AskRecord } from '../../src/store/ask-record.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { testLifecycle } from '../support/test-lifecycle.js'

/** A shared store (as PostgreSQL is) that counts the whole ask records it hands out. */
class RecordCountingStore extends MemoryAskStore {
  readonly shared = true
  recordsRead = 0
  override async listPending(): Promise<AskRecord[]> {
    const records = await super.listPending()
    this.recordsRead += records.length
    return records
  }
}

const pendingOf = (i: number, instance: string, expiresAt: number): AskRecord => ({
  id: `sweep-${i}`,
  kind: 'question',
  questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }], multiSelect: false }],
  target: 'C1',
  message: { channel: 'C1', ts: `1.${i}` },
  status: 'pending',
  createdAt: i,
  expiresAt,
  owner: { kind: 'library', pid: 1, instance },
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the sweep for asks whose library process is gone', () => {
  it('runs every few seconds without reading any record, and arms an expiry once it is due within a minute, not before (decision 0104)', async () => {
    const store = new RecordCountingStore()
    for (let i = 0; i < 100; i++) await store.insert(pendingOf(i, 'alive', Date.now() + (i < 10 ? 30_000 : 3_600_000)))
    await store.renewLease('alive', Date.now() + 60_000)
    const lifecycle = testLifecycle({ store, slack: new FakeSlackPort(), owner: 'service', leaseMs: 150 })

    await lifecycle.recover()
    await sleep(300)

    expect(store.recordsRead).toBe(0)
    expect(lifecycle.armedTimers).toBe(10)
    await lifecycle.stop({ withdrawOpen: false })
  })

  it('still expires the asks of a library process whose lease has run out', async () => {
    const store = new RecordCountingStore()
    await store.insert(pendingOf(1, 'gone', Date.now() + 3_600_000))
    await store.renewLease('gone', Date.now() + 100)
    const lifecycle = testLifecycle({ store, slack: new FakeSlackPort(), owner: 'service', leaseMs: 150 })

    await lifecycle.recover()
    await sleep(400)

    expect((await store.get('sweep-1'))?.status).toBe('expired')
    await lifecycle.stop({ withdrawOpen: false })
  })
})
