/**
 * Issue 21's method: what a restarted instance serves. Each app is a new
 * child process on its own new stand-in (Socket Mode), asks spread over 256
 * channels; warm-up round trips (unmeasured), then a rest so every rate
 * bucket is full again (the stand-in's and dsh-slack's own pacer: chat.update
 * is Tier 3), then sequential and concurrent round trips measured back to
 * back. Every app rests alike: the bare apps would otherwise meet the
 * stand-in's 429s. Rounds alternate the order of the apps; the figure is the
 * median over rounds of each round's p50.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { ChildKind, PostTimeline } from './app-child.js'
import { startApp, type AppProcess, type OtherBuild } from './app-process.js'
import { summariseProfiles } from './cpu-profile.js'
import { FOOTPRINT_GROUPS, type Footprint } from './footprint.js'
import { makeChannels, ROUND_SPACING_MS, roundTrip, sleep, watchMessages, type RoundTripFigure, type RoundTripRig, type RoundTripSample } from './round-trip.js'
import { ms, now, pad, percentile, since } from './stats.js'

export interface FreshProcessOptions {
  rounds: number
  /** Unmeasured round trips, one per ROUND_SPACING_MS so none meets the workspace's posting budget. */
  warmUps: number
  /** How long each app rests between its warm-up and its measured part. */
  restMs: number
  /** Measured round trips one after another, then `concurrent` at once. */
  sequential: number
  concurrent: number
  /** A directory: each app writes a CPU profile of each measured part there (`serve-round1.cpuprofile`, …). */
  profileDir?: string
  /** Each app counts the code its measured part runs (V8's precise coverage): the footprint rows. */
  footprint?: boolean
  /** Only these apps (bare Bolt is always one: the ratios are to it); every app when absent. */
  apps?: ChildKind[]
  /**
   * Another build's `serve` (`--base`: a checkout of another commit, built),
   * run in the same rounds as app `base`, so a change is judged against the
   * code before it on the same host, round by round.
   */
  base?: OtherBuild
}

/** An app of a run: one of this build's, or `base`, another build's `serve`. */
export type AppKind = ChildKind | 'base'

/** As issue 21 ran it. The rest outlasts a minute, so Tier 3 (50 a minute) is full again after 45 warm-up updates. */
export const FRESH_PROCESS_FULL: FreshProcessOptions = { rounds: 5, warmUps: 45, restMs: 62_000, sequential: 20, concurrent: 5 }

/**
 * For iterating: 15 warm-ups leave Tier 3 and the workspace budget with room
 * for the 25 measured round trips, so 5 s of rest will do; fewer warm-ups
 * leave the code colder, so its figures run higher than the full run's.
 */
export const FRESH_PROCESS_QUICK: FreshProcessOptions = { rounds: 2, warmUps: 15, restMs: 5_000, sequential: 20, concurrent: 5 }

const CHANNELS = 256
/** Sampling interval of a profile: the measured part is a few hundred ms of CPU, so V8's default 1 ms would give too few samples. */
const PROFILE_INTERVAL_US = 50

const FIGURES: { key: RoundTripFigure; label: string }[] = [
  { key: 'posted', label: 'request → chat.postMessage' },
  { key: 'ack', label: 'click → ack' },
  { key: 'answered', label: 'click → answer at the client' },
  { key: 'updated', label: 'click → chat.update' },
  { key: 'created', label: 'request → 201' },
]

const ALL_KINDS: { kind: ChildKind; name: string }[] = [
  { kind: 'floor', name: 'floor (web-api+socket)' },
  { kind: 'bare', name: 'bare Bolt' },
  { kind: 'durable', name: 'Bolt + SQLite file' },
  { kind: 'bridge', name: 'dsh-slack bridge' },
  { kind: 'serve', name: 'dsh-slack serve' },
]

/** The apps whose figures get a ratio to bare Bolt's: dsh-slack's, and what durability alone costs. */
const OUR_KINDS: AppKind[] = ['durable', 'bridge', 'serve', 'base']

