import { createServer, request, type Server } from 'node:http'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { freshDatabase, TEST_POSTGRES_URL } from '../support/postgres.js'
import { tallyStatements } from '../support/statements.js'
import { benchQuestion as question } from './round-trip.js'
import { percentile, summary } from './stats.js'

/**
 * Several instances on one Slack app sharing PostgreSQL: how long after a
 * click on instance B the `ask()` waiting on instance A resolves (LISTEN/
 * NOTIFY), next to one instance taking its own clicks; PostgreSQL queries
 * and Slack Web API calls per ask round trip (the latter must not grow with
 * the number of instances).
 */

/** Counts Web API calls on their way to the stand-in (Socket Mode itself goes straight to it). */
async function countingProxy(slack: Sandbox): Promise<{ url: string; calls: () => number; rateLimited: () => number; byMethod: Map<string, number>; close: () => Promise<void> }> {
  let calls = 0
  let rateLimited = 0
  const byMethod = new Map<string, number>()
  const target = new URL(slack.apiUrl)
  const server: Server = createServer((req, res) => {
    const method = /\/api\/([\w.]+)/.exec(req.url ?? '')?.[1]
    if (method && method !== 'apps.connections.open') {
      calls += 1
      byMethod.set(method, (byMethod.get(method) ?? 0) + 1)
    }
    // As a reverse proxy does: the stand-in answers only to its own Host.
    const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      if (answer.statusCode === 429) rateLimited += 1
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}/api/`, calls: () => calls, rateLimited: () => rateLimited, byMethod, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

interface Round {
  latencies: number[]
  withHousekeeping: number
  /** Of them, the ask's own (housekeeping on timers apart). */
  askStatements: number
  slackCallsPerAsk: number
  /** Calls Slack refused with 429 (each also counted in slackCallsPerAsk, and retried). */
  rateLimited: number
  /** Calls per ask by method, e.g. `chat.postMessage 1.0, chat.update 1.0`. */
  methods: string
}

/**
 * `instances` bridges on one stand-in and one database. The first asks; it
 * runs in HTTP mode without listening, so no click can reach it: with more
 * than one instance every click lands on another one (Socket Mode).
 */
async function run(instances: number, rounds: number, url: string): Promise<Round> {
  const slack = await startSandbox()
  const proxy = await countingProxy(slack)
  const channels = Array.from({ length: rounds + instances }, (_, i) => slack.createChannel({ id: `C0INST${String(i).padStart(4, '0')}`, name: `inst-${i}`, botIsMember: true }).id)
  // Pinned to the documented Tier 3: this section is about sharing a store, and the rounds ask for more
  // updates a minute than this stand-in takes, which a learning pacer would probe with 429s.
  const common = { botToken: slack.botToken, slackApiUrl: proxy.url, channel: slack.defaultChannel, state: url, logger: silentLogger, updateBudget: 'documented' as const }
  const bridges: SlackBridge[] = []
  for (let i = 0; i < instances; i++) {
    const asker = i === 0 && instances > 1
    bridges.push(await createSlackBridge(asker ? { ...common, signingSecret: slack.signingSecret, listen: false } : { ...common, appToken: slack.appToken, owner: 'service' }))
  }
  const asker = bridges[0]!
  const stores = bridges.map((bridge) => bridge.store as PostgresAskStore)
  const user = slack.user('U0SANDBOX01')
  /** One round trip; click → ask resolved (ms). */
  const round = async (channel: string): Promise<number> => {
    // open + waitForSettlement is ask() without its validation: the same store.watch the
    // provider's ask() and the HTTP long-poll wait on; each round gets its own channel so
    // Slack's one post a second per channel stays out of the figure.
    const record = await asker.open({ questions: [question] }, { channel })
    const settled = asker.waitForSettlement(record.id, 60_000).then(() => performance.now())
    const clickedAt = performance.now()
    await user.click({ channel: record.message!.channel, ts: record.message!.ts }, 'npm')
    const latency = (await settled) - clickedAt
    // The message update follows the settlement: let it land before the next round counts.
    await slack.waitFor(() => slack.messages(record.message!.channel).find((m) => m.ts === record.message!.ts && m.edited) ?? undefined, { timeoutMs: 10_000 })
    return latency
  }
  // A first tap on each instance (the stand-in hands taps to the connections in turn) reads what is read once.
  for (const channel of channels.slice(rounds)) await round(channel)
  const latencies: number[] = []
  const tally = tallyStatements(stores)
  const callsBefore = proxy.calls()
  const methodsBefore = new Map(proxy.byMethod)
  for (const channel of channels.slice(0, rounds)) latencies.push(await round(channel))
  const spent = tally.spent()
  const calls = proxy.calls() - callsBefore
  for (const bridge of bridges) await bridge.stop({ withdrawOpen: false })
  await proxy.close()
  await slack.close()
  const methods = [...proxy.byMethod]
    .map(([method, count]) => [method, (count - (methodsBefore.get(method) ?? 0)) / rounds] as const)
    .filter(([, perAsk]) => perAsk > 0)
    .map(([method, perAsk]) => `${method} ${perAsk.toFixed(2)}`)
    .join(', ')
  return { latencies, withHousekeeping: spent.perAsk(rounds) + spent.housekeeping / rounds, askStatements: spent.perAsk(rounds), slackCallsPerAsk: calls / rounds, rateLimited: proxy.rateLimited(), methods }
}

export async function benchInstances(options: { rounds: number }): Promise<string[]> {
  let database
  try {
    database = await freshDatabase()
  } catch (error) {
    return [`skipped: no PostgreSQL at ${TEST_POSTGRES_URL} (${error instanceof Error ? error.message : String(error)}); set DSH_SLACK_TEST_POSTGRES`]
  }
  try {
    // Warm the schema once, so no round pays for migrations.
    await (await PostgresAskStore.open(database.url)).close()
    const one = await run(1, options.rounds, database.url)
    const two = await run(2, options.rounds, database.url)
    const three = await run(3, options.rounds, database.url)
    const ratio = (p: number) => (percentile(two.latencies, p) / percentile(one.latencies, p)).toFixed(2)
    return [
      `(f) click → ask() resolved, one instance (PostgreSQL):          ${summary(one.latencies)}`,
      `    click on instance B → ask() resolved on instance A:         ${summary(two.latencies)}   [goal: p50 < 15 ms, p99 < 50 ms]`,
      `    ratio across instances / one instance:                      p50 ${ratio(50)}×, p99 ${ratio(99)}×`,
      `    same with three instances (clicks on B or C):               ${summary(three.latencies)}`,
      `(g) PostgreSQL statements per ask round trip (all instances):  ${one.askStatements.toFixed(1)} (one), ${two.askStatements.toFixed(1)} (two), ${three.askStatements.toFixed(1)} (three)   [goal: ≤ 8]`,
      `    with housekeeping on timers (sweeps, leases, the scheduler): ${one.withHousekeeping.toFixed(1)} (one), ${two.withHousekeeping.toFixed(1)} (two), ${three.withHousekeeping.toFixed(1)} (three)`,
      `(h) Slack Web API calls per ask round trip:                     ${one.slackCallsPerAsk.toFixed(2)} (one), ${two.slackCallsPerAsk.toFixed(2)} (two), ${three.slackCallsPerAsk.toFixed(2)} (three)`,
      `    by method: one: ${one.methods}; two: ${two.methods}; three: ${three.methods}`,
      `    429s met: ${one.rateLimited} (one), ${two.rateLimited} (two), ${three.rateLimited} (three)   [goal: 0; the instances share one rate budget in PostgreSQL]`,
    ]
  } finally {
    await database.drop()
  }
}
