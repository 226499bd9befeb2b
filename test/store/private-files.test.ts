/**
 * The state file holds questions and typed answers: another account on the
 * machine must not read it. Checked on real files with real SQLite.
 */
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { writeWorkspaceFile } from '../../src/sandbox/workspace-file.js'
import { pendingRecord } from './ask-store-conformance.js'

const root = mkdtempSync(join(tmpdir(), 'dsh-slack-private-'))
let runs = 0
const fresh = () => join(root, `run-${++runs}`)

afterAll(() => rmSync(root, { recursive: true, force: true }))

const modeOf = (path: string) => statSync(path).mode & 0o777

/** Opens a store, writes an ask with a typed answer in it (so the WAL holds it), and returns the store. */
async function storeWithAnAnswer(path: string): Promise<SqliteAskStore> {
  const store = new SqliteAskStore(path)
  const record = pendingRecord()
  await store.insert(record)
  await store.settle(record.id, { status: 'answered', outcome: { kind: 'answered', by: { id: 'U1' }, at: 1, answers: [] }, answer: { answers: [{ id: 'q', selected: [], custom: 'my secret plan' }] } })
  return store
}

describe.skipIf(process.platform === 'win32')('the state file’s permissions', () => {
  it('creates .dsh-slack 0700 and the state file, its WAL and shared memory 0600, even with a permissive umask', async () => {
    const path = join(fresh(), '.dsh-slack', 'state.sqlite')
    const umask = process.umask(0o000)
    let store: SqliteAskStore
    try {
      store = await storeWithAnAnswer(path)
    } finally {
      process.umask(umask)
    }

    expect(modeOf(join(path, '..'))).toBe(0o700)
    expect(modeOf(path)).toBe(0o600)
    expect(modeOf(`${path}-wal`)).toBe(0o600)
    expect(modeOf(`${path}-shm`)).toBe(0o600)
    await store.close()
  })

  it('tightens an existing world-readable folder, state file and WAL at start', async () => {
    const folder = join(fresh(), '.dsh-slack')
    const path = join(folder, 'state.sqlite')
    await (await storeWithAnAnswer(path)).close()
    chmodSync(folder, 0o755)
    chmodSync(path, 0o644)
    closeSync(openSync(`${path}-wal`, 'a'))
    chmodSync(`${path}-wal`, 0o644)

    const store = new SqliteAskStore(path)

    expect(modeOf(folder)).toBe(0o700)
    expect(modeOf(path)).toBe(0o600)
    expect(modeOf(`${path}-wal`)).toBe(0o600)
    await store.close()
  })

  it('leaves an existing shared folder as it is when the state file is placed there', async () => {
    const shared = fresh()
    mkdirSync(shared, { mode: 0o755 })
    chmodSync(shared, 0o755)

    const store = new SqliteAskStore(join(shared, 'asks.sqlite'))

    expect(modeOf(shared)).toBe(0o755)
    expect(modeOf(join(shared, 'asks.sqlite'))).toBe(0o600)
    await store.close()
  })

  it('writes the stand-in’s workspace file 0600 in a 0700 folder', () => {
    const folder = join(fresh(), '.dsh-slack')
    const path = join(folder, 'sandbox.json')
    const umask = process.umask(0o000)
    try {
      writeWorkspaceFile(path, { version: 1 } as never)
    } finally {
      process.umask(umask)
    }

    expect(modeOf(folder)).toBe(0o700)
    expect(modeOf(path)).toBe(0o600)
  })
})