/** An app after its warm-up, resting until `restedAt`. */
interface WarmApp {
  kind: AppKind
  /** The app's own folder: `serve` keeps its SQLite state and its log there, as an operator's service would (`durable` its SQLite file). */
  dir: string
  slack: Sandbox
  app: AppProcess
  rig: RoundTripRig
  channels: string[]
  used: number
  restedAt: number
  warmUp: RoundTripSample[]
  warmUpCpuPerRoundMs: number
}

/** One request → chat.postMessage: until the app's server saw it, the app's own work until it handed the post to fetch, and from there until the stand-in had it. */
interface PostSplit {
  reaching: number
  inApp: number
  toSlack: number
}

/** The parent's side of the split: the child's timeline and each round trip's start, on one clock (ms since the epoch). */
function splitPosts(starts: number[], samples: RoundTripSample[], timeline: PostTimeline): PostSplit[] {
  return starts.flatMap((start, i) => {
    const arrived = timeline.arrived[i]
    const handed = timeline.handedToFetch[i]
    if (arrived === undefined || handed === undefined) return []
    return [{ reaching: arrived - start, inApp: handed - arrived, toSlack: start + samples[i]!.posted - handed }]
  })
}

/** One app's figures in one round. */
interface RoundFigures {
  sequential: RoundTripSample[]
  concurrent: RoundTripSample[]
  cpuPerRoundMs: number
  mainThreadCpuPerRoundMs: number
  warmUp: RoundTripSample[]
  warmUpCpuPerRoundMs: number
  /** Each sequential round trip's "request → chat.postMessage", split where the app saw it (ms). */
  postSplit: PostSplit[]
  /** chat.postMessage and chat.update calls per measured round trip (1 each: no 429s, no retries). */
  postsPerRound: number
  updatesPerRound: number
  /** With `footprint`: the code the measured part ran. */
  footprint?: Footprint
}

const profileFile = (dir: string, kind: AppKind, round: number) => join(dir, `${kind}-round${round + 1}.cpuprofile`)

const nextChannel = (warm: WarmApp) => warm.channels[warm.used++ % warm.channels.length]!

async function warmUp(kind: AppKind, options: FreshProcessOptions): Promise<WarmApp> {
  const slack = await startSandbox()
  const channels = makeChannels(slack, CHANNELS)
  const dir = await mkdtemp(join(tmpdir(), `dsh-bench-${kind}-`))
  // Owner 'service' for the bridge too, as `dsh-slack serve` runs it (its render thread warms up at start, before the first ask).
  // `base` is another build's `serve`.
  const child: ChildKind = kind === 'base' ? 'serve' : kind
  const state = child === 'serve' || child === 'durable' ? join(dir, 'state.sqlite') : ':memory:'
  const app = await startApp(child, slack, { BENCH_OWNER: 'service', BENCH_STATE: state }, join(dir, 'stderr.log'), kind === 'base' ? options.base : undefined)
  const warm: WarmApp = { kind, dir, slack, app, rig: { slack, url: app.url, seen: watchMessages(slack), user: slack.user('U0SANDBOX01'), whenWaiting: (id) => app.whenWaiting(id) }, channels, used: 0, restedAt: 0, warmUp: [], warmUpCpuPerRoundMs: 0 }
  app.measure()
  for (let i = 0; i < options.warmUps; i++) {
    const start = now()
    warm.warmUp.push(await roundTrip(warm.rig, nextChannel(warm)))
    await sleep(Math.max(0, ROUND_SPACING_MS - since(start)))
  }
  warm.warmUpCpuPerRoundMs = (await app.report()).cpuMs / options.warmUps
  warm.restedAt = now() + options.restMs
  return warm
}

