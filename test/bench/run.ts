/**
 * `npm run bench`: speed figures as percentiles and ratios. Timing lives
 * here, never in test assertions. `--quick` runs smaller rounds; `--only
 * <section>` (render, provider, cold, checkpoints, fresh, instances, scale, cards; repeatable) runs only
 * those sections; `--profile <dir>` has the fresh-process section write
 * each app's CPU profile of each measured part into `dir` and summarise them;
 * `--apps serve,bridge,durable,floor` measures only those beside bare Bolt there, and
 * `--rounds N` sets its number of rounds (for iterating on one figure);
 * `--peer-rest S` rests the reference apps S seconds instead of dsh-slack's
 * rest (0: measured right after their warm-up, as the shared peer bench does);
 * `--base DIR` runs another built checkout's `serve` beside this one's in
 * the same rounds and compares them round by round (a change against the
 * code before it; the same commit in DIR shows the method's own noise);
 * `--footprint` has each app count the functions its measured part runs
 * and the calls it makes (the same on every run: a change's effect on the
 * code per event without the host's noise; the timings of such a run are
 * not comparable with others'); `--save FILE` writes the fresh-process
 * section's figures to FILE, and `--combine FILE` (two or more) prints
 * those runs pooled, each run's median ratios beside the pooled ones,
 * without measuring anything.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import type { ChildKind } from './app-child.js'
import type { OtherBuild } from './app-process.js'
import { benchCardUpdates } from './card-updates.js'
import { benchCheckpoints } from './checkpoints.js'
import { benchColdCode } from './cold-code.js'
import { benchFreshProcess, FRESH_PROCESS_FULL, FRESH_PROCESS_QUICK } from './fresh-process.js'
import { reportFresh, type FreshRun } from './fresh-report.js'
import { benchInstances } from './instances.js'
import { benchProvider } from './provider.js'
import { benchRender } from './render.js'
import { benchChannels } from './channels.js'
import { benchScale, SCALE_FULL, SCALE_QUICK } from './scale.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const valuesOf = (flag: string) => args.flatMap((arg, i) => (arg === flag && args[i + 1] ? [args[i + 1]!] : []))
const only = valuesOf('--only')
const profileDir = valuesOf('--profile')[0]
const apps = valuesOf('--apps').flatMap((list) => list.split(',')).filter((app): app is ChildKind => ['floor', 'durable', 'chat-memory', 'chat-redis', 'bridge', 'serve'].includes(app))
const rounds = Number(valuesOf('--rounds')[0] ?? Number.NaN)
const peerRest = Number(valuesOf('--peer-rest')[0] ?? Number.NaN)
const baseDir = valuesOf('--base')[0]
const footprint = args.includes('--footprint')
const saveTo = valuesOf('--save')[0]
const combine = valuesOf('--combine')

/** `--base DIR`: another checkout of dsh-slack, built, whose `serve` the fresh-process section runs beside this one. */
function otherBuild(dir: string): OtherBuild {
  const root = resolve(dir)
  const childFile = join(root, 'dist', 'test', 'bench', 'app-child.js')
  if (!existsSync(childFile)) throw new Error(`--base ${dir}: no ${childFile}; build that checkout first (npm install && npm run build there)`)
  let commit = basename(root)
  try {
    commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    // Not a git checkout: its folder's name says which build it is.
  }
  return { childFile, name: `serve at ${commit}` }
}

async function section(name: string, title: string, run: () => Promise<string[]>): Promise<void> {
  if (only.length > 0 && !only.includes(name)) return
  process.stdout.write(`\n${title}\n`)
  for (const line of await run()) process.stdout.write(`  ${line}\n`)
}

async function main(): Promise<void> {
  if (combine.length > 0) {
    // Files this bench wrote with --save; read back as such.
    const runs = combine.map((file) => JSON.parse(readFileSync(file, 'utf8')) as FreshRun)
    process.stdout.write(`Provider, fresh process: ${runs.length} runs pooled (${combine.join(', ')})\n`)
    for (const line of await reportFresh(runs)) process.stdout.write(`  ${line}\n`)
    return
  }
  process.stdout.write(`dsh-slack benchmark (node ${process.version}, ${quick ? 'quick' : 'full'} run${only.length > 0 ? `, only ${only.join(', ')}` : ''})\n`)
  // A missing section is a broken benchmark, not a shorter one: no dynamic import that could be skipped.
  await section('render', 'Rendering (blocks/ and the bridge\'s kept bodies)', () => benchRender({ runs: quick ? 10 : 40 }))
  await section('provider', 'Provider on the local Slack stand-in (Socket Mode), interleaved sets: a new process per set, measured from its second round trip', () =>
    benchProvider(quick ? { sets: 2, rounds: 10, burst: 10, openAsks: 1000, plans: 2, trials: 3 } : { sets: 5, rounds: 30, burst: 100, openAsks: 10_000, plans: 5, trials: 10 }),
  )
  await section('cold', 'The same code, called back to back and spread out (why fresh-process figures weigh every piece of code a round trip touches)', async () => benchColdCode())
  await section('checkpoints', 'SQLite\'s WAL checkpoints: in a commit on the event loop, or on the checkpoint thread', () => benchCheckpoints(quick ? { asks: 300, passes: 2 } : { asks: 600, passes: 4 }))
  await section('fresh', 'Provider, fresh process after warm-up and rest (issue 21\'s method, what a restarted instance serves)', () =>
    benchFreshProcess({ ...(quick ? FRESH_PROCESS_QUICK : FRESH_PROCESS_FULL), ...(profileDir ? { profileDir } : {}), ...(footprint ? { footprint } : {}), ...(apps.length > 0 ? { apps } : {}), ...(rounds > 0 ? { rounds } : {}), ...(peerRest >= 0 ? { peerRestMs: peerRest * 1000 } : {}), ...(baseDir ? { base: otherBuild(baseDir) } : {}), ...(saveTo ? { saveTo } : {}) }),
  )
  await section('instances', 'Several instances sharing PostgreSQL (one stand-in app)', () => benchInstances({ rounds: quick ? 30 : 200 }))
  await section('scale', 'Cost as the work grows: pending asks in PostgreSQL shared by three instances (issue 43)', async () => [
    ...(await benchScale(quick ? SCALE_QUICK : SCALE_FULL)),
    ...(await benchChannels(quick ? { channels: 50, durationMs: 20_000 } : { channels: 200, durationMs: 60_000 })),
  ])
  await section('cards', 'Card updates under load (Tier 3; before: the documented 50 a minute, after: learned)', () =>
    benchCardUpdates(quick ? { asks: 100, spreadMs: 30_000, morePerMinute: 120 } : { asks: 200, spreadMs: 60_000, morePerMinute: 120 }),
  )
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  },
)
