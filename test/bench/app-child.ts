/**
 * The app under test, in its own process as it would be in production
 * (Slack is never in the app's event loop). Three apps do the same job, ask
 * over HTTP and answer from a tap:
 * - `floor`: bare `@slack/web-api` + `@slack/socket-mode`, the least any app pays;
 * - `bare`: a plain Bolt app;
 * - `durable`: the same Bolt app keeping its asks in a SQLite file, with the
 *   writes any app making dsh-slack's promises needs and nothing else (see
 *   sqlite-journal.ts): what durability alone costs;
 * - `chat-memory`, `chat-redis`: a Chat SDK app (chat-sdk-app.ts) keeping
 *   the same records in the SDK's memory state or in Redis;
 * - `bridge`: dsh-slack's bridge behind its own HTTP API (state in memory, no log);
 * - `serve`: `dsh-slack serve` itself (startService with its real parts:
 *   metrics, policy, its log on stderr, state in a SQLite file), configured
 *   by environment variables as an operator would, the stand-in as its Slack.
 * The reference apps post the same message (the Chat SDK's its own card) (rendered by blocks/), take
 * `POST /v1/asks` and `GET /v1/asks/:id?wait=` the way the service does,
 * ack a click, hand the answer to the waiting request, then update the
 * message with the same settled card. Each measures its own CPU time and
 * event-loop delay between `measure` and `report` (IPC), and can profile
 * its CPU over the same span.
 */
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { Server, type IncomingMessage } from 'node:http'
import { Session } from 'node:inspector/promises'
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks'
import { App } from '@slack/bolt'
import { SocketModeClient } from '@slack/socket-mode'
import { WebClient } from '@slack/web-api'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { createApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import { loggerFor } from '../../src/log/logger-for.js'
import { configFromEnv } from '../../src/config/config.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { startService } from '../../src/service/start-service.js'
import { bareAsks, blockKitCards, listen, type Tap } from './bare-asks.js'
import { startChatSdkApp, type ChatSdkState } from './chat-sdk-app.js'
import { startFootprint, type Footprint } from './footprint.js'
import { startJsonCounts, type JsonCounts } from './json-counts.js'
import type { Journal } from './journal.js'
import { sqliteJournal } from './sqlite-journal.js'

export type ChildKind = 'floor' | 'bare' | 'durable' | 'chat-memory' | 'chat-redis' | 'bridge' | 'serve'

/** What `measure` may add to the figures: a CPU profile written to `profile.file`, or the code run counted (`footprint`). */
export interface MeasureExtras {
  profile?: { file: string; intervalUs: number }
  footprint?: boolean
}

/** What the parent sends: `measure` starts the figures (and any extras), `report` ends them. */
export type ChildCommand = ({ type: 'measure' } & MeasureExtras) | { type: 'report' } | { type: 'stop' }

/**
 * What a child tells the parent unasked: a long-poll for an ask is in place
 * (see `announceLongPolls`).
 */
export interface ChildWaiting {
  type: 'waiting'
  id: string
}

/** What a child reports after `report`. */
export interface ChildReport {
  type: 'report'
  cpuMs: number
  /** Of `cpuMs`, the main thread's (the event loop); the rest is V8's helpers (GC, JIT), worker threads and libuv's pool. NaN where /proc is missing. */
  mainThreadCpuMs: number
  loopP99Ms: number
  loopMaxMs: number
  /** Since `measure`, in order: when each `POST /v1/asks` reached the app, and when the app handed each chat.postMessage to fetch (ms since the epoch). */
  postTimeline: PostTimeline
  /** With `footprint`: the code the measured part ran (a build from before it leaves it out). */
  footprint?: Footprint
  /** With `footprint`: the JSON it parsed and encoded, and where (a build from before issue 43 leaves it out). */
  json?: JsonCounts
}

export interface PostTimeline {
  arrived: number[]
  handedToFetch: number[]
}

const send = (message: Record<string, unknown>) => process.send!(message)
const env = (name: string) => process.env[name] ?? ''

/** One click as Bolt's `body` and the floor's socket envelope carry it. */
interface ClickBody {
  user: { id: string; username?: string; name?: string }
  actions?: { value?: string }[]
}

const tapOf = (body: ClickBody): Tap => ({ user: body.user.id, userName: body.user.username || body.user.name || body.user.id, value: body.actions?.[0]?.value })

async function floor(): Promise<() => Promise<void>> {
  const client = new WebClient(env('BENCH_BOT_TOKEN'), { slackApiUrl: env('BENCH_API_URL') })
  const socket = new SocketModeClient({ appToken: env('BENCH_APP_TOKEN'), clientOptions: { slackApiUrl: env('BENCH_API_URL') } })
  const asks = bareAsks(blockKitCards(client))
  socket.on('interactive', async ({ body, ack }: { body: ClickBody; ack: () => Promise<void> }) => {
    await ack()
    await asks.clicked(tapOf(body))
  })
  await socket.start()
  send({ type: 'ready', url: await listen(asks.server) })
  return async () => {
    await socket.disconnect()
    asks.server.close()
  }
}

async function bare(journal?: Journal): Promise<() => Promise<void>> {
  const app = new App({ token: env('BENCH_BOT_TOKEN'), appToken: env('BENCH_APP_TOKEN'), socketMode: true, clientOptions: { slackApiUrl: env('BENCH_API_URL') } })
  const asks = bareAsks(blockKitCards(app.client), journal)
  app.action(/^opt_\d+$/, async ({ ack, body }) => {
    await ack()
    await asks.clicked(tapOf(body as unknown as ClickBody))
  })
  await app.start()
  send({ type: 'ready', url: await listen(asks.server) })
  return async () => {
    await app.stop()
    asks.server.close()
  }
}

async function bridge(): Promise<() => Promise<void>> {
  const bridge = await createSlackBridge({ botToken: env('BENCH_BOT_TOKEN'), appToken: env('BENCH_APP_TOKEN'), slackApiUrl: env('BENCH_API_URL'), channel: env('BENCH_CHANNEL'), state: env('BENCH_STATE') || ':memory:', logger: silentLogger, ...(env('BENCH_OWNER') === 'service' ? { owner: 'service' as const } : {}) })
  const api = createApiServer({ bridge, logger: silentLogger })
  const { url } = await api.listen('127.0.0.1', 0)
  send({ type: 'ready', url })
  return async () => {
    await api.close()
    await bridge.stop({ withdrawOpen: false })
  }
}

async function serve(): Promise<() => Promise<void>> {
  const config = configFromEnv({
    SLACK_BOT_TOKEN: env('BENCH_BOT_TOKEN'),
    SLACK_APP_TOKEN: env('BENCH_APP_TOKEN'),
    SLACK_API_URL: env('BENCH_API_URL'),
    SLACK_CHANNEL: env('BENCH_CHANNEL'),
    DSH_SLACK_STATE: env('BENCH_STATE') || ':memory:',
    HOST: '127.0.0.1',
    PORT: '0',
  })
  const service = await startService(config, await serviceDeps(), loggerFor(config.logFormat))
  send({ type: 'ready', url: service.url })
  return () => service.stop()
}

/** A CPU profile of the measured part, written where `measure` said (V8's sampling profiler, through the inspector). */
async function startProfile(intervalUs: number): Promise<(file: string) => Promise<void>> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs })
  await session.post('Profiler.start')
  return async (file) => {
    const { profile } = await session.post('Profiler.stop')
    await writeFile(file, JSON.stringify(profile))
    session.disconnect()
  }
}