async function measure(warm: WarmApp, options: FreshProcessOptions, round: number): Promise<RoundFigures> {
  await sleep(Math.max(0, warm.restedAt - now()))
  const { slack, app, rig } = warm
  const postsBefore = slack.callCount('chat.postMessage')
  const updatesBefore = slack.callCount('chat.update')
  app.measure({ ...(options.profileDir ? { profile: { file: profileFile(options.profileDir, warm.kind, round), intervalUs: PROFILE_INTERVAL_US } } : {}), ...(options.footprint ? { footprint: true } : {}) })
  const sequential: RoundTripSample[] = []
  const starts: number[] = []
  for (let i = 0; i < options.sequential; i++) {
    starts.push(performance.timeOrigin + performance.now())
    sequential.push(await roundTrip(rig, nextChannel(warm)))
  }
  const concurrent = await Promise.all(Array.from({ length: options.concurrent }, () => roundTrip(rig, nextChannel(warm))))
  const report = await app.report()
  const measured = options.sequential + options.concurrent
  const figures: RoundFigures = {
    sequential,
    concurrent,
    cpuPerRoundMs: report.cpuMs / measured,
    mainThreadCpuPerRoundMs: report.mainThreadCpuMs / measured,
    warmUp: warm.warmUp,
    warmUpCpuPerRoundMs: warm.warmUpCpuPerRoundMs,
    postSplit: splitPosts(starts, sequential, report.postTimeline),
    postsPerRound: (slack.callCount('chat.postMessage') - postsBefore) / measured,
    updatesPerRound: (slack.callCount('chat.update') - updatesBefore) / measured,
    ...(report.footprint ? { footprint: report.footprint } : {}),
  }
  await app.stop()
  await slack.close()
  await rm(warm.dir, { recursive: true })
  return figures
}

/**
 * One round: every app warms up in turn (an app rests while the next warms
 * up), then each is measured once its own rest is over, alone: no warm-up
 * runs during a measured part.
 */
async function round(order: AppKind[], options: FreshProcessOptions, index: number): Promise<Map<AppKind, RoundFigures>> {
  const warm: WarmApp[] = []
  for (const kind of order) warm.push(await warmUp(kind, options))
  const figures = new Map<AppKind, RoundFigures>()
  for (const app of warm) figures.set(app.kind, await measure(app, options, index))
  return figures
}

const median = (values: number[]) => percentile(values, 50)
const p50Of = (samples: RoundTripSample[], key: RoundTripFigure) => percentile(samples.map((s) => s[key]), 50)

/** The median over rounds of a per-round figure. */
const overRounds = (rounds: RoundFigures[], figure: (round: RoundFigures) => number) => median(rounds.map(figure))

/** Each round's figure of one app ÷ the same round's figure of another. */
const perRound = (rounds: RoundFigures[], against: RoundFigures[], figure: (round: RoundFigures) => number) => rounds.map((round, r) => figure(round) / figure(against[r]!))

/**
 * `serve` against `base` (another build's `serve`), round by round. A round
 * runs both on the same host within minutes, and a run's rounds differ by
 * more than most changes do, so a change shows as a ratio below 1 in most
 * rounds, not only as a median that one odd round can move.
 */
function roundByRound(serve: RoundFigures[], base: RoundFigures[]): string[] {
  const figures = [
    ...FIGURES.map(({ key, label }) => ({ label, figure: (r: RoundFigures) => p50Of(r.sequential, key) })),
    { label: 'app CPU per round trip', figure: (r: RoundFigures) => r.cpuPerRoundMs },
    { label: '  of it the main thread', figure: (r: RoundFigures) => r.mainThreadCpuPerRoundMs },
  ]
  const lines = ['sequential, serve ÷ base round by round (below 1: this build did better in that round)']
  for (const { label, figure } of figures) {
    const ratios = perRound(serve, base, figure)
    const lower = ratios.filter((ratio) => ratio < 1).length
    lines.push(`${pad(`  ${label}`, 38)}${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}   median ${median(ratios).toFixed(2)}, lower in ${lower} of ${ratios.length}`)
  }
  return lines
}

