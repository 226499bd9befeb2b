import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import type { WalCheckpointer } from '../../src/store/wal-checkpoints.js'
import { buildCli } from '../cli/cli-process.js'
import { pendingRecord } from './ask-store-conformance.js'

type StoreModule = typeof import('../../src/store/sqlite-ask-store.js')
type CheckpointsModule = typeof import('../../src/store/wal-checkpoints.js')

/**
 * What SQLite's WAL index (the `-shm` file, in the machine's byte order)
 * says: frames in the WAL, and how many of them are in the database file.
 */
function walIndex(path: string): { frames: number; copied: number } {
  const shm = readFileSync(`${path}-shm`)
  return { frames: shm.readUInt32LE(16), copied: shm.readUInt32LE(96) }
}

/** An ask whose record fills several pages, so a few hundred of them pass SQLite's 1,000-page automatic checkpoint. */
const bulkyAsk = () => pendingRecord({ questions: [{ id: 'q1', question: 'Approve this plan?', detail: 'step '.repeat(2_000), options: [{ label: 'Approve' }, { label: 'Request changes' }], multiSelect: false }] })

// The thread runs compiled JavaScript, as in production: this suite compiles the project once.
let built: ReturnType<typeof buildCli>
let Store: StoreModule['SqliteAskStore']
let Checkpointer: CheckpointsModule['WalCheckpointer']
const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-wal-'))
let files = 0
const open: { store: SqliteAskStore; checkpointer: WalCheckpointer }[] = []

beforeAll(async () => {
  built = buildCli()
  const compiled = join(dirname(dirname(built.main)), 'store')
  Store = ((await import(join(compiled, 'sqlite-ask-store.js'))) as StoreModule).SqliteAskStore
  Checkpointer = ((await import(join(compiled, 'wal-checkpoints.js'))) as CheckpointsModule).WalCheckpointer
}, 180_000)

afterEach(async () => {
  for (const { store, checkpointer } of open.splice(0)) {
    await store.close()
    await checkpointer.stop()
  }
})

afterAll(() => {
  built?.cleanup()
  rmSync(dir, { recursive: true, force: true })
})

function openStore(options: { startAfterMs?: number } = {}): { store: SqliteAskStore; checkpointer: WalCheckpointer; path: string } {
  const path = join(dir, `state-${++files}.sqlite`)
  const checkpointer = new Checkpointer({ intervalMs: 20, startAfterMs: options.startAfterMs ?? 0 })
  const store = new Store(path, { checkpointer })
  open.push({ store, checkpointer })
  return { store, checkpointer, path }
}

async function untilThreadHolds(store: SqliteAskStore): Promise<void> {
  await vi.waitFor(() => expect(store.checkpointMode).toBe('thread'), { timeout: 10_000, interval: 10 })
}

describe('WAL checkpoints off the event loop', () => {
  it('copies committed pages into the database file from its own thread, long before SQLite would on commit', async () => {
    const { store, path } = openStore()
    await untilThreadHolds(store)
    const sizeBefore = statSync(path).size

    for (let i = 0; i < 20; i++) await store.insert(bulkyAsk())

    await vi.waitFor(
      () => {
        const wal = walIndex(path)
        expect(wal.frames).toBeGreaterThan(0)
        expect(wal.copied).toBe(wal.frames)
      },
      { timeout: 10_000, interval: 10 },
    )
    // Well under SQLite's 1,000-page automatic checkpoint: the copy was the thread's.
    expect(walIndex(path).frames).toBeLessThan(1_000)
    expect(statSync(path).size).toBeGreaterThan(sizeBefore)
  }, 30_000)

  it('gives a file back to checkpointing on commit when its thread stops, so the WAL never grows unchecked', async () => {
    const { store, checkpointer, path } = openStore()
    await untilThreadHolds(store)

    await checkpointer.stop()
    expect(store.checkpointMode).toBe('commit')
    const sizeBefore = statSync(path).size
    // No await between the inserts' commits gives the event loop no turn: only a checkpoint in a commit can copy pages now.
    const inserts = Array.from({ length: 400 }, () => store.insert(bulkyAsk()))
    const sizeAfter = statSync(path).size
    await Promise.all(inserts)

    expect(sizeAfter).toBeGreaterThan(sizeBefore)
  }, 30_000)

  it('lets go of a file before its store closes, so the store closes last and leaves no WAL behind', async () => {
    const { store, path } = openStore()
    await untilThreadHolds(store)
    for (let i = 0; i < 5; i++) await store.insert(bulkyAsk())

    await store.close()

    expect(existsSync(`${path}-wal`)).toBe(false)
  }, 30_000)

  it('never starts a thread for a store closed before it was due (a short command)', async () => {
    const { store, checkpointer } = openStore({ startAfterMs: 50 })

    await store.close()
    await new Promise((resolve) => setTimeout(resolve, 150))

    expect(checkpointer.running).toBe(false)
    expect(store.checkpointMode).toBe('commit')
  })
})

describe('node:sqlite in a process of its own', () => {
  it('prints no ExperimentalWarning, from the main thread or the checkpoint thread, and lets every other warning through', async () => {
    const compiled = join(dirname(dirname(built.main)), 'store')
    const script = `
      const { SqliteAskStore } = await import(${JSON.stringify(join(compiled, 'sqlite-ask-store.js'))})
      const { WalCheckpointer } = await import(${JSON.stringify(join(compiled, 'wal-checkpoints.js'))})
      const checkpointer = new WalCheckpointer({ intervalMs: 20, startAfterMs: 0 })
      const store = new SqliteAskStore(${JSON.stringify(join(dir, 'own-process.sqlite'))}, { checkpointer })
      for (let waited = 0; store.checkpointMode !== 'thread'; waited += 10) {
        if (waited > 10_000) throw new Error('the checkpoint thread never took the file')
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      await store.close()
      await checkpointer.stop()
      process.emitWarning('another experiment', 'ExperimentalWarning')
    `

    // A file, not --eval: the checkpoint thread inherits the process's flags, and --input-type would stop it starting.
    const file = join(dir, 'own-process.mjs')
    writeFileSync(file, script)

    const { stderr } = await promisify(execFile)(process.execPath, [file], { timeout: 20_000 })

    expect(stderr).not.toContain('SQLite')
    expect(stderr).toContain('ExperimentalWarning: another experiment')
  }, 30_000)
})
