import { describe, expect, it } from 'vitest'
import { AskOutbox } from '../../src/bridge/ask-outbox.js'
import { AskRecovery } from '../../src/bridge/ask-recovery.js'
import { ProcessLease } from '../../src/bridge/process-lease.js'
import { silentLogger } from '../../src/log/logger.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }], multiSelect: false }

/** A memory store that says it is shared, as PostgreSQL is. */
function sharedStore(): MemoryAskStore {
  return Object.defineProperty(new MemoryAskStore(), 'shared', { value: true })
}

function recovery(store: MemoryAskStore, owner: 'service' | 'library') {
  const armed: string[] = []
  const expired: string[] = []
  const lease = new ProcessLease({ store, instance: 'here', leaseMs: 15_000, now: Date.now, logger: silentLogger })
  const outbox = new AskOutbox({ store, instance: 'here', now: Date.now, logger: silentLogger, stopped: () => false, postTakenOver: async (record) => record })
  const sweep = new AskRecovery({ store, owner, lease, leaseMs: 15_000, outbox, logger: silentLogger, expire: async (id) => expired.push(id), armExpiry: (record) => armed.push(record.id), showSettled: async () => undefined, stopped: () => false, now: Date.now })
  return { sweep, armed, expired }
}

describe('AskRecovery', () => {
  it("arms the expiry of another live process's pending ask on a shared store, so it expires even if that process dies", async () => {
    const store = sharedStore()
    await store.renewLease('other', Date.now() + 60_000)
    const theirs: AskRecord = { id: 'theirs', kind: 'question', questions: [question], target: 'C0AGENTS', status: 'pending', createdAt: Date.now(), expiresAt: Date.now() + 60_000, owner: { kind: 'library', pid: 1, instance: 'other' }, message: { channel: 'C0AGENTS', ts: '1.1' } }
    await store.insert(theirs)
    const { sweep, armed, expired } = recovery(store, 'service')

    await sweep.recover()
    sweep.stop()

    expect(armed).toEqual(['theirs'])
    expect(expired).toEqual([])
  })
})
