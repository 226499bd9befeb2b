/**
 * The fresh-process section's report: per app the median over rounds of
 * each round's figure, the ratios that say where `serve` stands (to bare
 * Bolt, and to the durable peers issue 43 holds it to), and how far single
 * rounds stray. One run or several (`--combine`): several runs' rounds are
 * pooled, and each run's own median ratio is shown beside the pooled one,
 * so a reader sees a difference from the noise between runs.
 */
import { join } from 'node:path'
import type { ChildKind } from './app-child.js'
import { summariseProfiles } from './cpu-profile.js'
import { FOOTPRINT_GROUPS, type Footprint } from './footprint.js'
import type { JsonCounts } from './json-counts.js'
import { ROUND_SPACING_MS, type RoundTripFigure, type RoundTripSample } from './round-trip.js'
import { ms, pad, percentile } from './stats.js'

/** An app of a run: one of this build's, or `base`, another build's `serve`. */
export type AppKind = ChildKind | 'base'

/** What a run was asked to do, as its report needs it. */
export interface RunShape {
  rounds: number
  warmUps: number
  restMs: number
  /** The reference apps' rest, when it differs from dsh-slack's (`--peer-rest`). */
  peerRestMs?: number
  sequential: number
  concurrent: number
  footprint?: boolean
}

/** One request → chat.postMessage: until the app's server saw it, the app's own work until it handed the post to fetch, and from there until the stand-in had it. */
export interface PostSplit {
  reaching: number
  inApp: number
  toSlack: number
}

/** One app's figures in one round. */
export interface RoundFigures {
  sequential: RoundTripSample[]
  concurrent: RoundTripSample[]
  cpuPerRoundMs: number
  mainThreadCpuPerRoundMs: number
  warmUp: RoundTripSample[]
  warmUpCpuPerRoundMs: number
  /** Each sequential round trip's "request → chat.postMessage", split where the app saw it (ms); none for an app whose Web API client does not post through the global fetch (the Chat SDK's). */
  postSplit: PostSplit[]
  /** chat.postMessage and chat.update calls per measured round trip (1 each: no 429s, no retries). */
  postsPerRound: number
  updatesPerRound: number
  /** With `footprint`: the code the measured part ran. */
  footprint?: Footprint
  /** With `footprint`: the JSON it parsed and encoded. */
  json?: JsonCounts
}

/** A run's figures as `--save` writes them and `--combine` reads them back. */
export interface FreshRun {
  options: RunShape
  kinds: { kind: AppKind; name: string }[]
  rounds: Partial<Record<AppKind, RoundFigures[]>>
}

export const FIGURES: { key: RoundTripFigure; label: string }[] = [
  { key: 'posted', label: 'request → chat.postMessage' },
  { key: 'ack', label: 'click → ack' },
  { key: 'answered', label: 'click → answer at the client' },
  { key: 'updated', label: 'click → chat.update' },
  { key: 'created', label: 'request → 201' },
]

/** Sampling interval of a profile: the measured part is a few hundred ms of CPU, so V8's default 1 ms would give too few samples. */
export const PROFILE_INTERVAL_US = 50

export const profileFile = (dir: string, kind: AppKind, round: number) => join(dir, `${kind}-round${round + 1}.cpuprofile`)

/** The apps whose figures get a ratio to bare Bolt's. */
const TO_BOLT: AppKind[] = ['chat-memory', 'chat-redis', 'durable', 'bridge', 'serve', 'base']

/** The durable peers `serve` is held to (issue 43: at most 1.0× on every p50 row and on CPU). */
const PEERS: AppKind[] = ['chat-redis', 'durable']

const SHORT: Record<AppKind, string> = { floor: 'floor', bare: 'Bolt', durable: 'Bolt+SQLite', 'chat-memory': 'Chat mem', 'chat-redis': 'Chat+Redis', bridge: 'bridge', serve: 'serve', base: 'base' }

/** A ratio column: `of`'s figure ÷ `to`'s, round by round. */
interface Pair {
  of: AppKind
  to: AppKind
}

type Figure = (round: RoundFigures) => number

const median = (values: number[]) => percentile(values, 50)
const p50Of = (samples: RoundTripSample[], key: RoundTripFigure) => percentile(samples.map((s) => s[key]), 50)

