import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AskRecord, PendingSummary } from '../../src/store/ask-record.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { testLifecycle } from '../support/test-lifecycle.js'

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }], multiSelect: false }

const waitingAsk = (i: number, expiresAt: number, owner: AskRecord['owner'] = { kind: 'service' }): AskRecord => ({
  id: `waiting-${i}`,
  kind: 'question',
  questions: [question],
  target: 'C1',
  message: { channel: 'C1', ts: `1.${i}` },
  status: 'pending',
  createdAt: i,
  expiresAt,
  owner,
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function fileStore(): SqliteAskStore {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-sweep-'))
  dirs.push(dir)
  return new SqliteAskStore(join(dir, 'state.sqlite'))
}

/** The store, its sweep's findings counted. */
function counted(store: SqliteAskStore) {
  const found: PendingSummary[][] = []
  const sweepable = store.listSweepable.bind(store)
  vi.spyOn(store, 'listSweepable').mockImplementation(async (now, armBy) => {
    const summaries = await sweepable(now, armBy)
    found.push(summaries)
    return summaries
  })
  return { found, reads: vi.spyOn(store, 'get'), everyPending: vi.spyOn(store, 'listPendingSummaries') }
}

describe('the lease sweep, by index (decision 0104)', () => {
  it('reads nothing of the asks that only wait for an answer, however many wait, and arms no timer for a far expiry', async () => {
    const store = fileStore()
    for (let i = 0; i < 500; i++) await store.insert(waitingAsk(i, Date.now() + 3_600_000))
    const { found, reads, everyPending } = counted(store)
    const lifecycle = testLifecycle({ store, slack: new FakeSlackPort(), owner: 'service', leaseMs: 150 })

    await lifecycle.recover()
    await sleep(300)

    expect(found.length).toBeGreaterThanOrEqual(3)
    expect(found.flat()).toEqual([])
    expect([reads.mock.calls.length, everyPending.mock.calls.length]).toEqual([0, 0])
    expect(lifecycle.armedTimers).toBe(0)
    await lifecycle.stop({ withdrawOpen: false })
    await store.close()
  })

  it('arms an expiry the sweep did not arm before once it comes within a minute, and expires the ask on time', async () => {
    const store = fileStore()
    const start = Date.now()
    let ahead = 0
    await store.insert(waitingAsk(1, start + 61_000))
    const lifecycle = testLifecycle({ store, slack: new FakeSlackPort(), owner: 'service', leaseMs: 150, now: () => Date.now() + ahead })

    await lifecycle.recover()
    const armedAtFirst = lifecycle.armedTimers
    // The clock moves on to 100 ms before the expiry: the next sweep arms it.
    ahead = 60_900 - (Date.now() - start)
    await vi.waitFor(async () => expect((await store.get('waiting-1'))?.status).toBe('expired'), { timeout: 3_000 })

    expect(armedAtFirst).toBe(0)
    await lifecycle.stop({ withdrawOpen: false })
    await store.close()
  })

  it('still finds a library process’s asks among many that only wait, and expires them once the process is gone', async () => {
    const store = fileStore()
    for (let i = 0; i < 200; i++) await store.insert(waitingAsk(i, Date.now() + 3_600_000))
    const orphan = waitingAsk(1_000, Date.now() + 3_600_000, { kind: 'library', pid: 2 ** 22 + 12_345, instance: 'gone' })
    await store.insert(orphan)
    const { found } = counted(store)
    const lifecycle = testLifecycle({ store, slack: new FakeSlackPort(), owner: 'service', leaseMs: 150 })

    await lifecycle.recover()

    expect(found[0]!.map((summary) => summary.id)).toEqual([orphan.id])
    expect((await store.get(orphan.id))?.status).toBe('expired')
    await lifecycle.stop({ withdrawOpen: false })
    await store.close()
  })
})
