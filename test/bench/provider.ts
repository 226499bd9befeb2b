import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { AskLifecycle } from '../../src/bridge/ask-lifecycle.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'
import { postScheduleMs, RATE_RULES } from '../../src/slack/rate-rules.js'
import type { SlackPort } from '../../src/slack/slack-port.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import type { AskStore } from '../../src/store/ask-store.js'
import type { ChildKind } from './app-child.js'
import { startApp } from './app-process.js'
import { ms, now, pad, percentile, since } from './stats.js'
import { benchPlan } from './plan.js'
import { benchQuestion as question, makeChannels, postAsk, ROUND_SPACING_MS, roundTrip, sleep, watchMessages } from './round-trip.js'

/** One set of round trips' samples (ms), and the app's own CPU and event-loop figures over the set. */
interface SetFigures {
  posted: number[]
  created: number[]
  ack: number[]
  answered: number[]
  updated: number[]
  cpuPerRoundMs: number
  loopP99Ms: number
  loopMaxMs: number
}

/**
 * One set of round trips for one app on a fresh stand-in: request → 201,
 * ask → message posted, click → ack, click → answer at the client (the
 * long-poll returns), click → message updated.
 */
async function roundTrips(kind: ChildKind, rounds: number): Promise<SetFigures> {
  const slack = await startSandbox()
  const channels = makeChannels(slack, rounds)
  const app = await startApp(kind, slack)
  const rig = { slack, url: app.url, seen: watchMessages(slack), user: slack.user('U0SANDBOX01'), whenWaiting: (id: string) => app.whenWaiting(id) }
  const figures: SetFigures = { posted: [], created: [], ack: [], answered: [], updated: [], cpuPerRoundMs: 0, loopP99Ms: 0, loopMaxMs: 0 }
  // One unmeasured round warms up both sides (connections, JIT).
  const measuredFrom = 1
  for (const [i, channel] of channels.entries()) {
    if (i === measuredFrom) app.measure()
    const start = now()
    const sample = await roundTrip(rig, channel)
    if (i >= measuredFrom) for (const key of ['created', 'posted', 'ack', 'answered', 'updated'] as const) figures[key].push(sample[key])
    await sleep(Math.max(0, ROUND_SPACING_MS - since(start)))
  }
  const report = await app.report()
  figures.cpuPerRoundMs = report.cpuMs / (rounds - measuredFrom)
  figures.loopP99Ms = report.loopP99Ms
  figures.loopMaxMs = report.loopMaxMs
  await app.stop()
  await slack.close()
  return figures
}

const median = (values: number[]) => percentile(values, 50)

/** Per app: each figure's p50 and p99 within each set, then the median over the sets. */
function summarise(sets: SetFigures[]) {
  const pick = (key: 'posted' | 'created' | 'ack' | 'answered' | 'updated') => ({
    p50: median(sets.map((s) => percentile(s[key], 50))),
    p99: median(sets.map((s) => percentile(s[key], 99))),
  })
  return {
    posted: pick('posted'),
    created: pick('created'),
    ack: pick('ack'),
    answered: pick('answered'),
    updated: pick('updated'),
    cpu: median(sets.map((s) => s.cpuPerRoundMs)),
    loopP99: median(sets.map((s) => s.loopP99Ms)),
    loopMax: Math.max(...sets.map((s) => s.loopMaxMs)),
    samples: sets.reduce((n, s) => n + s.ack.length, 0),
  }
}

/** A second ask to a channel right after a first: how long until it is posted (ms, per trial). */
async function secondAskSameChannel(trials: number): Promise<number[]> {
  const slack = await startSandbox()
  const channels = makeChannels(slack, trials, 'C0SECOND')
  const app = await startApp('bridge', slack)
  const seen = watchMessages(slack)
  const samples: number[] = []
  for (const channel of channels) {
    await postAsk(app.url, { questions: [question], channel })
    const start = now()
    const second = await postAsk(app.url, { questions: [question], channel })
    samples.push((await seen.whenPosted(second.ts)) - start)
    await sleep(2 * ROUND_SPACING_MS)
  }
  await app.stop()
  await slack.close()
  return samples
}


/**
 * Long plans through the service: `POST /v1/asks` of a 200 KB plan (request
 * → 201), then 100 KB plans posted and approved while the event loop's delay
 * is measured in the service's process.
 */