/** The median over rounds of a per-round figure. */
const overRounds = (rounds: RoundFigures[], figure: Figure) => median(rounds.map(figure))

/** Each round's figure of one app ÷ the same round's figure of another. */
const perRound = (rounds: RoundFigures[], against: RoundFigures[], figure: Figure) => rounds.map((round, r) => figure(round) / figure(against[r]!))

/** A figure an app does not have (zod's functions in bare Bolt, the post split in the Chat SDK) has no value and no ratio. */
const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—')
const msOr = (value: number) => (Number.isFinite(value) ? ms(value) : '—')

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

/** Where `serve` parsed and encoded JSON (its first round), per round trip: calls and characters. */
function jsonCallers(counts: JsonCounts | undefined, measured: number, count = 20): string[] {
  if (!counts) return []
  const per = (value: number) => (value / measured).toFixed(1)
  const callers = Object.entries(counts.byCaller).sort((a, b) => b[1].parse.calls + b[1].stringify.calls - (a[1].parse.calls + a[1].stringify.calls))
  return [
    `  serve's JSON by caller (parse calls, characters; stringify calls, characters; per round trip)`,
    ...callers.slice(0, count).map(([caller, work]) => `    ${pad(caller, 64)}${pad(per(work.parse.calls), 6)}${pad(per(work.parse.chars), 10)}${pad(per(work.stringify.calls), 6)}${per(work.stringify.chars)}`),
  ]
}

/** Several runs' rounds pooled app by app; the runs must have measured the same apps the same way. */
function pooled(runs: FreshRun[]): FreshRun {
  const [first, ...rest] = runs
  if (!first) throw new Error('no run to report')
  const names = (run: FreshRun) => run.kinds.map(({ kind }) => kind).join(',')
  for (const run of rest) {
    if (names(run) !== names(first)) throw new Error(`--combine: runs measured different apps (${names(first)} and ${names(run)})`)
    if (run.options.sequential !== first.options.sequential || run.options.concurrent !== first.options.concurrent || run.options.warmUps !== first.options.warmUps || run.options.peerRestMs !== first.options.peerRestMs) throw new Error('--combine: runs measured with different warm-ups, rests or round trips')
  }
  const rounds: FreshRun['rounds'] = {}
  for (const { kind } of first.kinds) rounds[kind] = runs.flatMap((run) => run.rounds[kind] ?? [])
  return { options: { ...first.options, rounds: runs.reduce((sum, run) => sum + run.options.rounds, 0) }, kinds: first.kinds, rounds }
}

