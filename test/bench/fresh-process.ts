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
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { ChildKind, PostTimeline } from './app-child.js'
import { startApp, type AppProcess, type OtherBuild } from './app-process.js'
import { PROFILE_INTERVAL_US, profileFile, reportFresh, type AppKind, type FreshRun, type PostSplit, type RoundFigures } from './fresh-report.js'
import { makeChannels, ROUND_SPACING_MS, roundTrip, sleep, watchMessages, type RoundTripRig, type RoundTripSample } from './round-trip.js'
import { now, since } from './stats.js'

export interface FreshProcessOptions {
  rounds: number
  /** Unmeasured round trips, one per ROUND_SPACING_MS so none meets the workspace's posting budget. */
  warmUps: number
  /** How long each app rests between its warm-up and its measured part. */
  restMs: number
  /**
   * The reference apps' rest instead (`--peer-rest`): 0 measures each one
   * right after its own warm-up, as the shared peer bench measures its
   * peers (it rests only dsh-slack, whose rate buckets need it). Absent:
   * every app rests alike.
   */
  peerRestMs?: number
  /** Measured round trips one after another, then `concurrent` at once. */
  sequential: number
  concurrent: number
  /** A directory: each app writes a CPU profile of each measured part there (`serve-round1.cpuprofile`, …). */
  profileDir?: string
  /** Each app counts the code its measured part runs (V8's precise coverage): the footprint rows. */
  footprint?: boolean
  /** Only these apps (bare Bolt is always one: the ratios are to it); the five contestants (CONTESTANTS) when absent. */
  apps?: ChildKind[]
  /**
   * Another build's `serve` (`--base`: a checkout of another commit, built),
   * run in the same rounds as app `base`, so a change is judged against the
   * code before it on the same host, round by round.
   */
  base?: OtherBuild
  /** A file to write the run's figures to (JSON), for `--combine` to pool with other runs'. */
  saveTo?: string
}


/** As issue 21 ran it. The rest outlasts a minute, so Tier 3 (50 a minute) is full again after 45 warm-up updates. */
export const FRESH_PROCESS_FULL: FreshProcessOptions = { rounds: 5, warmUps: 45, restMs: 62_000, sequential: 20, concurrent: 5 }

/**
 * For iterating: 15 warm-ups leave Tier 3 and the workspace budget with room
 * for the 25 measured round trips, so 5 s of rest will do; fewer warm-ups
 * leave the code colder, so its figures run higher than the full run's.
 */
export const FRESH_PROCESS_QUICK: FreshProcessOptions = { rounds: 2, warmUps: 15, restMs: 5_000, sequential: 20, concurrent: 5 }

const CHANNELS = 256
const ALL_KINDS: { kind: ChildKind; name: string }[] = [
  { kind: 'floor', name: 'floor (web-api+socket)' },
  { kind: 'bare', name: 'bare Bolt' },
  { kind: 'chat-memory', name: 'Chat SDK, memory' },
  { kind: 'chat-redis', name: 'Chat SDK + Redis' },
  { kind: 'durable', name: 'Bolt + SQLite file' },
  { kind: 'bridge', name: 'dsh-slack bridge' },
  { kind: 'serve', name: 'dsh-slack serve' },
]

/** The apps a run measures unless told (`--apps`): issue 43's five contestants side by side (the floor and the bridge on request). */
const CONTESTANTS: ChildKind[] = ['chat-memory', 'chat-redis', 'durable', 'serve']

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

/** The parent's side of the split: the child's timeline and each round trip's start, on one clock (ms since the epoch). */
function splitPosts(starts: number[], samples: RoundTripSample[], timeline: PostTimeline): PostSplit[] {
  return starts.flatMap((start, i) => {
    const arrived = timeline.arrived[i]
    const handed = timeline.handedToFetch[i]
    if (arrived === undefined || handed === undefined) return []
    return [{ reaching: arrived - start, inApp: handed - arrived, toSlack: start + samples[i]!.posted - handed }]
  })
}

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
  warm.restedAt = now() + restOf(kind, options)
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
    ...(report.json ? { json: report.json } : {}),
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
  const figures = new Map<AppKind, RoundFigures>()
  for (const kind of order) {
    const app = await warmUp(kind, options)
    // Without a rest, measured at once, before the next app warms up (the shared peer bench's way with its peers).
    if (restOf(kind, options) === 0) figures.set(kind, await measure(app, options, index))
    else warm.push(app)
  }
  for (const app of warm) figures.set(app.kind, await measure(app, options, index))
  return figures
}

/** dsh-slack's own apps rest `restMs` (their rate buckets refill); the reference apps `peerRestMs` when it is given. */
function restOf(kind: AppKind, options: FreshProcessOptions): number {
  const own = kind === 'serve' || kind === 'bridge' || kind === 'base'
  return own ? options.restMs : (options.peerRestMs ?? options.restMs)
}

export async function benchFreshProcess(options: FreshProcessOptions): Promise<string[]> {
  const KINDS: { kind: AppKind; name: string }[] = ALL_KINDS.filter(({ kind }) => kind === 'bare' || (options.apps ?? CONTESTANTS).includes(kind))
  if (options.base) KINDS.push({ kind: 'base', name: options.base.name })
  const byKind = new Map<AppKind, RoundFigures[]>(KINDS.map(({ kind }) => [kind, []]))
  if (options.profileDir) await mkdir(options.profileDir, { recursive: true })
  for (let r = 0; r < options.rounds; r++) {
    const order = KINDS.map(({ kind }) => kind)
    if (r % 2 === 1) order.reverse()
    for (const [kind, figures] of await round(order, options, r)) byKind.get(kind)!.push(figures)
    // A full run takes minutes between its lines: say how far it got.
    process.stderr.write(`  (fresh process: round ${r + 1} of ${options.rounds} done)\n`)
  }
  const { rounds, warmUps, restMs, peerRestMs, sequential, concurrent, footprint } = options
  const run: FreshRun = { options: { rounds, warmUps, restMs, ...(peerRestMs !== undefined ? { peerRestMs } : {}), sequential, concurrent, ...(footprint ? { footprint } : {}) }, kinds: KINDS, rounds: Object.fromEntries(byKind) as FreshRun['rounds'] }
  if (options.saveTo) await writeFile(options.saveTo, JSON.stringify(run))
  return reportFresh([run], options.profileDir)
}
