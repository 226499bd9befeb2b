/**
 * Cost as the work grows (issue 43): many pending asks in PostgreSQL shared
 * by three instances of the bridge on one stand-in. At two sizes (a tenth
 * and the whole), so each figure shows what it grows with: a restart's
 * recovery, the Home tab of a person who may answer some of them,
 * `GET /v1/asks` paged, the idle instances' CPU (the expiry sweep's and the
 * lease checks'), and the heap each pending ask costs an instance.
 *
 * The asks are put in the store directly (as posted: each has its message),
 * not posted through Slack: Slack's workspace budget would take hours to
 * post 10,000, and posting is not what grows here.
 */
import { performance } from 'node:perf_hooks'
import { createApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { freshDatabase } from '../support/postgres.js'
import { tallyStatements } from '../support/statements.js'
import pg from 'pg'
import { sleep } from './round-trip.js'
import { ms, percentile } from './stats.js'

export interface ScaleOptions {
  /** Pending asks at the larger size; the smaller is a tenth of it. */
  pending: number
  /** Of them, how many the person whose Home tab is measured may answer (a tenth of it at the smaller size). */
  visible: number
  /** How long the instances are left idle to measure their CPU. */
  idleMs: number
  /** Times the Home tab is opened (the first also looks up the channel's members). */
  homeOpens: number
}

export const SCALE_FULL: ScaleOptions = { pending: 10_000, visible: 1_000, idleMs: 30_000, homeOpens: 5 }
export const SCALE_QUICK: ScaleOptions = { pending: 2_000, visible: 200, idleMs: 10_000, homeOpens: 3 }

const INSTANCES = 3
const PAGE = 200
const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'

/** What one size measured. */
interface SizeFigures {
  pending: number
  visible: number
  /** Each instance's start with the asks in the store (recovery: every pending ask read, its timer armed). */
  startMs: number[]
  /** Heap an instance holds per pending ask: after its start minus before, over the asks (GC'd both times). */
  heapPerAskBytes: number
  homeMs: number[]
  pageMs: number[]
  pages: number
  /** This process's CPU per page of the measured pass (the API, the store's client, and whatever else ran meanwhile). */
  pageCpuMs: number
  /** The three idle instances' CPU per minute (this process: they share it). */
  idleCpuMsPerMinute: number
  /** Counted, the same on every run: characters of JSON parsed from PostgreSQL's rows and statements run, by one Home tab publish and by the idle instances per minute. */
  homeJsonChars: number
  homeStatements: number
  idleJsonCharsPerMinute: number
  idleStatementsPerMinute: number
}

/** An ask as posted: in the shared channel, answerable by alice (visible) or only by bob. */
function postedAsk(i: number, visible: boolean, channel: string, now: number): AskRecord {
  return {
    id: `scale${String(i).padStart(6, '0')}`,
    kind: 'question',
    questions: [{ id: 'pm', question: `Which package manager for package ${i}?`, options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }], multiSelect: false }],
    agent: { id: `session-${i % 50}`, title: 'Refactor' },
    target: channel,
    message: { channel, ts: `${Math.floor(now / 1000) - 86_400 + i}.000100` },
    status: 'pending',
    createdAt: now - 86_400_000 + i,
    expiresAt: now + 6 * 3_600_000,
    owner: { kind: 'service' },
    policy: { approvals: 1, ...(visible ? {} : { answerers: [BOB] }) },
  }
}

async function seed(url: string, pending: number, visible: number, channel: string): Promise<void> {
  const store = await PostgresAskStore.open(url, { logger: silentLogger })
  const now = Date.now()
  // Visible asks spread evenly, so the newest ones on the tab are not all of one kind.
  const every = Math.max(1, Math.floor(pending / Math.max(1, visible)))
  for (let start = 0; start < pending; start += 100) {
    const batch = Array.from({ length: Math.min(100, pending - start) }, (_, j) => start + j)
    await Promise.all(batch.map((i) => store.insert(postedAsk(i, i % every === 0 && i / every < visible, channel, now))))
  }
  await store.close()
}