/** The report of one run, or of several pooled (each run's own median ratios beside the pooled ones). */
export async function reportFresh(runs: FreshRun[], profileDir?: string): Promise<string[]> {
  const { options, kinds: KINDS, rounds: byKind } = pooled(runs)
  const has = (kind: AppKind) => byKind[kind] !== undefined
  const roundsOf = (kind: AppKind) => byKind[kind]!
  const pairs: Pair[] = [...TO_BOLT.filter(has).map((of) => ({ of, to: 'bare' as AppKind })), ...(has('serve') ? PEERS.filter(has).map((to) => ({ of: 'serve' as AppKind, to })) : [])]
  const label = ({ of, to }: Pair) => `${SHORT[of]} ÷ ${SHORT[to]}`
  const apps = KINDS.map(({ kind }) => roundsOf(kind))
  const width = 20
  const ratioWidth = 22
  const lines: string[] = [
    `Each app a fresh process on its own fresh stand-in, ${options.warmUps} warm-up round trips (unmeasured, ${ROUND_SPACING_MS} ms apart), a ${(options.restMs / 1000).toFixed(0)} s rest (rate buckets full again)${options.peerRestMs !== undefined ? ` for dsh-slack, ${(options.peerRestMs / 1000).toFixed(0)} s for the reference apps (--peer-rest${options.peerRestMs === 0 ? ': measured right after their warm-up, as the shared peer bench does' : ''})` : ''}, then ${options.sequential} sequential and ${options.concurrent} concurrent round trips back to back; ${options.rounds} rounds${runs.length > 1 ? ` from ${runs.length} runs` : ''}, order alternating; median of per-round p50s (goal for serve: ≤ 1.0× Chat+Redis and Bolt+SQLite on every p50 row and CPU, issue 43)`,
    `${pad('', 38)}${KINDS.map(({ name }) => pad(name, width)).join('')}${pairs.map((pair) => pad(label(pair), ratioWidth)).join('')}`,
  ]
  const line = (text: string, cells: string[], ratios: string[]) => lines.push(`${pad(text, 38)}${cells.map((cell) => pad(cell, width)).join('')}${ratios.map((r) => pad(r, ratioWidth)).join('')}`.trimEnd())
  const ratio = (figure: Figure) => pairs.map(({ of, to }) => times(overRounds(roundsOf(of), figure) / overRounds(roundsOf(to), figure)))
  const row = (text: string, figure: Figure, format: (value: number) => string = msOr) => line(text, apps.map((rounds) => format(overRounds(rounds, figure))), ratio(figure))
  const sequentialFigures: { label: string; figure: Figure }[] = [...FIGURES.map(({ key, label }) => ({ label, figure: (r: RoundFigures) => p50Of(r.sequential, key) })), { label: 'app CPU per round trip', figure: (r) => r.cpuPerRoundMs }]
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
  const spread = (figure: Figure) =>
    pairs.map(({ of, to }) => {
      const ratios = perRound(roundsOf(of), roundsOf(to), figure)
      return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×`
    })
  lines.push(`sequential, the same ratios within each round (lowest–highest of ${options.rounds})`)
  for (const { label, figure } of sequentialFigures) line(`  ${label}`, apps.map(() => ''), spread(figure))
  if (runs.length > 1) {
    // Each run's own median ratio: the spread between runs, which one run cannot show.
    lines.push(`sequential, the same ratios run by run (the median of each of the ${runs.length} runs; then lowest–highest)`)
    for (const { label, figure } of sequentialFigures) {
      const cells = pairs.map(({ of, to }) => {
        const each = runs.map((run) => overRounds(run.rounds[of]!, figure) / overRounds(run.rounds[to]!, figure))
        return `${each.map((r) => r.toFixed(2)).join(' ')} (${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)})`
      })
      line(`  ${label}`, apps.map(() => ''), cells)
    }
  }
  if (has('base') && has('serve')) lines.push(...roundByRound(roundsOf('serve'), roundsOf('base')))
  lines.push(`${options.concurrent} at once, p50`)
  for (const { key, label } of FIGURES) row(`  ${label}`, (r) => p50Of(r.concurrent, key))
  lines.push(`${options.concurrent} at once, p99 (reported, not held to a goal)`)
  for (const { key, label } of FIGURES) row(`  ${label}`, (r) => percentile(r.concurrent.map((s) => s[key]), 99))
  lines.push('sequential, p99 (reported, not held to a goal)')
  for (const { key, label } of FIGURES) row(`  ${label}`, (r) => percentile(r.sequential.map((s) => s[key]), 99))
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
    const json = (figure: (counts: JsonCounts) => number) => (r: RoundFigures) => (r.json ? figure(r.json) / measured : Number.NaN)
    lines.push('  JSON per round trip (calls; characters)')
    row('    JSON.parse calls', json((j) => j.parse.calls), count)
    row('    JSON.parse characters', json((j) => j.parse.chars), count)
    row('    JSON.stringify calls', json((j) => j.stringify.calls), count)
    row('    JSON.stringify characters', json((j) => j.stringify.chars), count)
    lines.push(...ownFilesRun(byKind.serve?.[0]?.footprint, measured))
    lines.push(...jsonCallers(byKind.serve?.[0]?.json, measured))
  }
  if (profileDir) {
    lines.push(`(every app CPU-profiled at ${PROFILE_INTERVAL_US} µs, which slows it: the figures above are not comparable with an unprofiled run's)`)
    for (const { kind, name } of KINDS.filter(({ kind }) => kind !== 'floor')) {
      const profiles = Array.from({ length: options.rounds }, (_, r) => profileFile(profileDir, kind, r))
      lines.push(`${name}:`, ...(await summariseProfiles(profiles, PROFILE_INTERVAL_US)))
    }
  }
  return lines
}