export async function longPlans(plans: number) {
  const slack = await startSandbox()
  const channels = makeChannels(slack, plans + 1, 'C0PLAN')
  // Owner 'service', as `serve` runs: its render thread starts warm (the round-trip sets keep the library default, so a one-time warm-up is not counted as CPU per round trip).
  const app = await startApp('bridge', slack, { BENCH_OWNER: 'service' })
  const seen = watchMessages(slack)
  const user = slack.user('U0SANDBOX01')
  let start = now()
  const big = await postAsk(app.url, { questions: [planReviewQuestion(benchPlan(0, 200_000))], channel: channels[0] })
  const created200k = since(start)
  await seen.whenPosted(big.ts)
  app.measure()
  const createdPlans: number[] = []
  for (let i = 1; i <= plans; i++) {
    start = now()
    const created = await postAsk(app.url, { questions: [planReviewQuestion(benchPlan(i, 100_000))], channel: channels[i] })
    createdPlans.push(since(start))
    await seen.whenPosted(created.ts)
    const message = slack.messages(channels[i]!).find((m) => m.ts === created.ts)!
    await user.click(message, 'Approve')
    await seen.whenUpdated(created.ts)
  }
  const report = await app.report()
  await app.stop()
  await slack.close()
  return { created200k, createdPlans, loopP99Ms: report.loopP99Ms, loopMaxMs: report.loopMaxMs }
}

/** A burst of asks to one channel: all delivered, in order, at Slack's pace. */
async function burstToOneChannel(count: number) {
  const slack = await startSandbox()
  const bridge = await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger })
  const start = performance.now()
  const records = await Promise.allSettled(Array.from({ length: count }, (_, i) => bridge.open({ questions: [{ ...question, id: `q${i}` }] })))
  const took = since(start)
  const delivered = slack.messages(slack.defaultChannel).length
  const failed = records.filter((r) => r.status === 'rejected').length
  const inOrder = records.every((r, i) => r.status === 'fulfilled' && r.value.message?.ts === slack.messages(slack.defaultChannel)[i]?.ts)
  const rateLimited = slack.callCount('chat.postMessage') - delivered
  await bridge.stop({ withdrawOpen: false })
  await slack.close()
  return { took, delivered, failed, inOrder, rateLimited }
}

/** A port that answers at once: measures our own memory per open ask, not a stand-in's. */
function instantPort(): SlackPort {
  let seq = 0
  return {
    authTest: async () => ({ userId: 'UBOT', url: 'https://bench.slack.com/' }),
    postMessage: async (channel) => ({ channel, ts: `1.${++seq}` }),
    findMessageByMetadata: async () => undefined,
    updateMessage: async () => undefined,
    postEphemeral: async () => undefined,
    openView: async () => undefined,
    openDirectMessage: async (user) => `D${user}`,
    permalink: async () => undefined,
    uploadFile: async () => undefined,
    userGroupMembers: async () => [],
    publishHome: async () => undefined,
    conversationMembers: async () => [],
  }
}

function heapUsed(): number {
  globalThis.gc?.()
  globalThis.gc?.()
  return process.memoryUsage().heapUsed
}

/** Bytes of heap per open ask (record, watcher, expiry timer, waiting promise) at `count` open asks. */
async function memoryPerOpenAsk(count: number, store: AskStore): Promise<number> {
  const lifecycle = new AskLifecycle({ store, slack: instantPort(), pacer: new ChannelPacer({ intervalMs: 0 }), settings: { locale: 'en' }, defaultChannel: 'C0BENCH', defaultTimeoutMs: 3_600_000, owner: 'library', logger: silentLogger, workspaceUrl: 'https://bench.slack.com/' })
  const before = heapUsed()
  const waiting: Promise<unknown>[] = []
  for (let i = 0; i < count; i++) {
    const record = await lifecycle.open({ questions: [{ ...question, id: `q${i}` }] }, { channel: `C0BENCH${i % 50}` })
    waiting.push(new Promise((resolve) => store.watch(record.id, resolve)))
  }
  const after = heapUsed()
  await lifecycle.stop()
  await Promise.all(waiting)
  await store.close()
  return (after - before) / count
}

const KINDS: { kind: ChildKind; name: string }[] = [
  { kind: 'floor', name: 'web-api + socket-mode (floor)' },
  { kind: 'bare', name: 'bare Bolt' },
  { kind: 'bridge', name: 'dsh-slack' },
]