/** Files of dsh-slack's own that `serve` ran the most functions of (its first round): where the code per event is. */
function ownFilesRun(footprint: Footprint | undefined, measured: number, count = 15): string[] {
  if (!footprint) return []
  const files = Object.entries(footprint.ownFiles).sort((a, b) => b[1].functions - a[1].functions)
  return [
    `  serve's own files by functions run (${files.length} files; functions, calls per round trip)`,
    ...files.slice(0, count).map(([file, run]) => `    ${pad(file, 44)}${pad(String(run.functions), 6)}${(run.calls / measured).toFixed(1)}`),
  ]
}

export async function benchFreshProcess(options: FreshProcessOptions): Promise<string[]> {
  const KINDS: { kind: AppKind; name: string }[] = ALL_KINDS.filter(({ kind }) => !options.apps || kind === 'bare' || options.apps.includes(kind))
  if (options.base) KINDS.push({ kind: 'base', name: options.base.name })
  const OURS = OUR_KINDS.filter((kind) => KINDS.some((k) => k.kind === kind))
  const byKind = new Map<AppKind, RoundFigures[]>(KINDS.map(({ kind }) => [kind, []]))
  if (options.profileDir) await mkdir(options.profileDir, { recursive: true })
  for (let r = 0; r < options.rounds; r++) {
    const order = KINDS.map(({ kind }) => kind)
    if (r % 2 === 1) order.reverse()
    for (const [kind, figures] of await round(order, options, r)) byKind.get(kind)!.push(figures)
    // A full run takes minutes between its lines: say how far it got.
    process.stderr.write(`  (fresh process: round ${r + 1} of ${options.rounds} done)\n`)
  }
  const apps = KINDS.map(({ kind }) => byKind.get(kind)!)
  const bare = byKind.get('bare')!
  const ours = OURS.map((kind) => byKind.get(kind)!)
  const width = 26
  const lines: string[] = [
    `Each app a fresh process on its own fresh stand-in, ${options.warmUps} warm-up round trips (unmeasured, ${ROUND_SPACING_MS} ms apart), a ${(options.restMs / 1000).toFixed(0)} s rest (rate buckets full again), then ${options.sequential} sequential and ${options.concurrent} concurrent round trips back to back; ${options.rounds} rounds, order alternating; median of per-round p50s; ratios ÷ bare Bolt (goal for serve: ≤ 1.3×)`,
    `${pad('', 38)}${KINDS.map(({ name }) => pad(name, width)).join('')}${OURS.map((kind) => pad(`${kind} ÷ Bolt`, 17)).join('')}`,
  ]
  const line = (label: string, cells: string[], ratios: string[]) => lines.push(`${pad(label, 38)}${cells.map((cell) => pad(cell, width)).join('')}${ratios.map((r) => pad(r, 17)).join('')}`.trimEnd())
  // A figure bare Bolt does not have (zod's functions: none) has no ratio.
  const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—')
  const ratio = (figure: (round: RoundFigures) => number) => ours.map((rounds) => times(overRounds(rounds, figure) / overRounds(bare, figure)))
  const row = (label: string, figure: (round: RoundFigures) => number, format: (value: number) => string = ms) =>
    line(label, apps.map((rounds) => format(overRounds(rounds, figure))), ratio(figure))
  lines.push('sequential, p50')
  for (const { key, label } of FIGURES) {
    row(`  ${label}`, (r) => p50Of(r.sequential, key))
    if (key !== 'posted') continue
    // Where the post's time goes: the app's own handling of the request apart from what comes before and after it.
    const part = (name: keyof PostSplit) => (r: RoundFigures) => percentile(r.postSplit.map((split) => split[name]), 50)
    row('    reaching the app', part('reaching'))
    row('    in the app, until it calls fetch', part('inApp'))
    row('    from fetch on to the stand-in', part('toSlack'))
  }
  row('  app CPU per round trip', (r) => r.cpuPerRoundMs)
  row('    of it the main thread', (r) => r.mainThreadCpuPerRoundMs)
  row('    other threads (GC, JIT, workers)', (r) => r.cpuPerRoundMs - r.mainThreadCpuPerRoundMs)
  // How far one round's ratio strays from the median: what a single run of this method can tell apart.
  const spread = (figure: (round: RoundFigures) => number) =>
    ours.map((rounds) => {
      const ratios = perRound(rounds, bare, figure)
      return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×`
    })
  lines.push(`sequential, ${OURS.join(' and ')} ÷ Bolt within each round (lowest–highest of ${options.rounds})`)
  for (const { key, label } of FIGURES) line(`  ${label}`, apps.map(() => ''), spread((r) => p50Of(r.sequential, key)))
  line('  app CPU per round trip', apps.map(() => ''), spread((r) => r.cpuPerRoundMs))
  const base = byKind.get('base')
  if (base && byKind.has('serve')) lines.push(...roundByRound(byKind.get('serve')!, base))
  lines.push(`${options.concurrent} at once, p50`)
  for (const { key, label } of FIGURES) row(`  ${label}`, (r) => p50Of(r.concurrent, key))
  // How warm the code is by the measured part: the first and the last third of the warm-up side by side.
  const third = Math.floor(options.warmUps / 3)
  const first = (key: RoundTripFigure) => (r: RoundFigures) => p50Of(r.warmUp.slice(0, third), key)
  const last = (key: RoundTripFigure) => (r: RoundFigures) => p50Of(r.warmUp.slice(-third), key)
  lines.push(`warm-up (unmeasured), p50 of round trips 1–${third} → ${options.warmUps - third + 1}–${options.warmUps}`)
  for (const { key, label } of FIGURES) {
    const [firstRatios, lastRatios] = [ratio(first(key)), ratio(last(key))]
    line(`  ${label}`, apps.map((rounds) => `${ms(overRounds(rounds, first(key)))} → ${ms(overRounds(rounds, last(key)))}`), firstRatios.map((r, i) => `${r} → ${lastRatios[i]}`))
  }
  row('  app CPU per warm-up round trip', (r) => r.warmUpCpuPerRoundMs)
  const calls = (v: number) => `${v.toFixed(2)} (1: no 429s)`
  row('chat.postMessage per round trip', (r) => r.postsPerRound, calls)
  row('chat.update per round trip', (r) => r.updatesPerRound, calls)
  if (options.footprint) {
    const measured = options.sequential + options.concurrent
    // A build from before --footprint (a --base) reports none: its cells stay empty.
    const counted = (figure: (footprint: Footprint) => number) => (r: RoundFigures) => (r.footprint ? figure(r.footprint) : Number.NaN)
    const count = (value: number) => (Number.isNaN(value) ? '—' : value.toFixed(0))
    const total = (footprint: Footprint, key: 'functions' | 'calls') => FOOTPRINT_GROUPS.reduce((sum, group) => sum + footprint.groups[group][key], 0)
    lines.push(`code run by the measured part (V8's precise coverage: the same on every run of a build; it slows the apps, so the timings above are not comparable with an uncounted run's)`)
    lines.push('  distinct functions run')
    row('    in all', counted((f) => total(f, 'functions')), count)
    for (const group of FOOTPRINT_GROUPS) row(`    ${group}`, counted((f) => f.groups[group].functions), count)
    lines.push('  calls per round trip')
    row('    in all', counted((f) => total(f, 'calls') / measured), count)
    for (const group of FOOTPRINT_GROUPS) row(`    ${group}`, counted((f) => f.groups[group].calls / measured), count)
    lines.push(...ownFilesRun(byKind.get('serve')?.[0]?.footprint, measured))
  }
  if (options.profileDir) {
    lines.push(`(every app CPU-profiled at ${PROFILE_INTERVAL_US} µs, which slows it: the figures above are not comparable with an unprofiled run's)`)
    for (const { kind, name } of KINDS.filter(({ kind }) => kind !== 'floor')) {
      const profiles = Array.from({ length: options.rounds }, (_, r) => profileFile(options.profileDir!, kind, r))
      lines.push(`${name}:`, ...(await summariseProfiles(profiles, PROFILE_INTERVAL_US)))
    }
  }
  return lines
}
