import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import { policyFromEnvironment } from '../../src/policy/environment-policy.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { SQL } from '../../src/store/postgres/queries.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { tallyStatements } from '../support/statements.js'

/**
 * What one ask costs the database, end to end through the service: POST
 * /v1/asks (the caps on pending asks counted as the ask is inserted), a
 * long-poll GET, a person's tap, the card updated. Housekeeping
 * on timers (the lease sweep, the scheduler's claim) is counted apart: it
 * costs the same with no asks.
 */
const MOST_PER_ASK = 8
const ROUND_TRIPS = 5

const question = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }

let db: FreshDatabase

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db?.drop()
})

interface Deployment {
  slack: Sandbox
  bridges: SlackBridge[]
  api: ApiServer
  url: string
}

/**
 * `instances` services on one stand-in and one database. The first takes
 * the HTTP requests; with more than one, it receives no clicks (HTTP mode,
 * not listening), so every tap lands on another instance, as behind a
 * load balancer.
 */
async function deploy(instances: number): Promise<Deployment> {
  const slack = await startSandbox()
  const common = { botToken: slack.botToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: db.url, logger: silentLogger, owner: 'service' as const }
  const bridges: SlackBridge[] = []
  for (let i = 0; i < instances; i++) {
    const asker = i === 0 && instances > 1
    bridges.push(await createSlackBridge(asker ? { ...common, signingSecret: slack.signingSecret, listen: false } : { ...common, appToken: slack.appToken }))
  }
  await slack.waitFor(() => slack.socketConnections() === (instances > 1 ? instances - 1 : 1) || undefined)
  // As `serve` runs it: the operator's policy, whose caps on pending asks are counted with every POST.
  const policy = policyFromEnvironment({ channel: slack.defaultChannel })
  const api = createApiServer({ bridge: bridges[0]!, logger: silentLogger, policy: () => policy })
  const { url } = await api.listen('127.0.0.1', 0)
  return { slack, bridges, api, url }
}

async function postAsk(url: string, channel: string): Promise<{ id: string; ts: string }> {
  const created = await fetch(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ questions: [question], channel }) })
  expect(created.status).toBe(201)
  return (await created.json()) as { id: string; ts: string }
}

async function tapAndSeeUpdated(slack: Sandbox, channel: string, ts: string): Promise<void> {
  await slack.user('U0SANDBOX01').click({ channel, ts }, 'npm')
  await slack.waitFor(() => slack.messages(channel).find((message) => message.ts === ts && message.edited) ?? undefined)
}

async function roundTrip({ slack, url }: Deployment, channel: string): Promise<void> {
  const { id, ts } = await postAsk(url, channel)
  const answer = fetch(`${url}/v1/asks/${id}?wait=30`).then(async (response) => (await response.json()) as { status: string })
  await tapAndSeeUpdated(slack, channel, ts)
  expect((await answer).status).toBe('answered')
}

describe.each([1, 3])('an ask round trip through the service on PostgreSQL, %i instance(s)', (instances) => {
  it(`costs at most ${MOST_PER_ASK} statements, whichever instance takes the tap`, async () => {
    const deployment = await deploy(instances)
    try {
      const channels = Array.from({ length: ROUND_TRIPS + instances }, (_, i) => deployment.slack.createChannel({ id: `C0STMT${instances}${i}`, name: `stmt-${instances}-${i}`, botIsMember: true }).id)
      // A first tap on each instance starts what starts once (the Home tab's viewers are read once, then followed);
      // the stand-in hands taps to the connections in turn.
      for (const channel of channels.slice(0, instances)) await roundTrip(deployment, channel)
      const tally = tallyStatements(deployment.bridges.map((bridge) => bridge.store as PostgresAskStore))
      for (const channel of channels.slice(instances)) await roundTrip(deployment, channel)

      const spent = tally.spent()
      expect(spent.perAsk(ROUND_TRIPS), spent.breakdown(ROUND_TRIPS)).toBeLessThanOrEqual(MOST_PER_ASK)
    } finally {
      await deployment.api.close()
      for (const bridge of deployment.bridges) await bridge.stop({ withdrawOpen: false })
      await deployment.slack.close()
    }
  }, 60_000)

  // The instance that posted an ask keeps it while it is open; another instance reads it once.
  it(`reads the ask back for a tap ${instances === 1 ? 'never, on the instance that posted it' : 'once, on an instance that did not post it'}`, async () => {
    const deployment = await deploy(instances)
    try {
      const channel = deployment.slack.createChannel({ id: `C0READ${instances}`, name: `read-${instances}`, botIsMember: true }).id
      const { ts } = await postAsk(deployment.url, channel)
      const tally = tallyStatements(deployment.bridges.map((bridge) => bridge.store as PostgresAskStore))
      await tapAndSeeUpdated(deployment.slack, channel, ts)

      const spent = tally.spent()
      expect(spent.times(SQL.get), spent.breakdown(1)).toBe(instances === 1 ? 0 : 1)
    } finally {
      await deployment.api.close()
      for (const bridge of deployment.bridges) await bridge.stop({ withdrawOpen: false })
      await deployment.slack.close()
    }
  }, 60_000)
})