export async function benchProvider(options: { sets: number; rounds: number; burst: number; openAsks: number; plans: number; trials: number }): Promise<string[]> {
  const results = new Map<ChildKind, ReturnType<typeof summarise>>()
  const sets = new Map<ChildKind, SetFigures[]>(KINDS.map(({ kind }) => [kind, []]))
  // Interleaved, so a busy moment on the machine falls on every app alike.
  for (let set = 0; set < options.sets; set++) for (const { kind } of KINDS) sets.get(kind)!.push(await roundTrips(kind, options.rounds + 1))
  for (const { kind } of KINDS) results.set(kind, summarise(sets.get(kind)!))
  const floor = results.get('floor')!
  const bare = results.get('bare')!
  const ours = results.get('bridge')!
  const lines: string[] = [
    `Round trips over HTTP → Slack → tap → answer, Socket Mode, ${options.sets} sets × ${options.rounds} (p50 and p99 per set, median over the sets; ratios are dsh-slack / bare Bolt, and / the floor)`,
    `${pad('', 30)}${KINDS.map(({ name }) => pad(name, 34)).join('')}ratio vs Bolt      ratio vs floor`,
  ]
  const row = (label: string, key: 'created' | 'posted' | 'ack' | 'answered' | 'updated') => {
    const cells = [floor, bare, ours].map((r) => pad(`p50 ${ms(r[key].p50)}, p99 ${ms(r[key].p99)}`, 34)).join('')
    const vsBolt = `${(ours[key].p50 / bare[key].p50).toFixed(2)}× / ${(ours[key].p99 / bare[key].p99).toFixed(2)}×`
    const vsFloor = `${(ours[key].p50 / floor[key].p50).toFixed(2)}× / ${(ours[key].p99 / floor[key].p99).toFixed(2)}×`
    lines.push(`${pad(label, 30)}${cells}${pad(vsBolt, 19)}${vsFloor}`)
  }
  row('request → 201', 'created')
  row('ask → message posted', 'posted')
  row('click → ack', 'ack')
  row('click → answer at the client', 'answered')
  row('click → message updated', 'updated')
  lines.push(`${pad('CPU per round trip', 30)}${[floor, bare, ours].map((r) => pad(ms(r.cpu), 34)).join('')}${pad(`${(ours.cpu / bare.cpu).toFixed(2)}×`, 19)}${(ours.cpu / floor.cpu).toFixed(2)}×`)
  lines.push(`${pad('event-loop delay', 30)}${[floor, bare, ours].map((r) => pad(`p99 ${ms(r.loopP99)}, max ${ms(r.loopMax)}`, 34)).join('')}${pad(`${(ours.loopP99 / bare.loopP99).toFixed(2)}×`, 19)}${(ours.loopP99 / floor.loopP99).toFixed(2)}×`)
  lines.push(`(samples per app: ${ours.samples})`)

  const second = await secondAskSameChannel(options.trials)
  lines.push(`second ask to the same channel → posted: p50 ${ms(percentile(second, 50))}, max ${ms(Math.max(...second))} (n=${second.length}; goal < 50 ms: within Slack's burst, nothing waits)`)

  const plans = await longPlans(options.plans)
  lines.push(`POST /v1/asks of a 200 KB plan → 201: ${ms(plans.created200k)} (goal < 1 s: the card is posted, the thread follows)`)
  lines.push(`POST /v1/asks of 100 KB plans → 201: p50 ${ms(percentile(plans.createdPlans, 50))}, max ${ms(Math.max(...plans.createdPlans))} (n=${plans.createdPlans.length})`)
  lines.push(`event-loop delay while 100 KB plans are posted and approved: p99 ${ms(plans.loopP99Ms)}, max ${ms(plans.loopMaxMs)} (goal: no task over 50 ms)`)

  const burst = await burstToOneChannel(options.burst)
  const limit = postScheduleMs(options.burst)
  lines.push(
    `burst of ${options.burst} asks to one channel: ${burst.delivered}/${options.burst} delivered, ${burst.failed} errors, ${burst.rateLimited} 429s, ${burst.inOrder ? 'in order' : 'OUT OF ORDER'}, ${(burst.took / 1000).toFixed(1)} s = ${(burst.took / limit).toFixed(3)}× the limit's ${(limit / 1000).toFixed(0)} s (burst of ${RATE_RULES.channelPost.burst}, then ${RATE_RULES.channelPost.perSecond}/s; goal ≤ 1.05×)`,
  )

  const memory = await memoryPerOpenAsk(options.openAsks, new MemoryAskStore())
  const sqliteMemory = await memoryPerOpenAsk(options.openAsks, new SqliteAskStore(':memory:'))
  lines.push(`heap per open ask at ${options.openAsks} open (bridge side only, through an in-process port that answers at once, not the stand-in): ${(memory / 1024).toFixed(1)} KiB (memory store), ${(sqliteMemory / 1024).toFixed(1)} KiB (SQLite store)${globalThis.gc ? '' : ' [run with --expose-gc for steadier figures]'}`)
  return lines
}
