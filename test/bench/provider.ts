import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createSlackBridge } from '../../src/bridge/create-slack-bridge.js'
import { AskLifecycle } from '../../src/bridge/ask-lifecycle.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'
import type { SlackPort } from '../../src/slack/slack-port.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { since, summary, percentile } from './stats.js'

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }

/** Channels to spread asks over, so Slack's one-post-a-second per channel does not dominate latency figures. */
function makeChannels(slack: Sandbox, count: number): string[] {
  return Array.from({ length: count }, (_, i) => slack.createChannel({ id: `C0BENCH${String(i).padStart(4, '0')}`, name: `bench-${i}`, botIsMember: true }).id)
}

async function latestIn(slack: Sandbox, channel: string) {
  return slack.waitFor(() => slack.latestMessage(channel), { timeoutMs: 10_000 })
}

type ChildMessage = { type: 'ready'; ts?: string } | { type: 'posted'; ts: string; askedAt: number; postedAt: number } | { type: 'resolved'; at: number }

const now = () => performance.timeOrigin + performance.now()

/** Starts the app under test in a child process against the stand-in. */
async function startChild(kind: 'bare' | 'bridge', slack: Sandbox) {
  const child = fork(fileURLToPath(new URL('./app-child.js', import.meta.url)), [kind], {
    env: { ...process.env, BENCH_BOT_TOKEN: slack.botToken, BENCH_APP_TOKEN: slack.appToken, BENCH_API_URL: slack.apiUrl, BENCH_CHANNEL: slack.defaultChannel },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const inbox: ChildMessage[] = []
  const waiters: ((message: ChildMessage) => void)[] = []
  child.on('message', (message: ChildMessage) => {
    const waiter = waiters.shift()
    if (waiter) waiter(message)
    else inbox.push(message)
  })
  const next = () => new Promise<ChildMessage>((resolve) => (inbox.length > 0 ? resolve(inbox.shift()!) : waiters.push(resolve)))
  const ready = await next()
  const stop = async () => {
    child.send({ type: 'stop' })
    await new Promise((resolve) => child.once('exit', resolve))
  }
  return { child, next, ready, stop }
}

/** (a) ack latency of a bare Bolt app whose handler only acks: the floor any Bolt app pays. */
async function bareBoltAckLatency(rounds: number): Promise<number[]> {
  const slack = await startSandbox()
  const app = await startChild('bare', slack)
  const message = slack.messages(slack.defaultChannel).find((m) => m.ts === (app.ready as { ts: string }).ts)!
  const user = slack.user('U0SANDBOX01')
  const samples: number[] = []
  for (let i = 0; i < rounds; i++) {
    const start = performance.now()
    await user.click(message, 'npm')
    samples.push(since(start))
  }
  await app.stop()
  await slack.close()
  return samples
}

/** (a) ack latency, (b) ask → posted, (c) click → ask settled, for the real bridge in Socket Mode. */
async function bridgeLatencies(rounds: number) {
  const slack = await startSandbox()
  const channels = makeChannels(slack, rounds)
  const app = await startChild('bridge', slack)
  const user = slack.user('U0SANDBOX01')
  const ack: number[] = []
  const posted: number[] = []
  const resolved: number[] = []
  for (const channel of channels) {
    app.child.send({ type: 'ask', channel })
    const post = (await app.next()) as Extract<ChildMessage, { type: 'posted' }>
    posted.push(post.postedAt - post.askedAt)
    const message = await latestIn(slack, channel)
    const clickedAt = now()
    await user.click(message, 'npm')
    ack.push(now() - clickedAt)
    const settled = (await app.next()) as Extract<ChildMessage, { type: 'resolved' }>
    resolved.push(settled.at - clickedAt)
  }
  await app.stop()
  await slack.close()
  return { ack, posted, resolved }
}

/** (e) a burst of asks to one channel: all delivered, in order, at Slack's pace. */
async function burstToOneChannel(count: number) {
  const slack = await startSandbox()
  const bridge = await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger })
  const start = performance.now()
  const records = await Promise.allSettled(Array.from({ length: count }, (_, i) => bridge.open({ questions: [{ ...question, id: `q${i}` }] })))
  const took = since(start)
  const delivered = slack.messages(slack.defaultChannel).length
  const failed = records.filter((r) => r.status === 'rejected').length
  const inOrder = records.every((r, i) => r.status === 'fulfilled' && r.value.message?.ts === slack.messages(slack.defaultChannel)[i]?.ts)
  await bridge.stop({ withdrawOpen: false })
  await slack.close()
  return { took, delivered, failed, inOrder }
}

/** A port that answers at once: (d) measures our own memory per open ask, not a stand-in's. */
function instantPort(): SlackPort {
  let seq = 0
  return {
    authTest: async () => ({ userId: 'UBOT' }),
    postMessage: async (channel) => ({ channel, ts: `1.${++seq}` }),
    updateMessage: async () => undefined,
    postEphemeral: async () => undefined,
    openView: async () => undefined,
    openDirectMessage: async (user) => `D${user}`,
    permalink: async () => undefined,
    uploadFile: async () => undefined,
    userGroupMembers: async () => [],
  }
}

function heapUsed(): number {
  globalThis.gc?.()
  globalThis.gc?.()
  return process.memoryUsage().heapUsed
}

/** (d) bytes of heap per open ask (record, watcher, expiry timer, waiting promise) at `count` open asks. */
async function memoryPerOpenAsk(count: number, store: AskStore): Promise<number> {
  const lifecycle = new AskLifecycle({ store, slack: instantPort(), pacer: new ChannelPacer({ intervalMs: 0 }), settings: { locale: 'en' }, defaultChannel: 'C0BENCH', defaultTimeoutMs: 3_600_000, owner: 'library', logger: silentLogger })
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

export async function benchProvider(options: { rounds: number; burst: number; openAsks: number }): Promise<string[]> {
  const bare = await bareBoltAckLatency(options.rounds)
  const ours = await bridgeLatencies(options.rounds)
  const burst = await burstToOneChannel(options.burst)
  const memory = await memoryPerOpenAsk(options.openAsks, new MemoryAskStore())
  const sqliteMemory = await memoryPerOpenAsk(options.openAsks, new SqliteAskStore(':memory:'))
  const ratio = (p: number) => (percentile(ours.ack, p) / percentile(bare, p)).toFixed(2)
  return [
    `(a) interaction ack, bare Bolt app:     ${summary(bare)}   [apps run in their own process, as in production]`,
    `    interaction ack, dsh-slack:         ${summary(ours.ack)}`,
    `    ratio dsh-slack / bare Bolt:        p50 ${ratio(50)}×, p99 ${ratio(99)}×`,
    `(b) ask → message posted:               ${summary(ours.posted)}`,
    `(c) click → ask settled:                ${summary(ours.resolved)}`,
    `(d) heap per open ask at ${options.openAsks} open (bridge side only, through an in-process port that answers at once, not the stand-in): ${(memory / 1024).toFixed(1)} KiB (memory store), ${(sqliteMemory / 1024).toFixed(1)} KiB (SQLite store)${globalThis.gc ? '' : ' [run with --expose-gc for steadier figures]'}`,
    `(e) burst of ${options.burst} asks to one channel: ${burst.delivered}/${options.burst} delivered, ${burst.failed} errors, ${burst.inOrder ? 'in order' : 'OUT OF ORDER'}, ${(burst.took / 1000).toFixed(1)} s (${(burst.took / options.burst).toFixed(0)} ms per ask; Slack allows about one post a second per channel)`,
  ]
}