/** The main thread's CPU time so far (ms), from Linux's per-thread counters (ticks of 10 ms: USER_HZ is 100). */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

const durable = () => bare(sqliteJournal(env('BENCH_STATE')))

const chatSdk = (state: ChatSdkState) => async () => {
  const app = await startChatSdkApp(state, env)
  send({ type: 'ready', url: app.url })
  return app.stop
}

const APPS: Record<ChildKind, () => Promise<() => Promise<void>>> = { floor, bare: () => bare(), durable, 'chat-memory': chatSdk('memory'), 'chat-redis': chatSdk('redis'), bridge, serve }

/** The clock the parent reads too: ms since the epoch, to the microsecond. */
const epochMs = () => performance.timeOrigin + performance.now()

/**
 * Splits "request → chat.postMessage" for the parent into reaching the app,
 * the app's own work and the way on to Slack, the same way for every app:
 * by watching node:http's `request` event and the global fetch, which all
 * of them (the Web API client included) post through. Nothing is changed
 * but a timestamp taken. Installed before an app starts, as the Web API
 * client reads `fetch` when it is made.
 */
function watchPosts(timeline: PostTimeline): void {
  onServerRequest((req) => {
    if (req.method === 'POST' && req.url?.startsWith('/v1/asks')) timeline.arrived.push(epochMs())
  })
  const fetchFromNode = globalThis.fetch
  globalThis.fetch = (input, init) => {
    if (typeof input === 'string' && input.endsWith('/chat.postMessage')) timeline.handedToFetch.push(epochMs())
    return fetchFromNode(input, init)
  }
}

