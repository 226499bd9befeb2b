import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { waitForSettlement } from '../../src/bridge/waiting.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { answered, pendingRecord } from '../store/ask-store-conformance.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'
import { testLifecycle } from '../support/test-lifecycle.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const posted = (overrides: Partial<AskRecord> = {}) => pendingRecord({ message: { channel: 'C0123ABCDEF', ts: '1700000000.000100' }, ...overrides })

const dirs: string[] = []
const stores: AskStore[] = []
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function sqliteFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-waiting-'))
  dirs.push(dir)
  return join(dir, 'state.sqlite')
}

describe('waitForSettlement', () => {
  it('starts a read-only wait on an ask kept open here from the kept record: no read, and the settlement here still answers it', async () => {
    const store = new SqliteAskStore(sqliteFile())
    stores.push(store)
    const record = posted()
    await store.insert(record)
    const reads = vi.spyOn(store, 'get')

    const waiting = waitForSettlement(store, record.id, 10_000, undefined, { readOnly: true, knownHere: (id) => (id === record.id ? record : undefined) })
    const { record: won } = await store.settle(record.id, answered(), { known: record })

    expect(await waiting).toBe(won)
    expect(reads).not.toHaveBeenCalled()
  })

  it('hears, from the store’s poll, a settlement another process on the same file made before the wait began', async () => {
    const file = sqliteFile()
    const here = new SqliteAskStore(file, { pollIntervalMs: 20 })
    const other = new SqliteAskStore(file, { pollIntervalMs: 20 })
    stores.push(here, other)
    const record = posted()
    await here.insert(record)
    await other.settle(record.id, answered())

    const settled = await waitForSettlement(here, record.id, 10_000, undefined, { readOnly: true, knownHere: () => record })

    expect(settled?.status).toBe('answered')
    expect(settled?.settlement?.outcome).toMatchObject({ kind: 'answered', by: { id: 'U0ALICE' } })
  })

  it('reads a shared store first, whatever the process kept: another instance may have settled the ask unheard', async () => {
    const memory = new MemoryAskStore()
    const shared = new Proxy(memory, {
      get: (target, key) => (key === 'shared' ? true : typeof Reflect.get(target, key) === 'function' ? (Reflect.get(target, key) as (...args: unknown[]) => unknown).bind(target) : Reflect.get(target, key)),
    })
    stores.push(memory)
    const record = posted()
    await memory.insert(record)
    await memory.settle(record.id, answered())

    // Were the kept record believed, the wait would hear nothing and answer only once its minute is up.
    const settled = await Promise.race([waitForSettlement(shared, record.id, 60_000, undefined, { readOnly: true, knownHere: () => record }), sleep(1_000).then(() => undefined)])

    expect(settled?.status).toBe('answered')
  })

  it('answers a read-only wait that comes after this process settled the ask from what it settled, with no read, on a shared store too', async () => {
    const memory = new MemoryAskStore()
    const shared = new Proxy(memory, {
      get: (target, key) => (key === 'shared' ? true : typeof Reflect.get(target, key) === 'function' ? (Reflect.get(target, key) as (...args: unknown[]) => unknown).bind(target) : Reflect.get(target, key)),
    })
    stores.push(memory)
    const record = posted()
    await memory.insert(record)
    const { record: won } = await memory.settle(record.id, answered())
    const reads = vi.spyOn(memory, 'get')

    expect(await waitForSettlement(shared, record.id, 10_000, undefined, { readOnly: true, knownHere: () => won })).toBe(won)
    expect(reads).not.toHaveBeenCalled()
    expect(memory.watchers.size).toBe(0)
  })

  it('gives a wait that is not read-only a copy of its own, never the settler’s record', async () => {
    const store = new SqliteAskStore(':memory:')
    stores.push(store)
    const record = posted()
    await store.insert(record)

    const waiting = waitForSettlement(store, record.id, 10_000)
    const { record: won } = await store.settle(record.id, answered(), { known: record })
    const copy = (await waiting)!

    expect(copy).toEqual(won)
    expect(copy).not.toBe(won)
  })

  it('answers a read-only wait on a kept ask with the store’s state once its time is up', async () => {
    const store = new SqliteAskStore(':memory:')
    stores.push(store)
    const record = posted()
    await store.insert(record)

    const waited = await waitForSettlement(store, record.id, 20, undefined, { readOnly: true, knownHere: () => record })

    expect(waited).toMatchObject({ id: record.id, status: 'pending' })
    expect(store.watchers.size).toBe(0)
  })

  it('knows, without a read, an ask it posted while it is open, and as it settled it once settled here', async () => {
    const store = new MemoryAskStore()
    stores.push(store)
    const lifecycle = testLifecycle({ store, slack: new FakeSlackPort(), owner: 'service' })
    const record = await lifecycle.open({ questions: [{ id: 'q1', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }] })

    const open = lifecycle.knownHere(record.id)
    const { record: won } = await lifecycle.settle(record.id, answered())
    const settled = lifecycle.knownHere(record.id)

    expect(open).toMatchObject({ id: record.id, status: 'pending', message: record.message })
    expect(settled).toBe(won)
    expect(settled?.status).toBe('answered')
    await lifecycle.stop({ withdrawOpen: false })
  })
})