/** PostgreSQL's type ids of `json` and `jsonb`, whose values node-postgres parses (with a JSON.parse it holds: a patch of JSON would not see them). */
const JSON_TYPES = [114, 3802] as const

/**
 * Counts the characters of JSON the stores parse from PostgreSQL's rows
 * (records, summaries, events) until the returned function is called: what
 * a read of every pending ask costs the instance, the same on every run.
 */
function countPostgresJson(): () => number {
  let chars = 0
  const counting = (text: string) => {
    chars += text.length
    return JSON.parse(text) as unknown
  }
  for (const type of JSON_TYPES) pg.types.setTypeParser(type, counting)
  return () => {
    for (const type of JSON_TYPES) pg.types.setTypeParser(type, JSON.parse)
    return chars
  }
}

const gcNow = () => (globalThis as { gc?: () => void }).gc?.()
const heapUsed = () => {
  gcNow()
  gcNow()
  return process.memoryUsage().heapUsed
}

async function measureSize(pending: number, visible: number, options: ScaleOptions): Promise<SizeFigures> {
  const database = await freshDatabase()
  const slack: Sandbox = await startSandbox()
  const channel = slack.createChannel({ id: 'C0SCALE0001', name: 'scale', botIsMember: true, members: [ALICE, BOB] }).id
  const bridges: SlackBridge[] = []
  const stores: PostgresAskStore[] = []
  try {
    await seed(database.url, pending, visible, channel)
    const common = { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel, logger: silentLogger, owner: 'service' as const }
    const startMs: number[] = []
    let heapPerAskBytes = Number.NaN
    for (let i = 0; i < INSTANCES; i++) {
      const before = heapUsed()
      const started = performance.now()
      // Each instance its own store on the database, as its own process would have: opened here to count its statements.
      const store = await PostgresAskStore.open(database.url, { logger: silentLogger })
      stores.push(store)
      bridges.push(await createSlackBridge({ ...common, state: store }))
      startMs.push(performance.now() - started)
      if (i === 0) heapPerAskBytes = (heapUsed() - before) / pending
    }
    const alice = slack.user(ALICE)
    let published = 0
    slack.workspace.on('change', (change) => {
      if (change.type === 'home_published' && change.user === ALICE) published += 1
    })
    const homeMs: number[] = []
    for (let i = 0; i < options.homeOpens; i++) {
      const before = published
      const started = performance.now()
      await alice.openHome()
      await slack.waitFor(() => (published > before ? true : undefined), { timeoutMs: 60_000 })
      homeMs.push(performance.now() - started)
      // Past views.publish's pace (Tier 4) and the coalescing, so each open is published on its own.
      await sleep(1_000)
    }
    // Once more, counted: what a publish reads.
    const homeTally = tallyStatements(stores)
    const homeJson = countPostgresJson()
    const before = published
    await alice.openHome()
    await slack.waitFor(() => (published > before ? true : undefined), { timeoutMs: 60_000 })
    const homeJsonChars = homeJson()
    const homeSpent = homeTally.spent()
    const api = createApiServer({ bridge: bridges[0]!, logger: silentLogger })
    const { url } = await api.listen('127.0.0.1', 0)
    // Paged through twice, the second time measured: at 1,000 asks there are only 5 pages, and the first pages of a
    // process run cold code, so a p50 of one pass compared the 3rd page of the smaller size with the 25th of the larger.
    const pageThrough = async (): Promise<{ ms: number[]; cpuMs: number }> => {
      const ms: number[] = []
      const cpu = process.cpuUsage()
      let cursor: string | undefined
      do {
        const started = performance.now()
        const response = await fetch(`${url}/v1/asks?status=pending&limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        const page = (await response.json()) as { asks: unknown[]; nextCursor?: string }
        ms.push(performance.now() - started)
        cursor = page.nextCursor
      } while (cursor)
      const used = process.cpuUsage(cpu)
      return { ms, cpuMs: (used.user + used.system) / 1000 }
    }
    await pageThrough()
    const paged = await pageThrough()
    const pageMs = paged.ms
    await api.close()
    const idleTally = tallyStatements(stores)
    const idleJson = countPostgresJson()
    const cpu = process.cpuUsage()
    await sleep(options.idleMs)
    const used = process.cpuUsage(cpu)
    const idleJsonChars = idleJson()
    const idleSpent = idleTally.spent()
    const perMinute = 60_000 / options.idleMs
    return {
      pending,
      visible,
      startMs,
      heapPerAskBytes,
      homeMs,
      pageMs,
      pages: pageMs.length,
      pageCpuMs: paged.cpuMs / pageMs.length,
      idleCpuMsPerMinute: ((used.user + used.system) / 1000) * perMinute,
      homeJsonChars,
      homeStatements: homeSpent.perAsk(1) + homeSpent.housekeeping,
      idleJsonCharsPerMinute: idleJsonChars * perMinute,
      idleStatementsPerMinute: (idleSpent.perAsk(1) + idleSpent.housekeeping) * perMinute,
    }
  } finally {
    for (const bridge of bridges) await bridge.stop({ withdrawOpen: false })
    // A store given to a bridge stays its owner's to close.
    for (const store of stores) await store.close().catch(() => undefined)
    await slack.close()
    await database.drop()
  }
}

export async function benchScale(options: ScaleOptions): Promise<string[]> {
  // A first, smaller size unreported: the JIT's and the connections' start-up would otherwise be charged to the smaller size.
  await measureSize(options.pending / 100, options.visible / 100, { ...options, idleMs: 1_000, homeOpens: 1 })
  const sizes = [await measureSize(options.pending / 10, options.visible / 10, options), await measureSize(options.pending, options.visible, options)]
  const [small, large] = sizes as [SizeFigures, SizeFigures]
  const chars = (value: number) => `${(value / 1024).toFixed(0)} KiB`
  const whole = (value: number) => value.toFixed(0)
  const grows = (a: number, b: number) => `${(b / a).toFixed(1)}× for ${(large.pending / small.pending).toFixed(0)}× the asks`
  const row = (label: string, figure: (size: SizeFigures) => number, format: (value: number) => string = ms) =>
    `${label.padEnd(58)}${format(figure(small)).padEnd(16)}${format(figure(large)).padEnd(16)}${grows(figure(small), figure(large))}`
  return [
    `${INSTANCES} instances of the bridge on one stand-in sharing one PostgreSQL database; the pending asks put in the store as posted, each with an expiry 6 h ahead; a person who may answer a tenth of them`,
    `${''.padEnd(58)}${`${small.pending} pending`.padEnd(16)}${`${large.pending} pending`.padEnd(16)}grows`,
    row('restart: the first instance started (recovery)', (s) => s.startMs[0]!),
    row('the next two instances started', (s) => percentile(s.startMs.slice(1), 50)),
    row('heap an instance holds per pending ask', (s) => s.heapPerAskBytes, (v) => `${(v / 1024).toFixed(2)} KiB`),
    row(`Home tab opened → published, first (${'members looked up'})`, (s) => s.homeMs[0]!),
    row('Home tab opened → published, later (p50; 250 ms of it coalescing)', (s) => percentile(s.homeMs.slice(1), 50)),
    row(`GET /v1/asks?status=pending&limit=${PAGE}, one page (p50 of a second pass)`, (s) => percentile(s.pageMs, 50)),
    row(`GET /v1/asks?status=pending&limit=${PAGE}, CPU per page (the process's)`, (s) => s.pageCpuMs),
    row('GET /v1/asks, every page (sum)', (s) => s.pageMs.reduce((a, b) => a + b, 0)),
    row('three idle instances, CPU per minute (the sweeps)', (s) => s.idleCpuMsPerMinute),
    'counted (the same on every run)',
    row('  Home tab publish: JSON parsed from PostgreSQL', (s) => s.homeJsonChars, chars),
    row('  Home tab publish: statements', (s) => s.homeStatements, whole),
    row('  three idle instances, JSON parsed from PostgreSQL per minute', (s) => s.idleJsonCharsPerMinute, chars),
    row('  three idle instances, statements per minute', (s) => s.idleStatementsPerMinute, whole),
  ]
}