/**
 * Tells the parent when an app has a long-poll (`GET /v1/asks/:id?wait=`)
 * in hand, so that a person's tap comes while an agent waits, as it does
 * outside a benchmark (people take seconds; agents wait at once). Without
 * it the tap raced the long-poll's own request, and "click → answer"
 * measured the request arriving behind the click's work rather than the
 * answer reaching a waiting agent. Told once the request's handler has run
 * its synchronous part and its microtasks (every app registers its waiter
 * there), the same way for every app.
 */
function announceLongPolls(): void {
  onServerRequest((req) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/v1/asks/') || !req.url.includes('wait=')) return
    const id = decodeURIComponent(req.url.slice('/v1/asks/'.length).split('?')[0] ?? '')
    // An immediate runs after the handler's synchronous part and the microtasks it queued.
    setImmediate(() => send({ type: 'waiting', id } satisfies ChildWaiting))
  })
}

/** Calls `listener` with every request any node:http server in this process takes, before its handler sees it. */
function onServerRequest(listener: (req: IncomingMessage) => void): void {
  const server = Server.prototype as { emit(event: string | symbol, ...args: unknown[]): boolean }
  const emit = server.emit
  server.emit = function (this: Server, event, ...args) {
    if (event === 'request') listener(args[0] as IncomingMessage)
    return emit.call(this, event, ...args)
  }
}

const timeline: PostTimeline = { arrived: [], handedToFetch: [] }
watchPosts(timeline)
announceLongPolls()

let cpuAtStart = process.cpuUsage()
let mainThreadAtStart = mainThreadCpuMs()
let loop: IntervalHistogram | undefined
let profiling: { file: string; stop: Promise<(file: string) => Promise<void>> } | undefined
let counting: (() => Footprint) | undefined
let countingJson: (() => JsonCounts) | undefined

const kind = process.argv[2] as ChildKind
const stop = await APPS[kind]()
process.on('message', (message: ChildCommand) => {
  if (message.type === 'measure') {
    loop?.disable()
    loop = monitorEventLoopDelay({ resolution: 5 })
    loop.enable()
    if (message.profile) profiling = { file: message.profile.file, stop: startProfile(message.profile.intervalUs) }
    if (message.footprint) counting = startFootprint()
    if (message.footprint) countingJson = startJsonCounts()
    cpuAtStart = process.cpuUsage()
    mainThreadAtStart = mainThreadCpuMs()
    timeline.arrived.length = 0
    timeline.handedToFetch.length = 0
  }
  if (message.type === 'report') {
    loop?.disable()
    const cpu = process.cpuUsage(cpuAtStart)
    const report: ChildReport = { type: 'report', cpuMs: (cpu.user + cpu.system) / 1000, mainThreadCpuMs: mainThreadCpuMs() - mainThreadAtStart, loopP99Ms: (loop?.percentile(99) ?? 0) / 1e6, loopMaxMs: (loop?.max ?? 0) / 1e6, postTimeline: timeline }
    if (counting) report.footprint = counting()
    if (countingJson) report.json = countingJson()
    counting = undefined
    countingJson = undefined
    const profile = profiling
    profiling = undefined
    void (profile ? profile.stop.then((stopProfile) => stopProfile(profile.file)) : Promise.resolve()).then(() => send({ ...report }))
  }
  if (message.type === 'stop') {
    void stop().finally(() => process.exit(0))
  }
})
