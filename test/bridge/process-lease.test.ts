import { describe, expect, it } from 'vitest'
import { ProcessLease } from '../../src/bridge/process-lease.js'
import { silentLogger } from '../../src/log/logger.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'

/** A shared store (as PostgreSQL is) whose lease reads are counted. */
class CountingStore extends MemoryAskStore {
  readonly shared = true
  reads = 0
  override async leaseUntil(instance: string): Promise<number | undefined> {
    this.reads++
    return super.leaseUntil(instance)
  }
}

const askOf = (instance: string): AskRecord => ({ id: 'a1', kind: 'question', questions: [], target: 'C1', status: 'pending', createdAt: 0, owner: { kind: 'library', pid: 1, instance } })

describe('a library process lease seen from another process', () => {
  it('is read once while it runs, read again once it has run out, and then tells a process that is gone', async () => {
    const store = new CountingStore()
    let now = 1_000
    const lease = new ProcessLease({ store, instance: 'here', leaseMs: 15_000, now: () => now, logger: silentLogger })
    await store.renewLease('there', 16_000)

    expect(await lease.ownerGone(askOf('there'))).toBe(false)
    now = 15_000
    expect(await lease.ownerGone(askOf('there'))).toBe(false)
    expect(store.reads).toBe(1)

    // The process died: nobody renews its lease, and once it has run out the ask's owner is gone.
    now = 16_001
    expect(await lease.ownerGone(askOf('there'))).toBe(true)
    expect(store.reads).toBe(2)
  })
})
