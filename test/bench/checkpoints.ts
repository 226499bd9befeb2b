/**
 * Where SQLite's WAL checkpoints run: inside a commit on the event loop
 * (SQLite's automatic checkpoint, every 1,000 WAL pages) or on the
 * checkpoint thread. Each ask goes through the four store steps of a round
 * trip (record, attach its message with the posted event, settle with the
 * settlement's event and the card's claim, release the claim), spread out as
 * in a service; every step's time on the event loop is recorded.
 * Timing lives here, never in a test assertion.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postedEvent, settlementEvent } from '../../src/bridge/audit-events.js'
import type { AskRecord, Settlement } from '../../src/store/ask-record.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { WalCheckpointer } from '../../src/store/wal-checkpoints.js'
import { benchQuestion } from './round-trip.js'
import { ms, pad, percentile } from './stats.js'

export interface CheckpointBenchOptions {
  /** Asks per pass; a round trip writes about 18 WAL pages, so 600 pass the automatic checkpoint about ten times. */
  asks: number
  /** Passes per mode, the modes taken in turn so a busy moment on the host hits both alike. */
  passes: number
}

/** A step this long on the event loop is a stall a click or a request would wait behind. */
const STALL_MS = 5

const pause = () => new Promise((resolve) => setTimeout(resolve, 1))

async function timed(steps: number[], step: () => Promise<unknown>): Promise<void> {
  const start = performance.now()
  await step()
  steps.push(performance.now() - start)
}

/** One pass: `asks` round trips through a fresh state file; the time of every store step. */
async function pass(mode: 'commit' | 'thread', asks: number, dir: string, label: string): Promise<number[]> {
  const checkpointer = new WalCheckpointer({ startAfterMs: 0 })
  // A checkpointer whose thread is stopped leaves every file to SQLite's checkpoint on commit, as before it existed.
  if (mode === 'commit') await checkpointer.stop()
  const store = new SqliteAskStore(join(dir, `${label}.sqlite`), { checkpointer })
  while (store.checkpointMode !== mode) await pause()
  const steps: number[] = []
  for (let i = 0; i < asks; i++) {
    const at = Date.now()
    const record: AskRecord = { id: `${label}-${i}`, kind: 'question', questions: [{ ...benchQuestion, multiSelect: false }], target: 'C0BENCH', status: 'pending', createdAt: at, owner: { kind: 'service' } }
    const settlement: Settlement = { status: 'answered', outcome: { kind: 'answered', by: { id: 'U0SANDBOX01', name: 'alice' }, at, answers: [{ id: benchQuestion.id, selected: ['pnpm'] }] }, answer: { answers: [{ id: benchQuestion.id, selected: ['pnpm'] }] } }
    const message = { channel: 'C0BENCH', ts: `1796159550.${String(i).padStart(6, '0')}` }
    await timed(steps, () => store.insert(record))
    await pause()
    await timed(steps, () => store.attachMessage(record.id, message, postedEvent({ ...record, message }, at)))
    await pause()
    await timed(steps, () => store.settle(record.id, settlement, { event: settlementEvent(record.id, settlement), messageClaim: { holder: 'bench', until: at + 30_000 }, hasJobs: false }))
    await pause()
    await timed(steps, () => store.releaseMessage(record.id, 'bench', true))
    await pause()
  }
  await store.close()
  await checkpointer.stop()
  return steps
}

export async function benchCheckpoints(options: CheckpointBenchOptions): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-bench-wal-'))
  const byMode = { commit: [] as number[], thread: [] as number[] }
  try {
    for (let p = 0; p < options.passes; p++) {
      for (const mode of p % 2 === 0 ? (['commit', 'thread'] as const) : (['thread', 'commit'] as const)) byMode[mode].push(...(await pass(mode, options.asks, dir, `${mode}-${p}`)))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const row = (name: string, steps: number[]) => {
    const stalls = steps.filter((step) => step >= STALL_MS).length
    const total = steps.reduce((sum, step) => sum + step, 0)
    return `${pad(name, 34)}${pad(ms(percentile(steps, 50)), 12)}${pad(ms(percentile(steps, 99)), 12)}${pad(ms(percentile(steps, 99.9)), 12)}${pad(ms(Math.max(...steps)), 12)}${pad(String(stalls), 14)}${ms((total / steps.length) * 4)}`
  }
  return [
    `${options.passes} passes per mode of ${options.asks} asks, four store steps each on a SQLite file, 1 ms apart; time of each step on the event loop`,
    `${pad('WAL checkpoints', 34)}${pad('p50', 12)}${pad('p99', 12)}${pad('p99.9', 12)}${pad('max', 12)}${pad(`≥ ${STALL_MS} ms`, 14)}mean per ask`,
    row('in commits (SQLite, before)', byMode.commit),
    row('on the checkpoint thread (now)', byMode.thread),
  ]
}
