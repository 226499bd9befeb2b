import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectToService, type ServiceConnection } from '../../src/index.js'
import { ShiftedClock } from '../../src/sandbox/clock.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { StoredMessage, WorkspaceChange } from '../../src/sandbox/model.js'
import type { AskUserQuestionAnswer } from '../../src/contract/index.js'
import { cleanEnv, cliSuite, runCli, type CliRun } from '../cli/cli-process.js'
import { interactiveElements, visibleText } from '../support/messages.js'
import { aMinutePasses, freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js'

/**
 * The fault run of issue 24, at a scale that fits the test time: three
 * `serve` instances in Socket Mode on one PostgreSQL database and one
 * stand-in, agents asking through thin clients (connectToService) behind
 * a proxy per instance (the load balancer), people clicking. Faults: an
 * instance SIGKILLed, PostgreSQL restarted and stopped, Slack's Web API
 * down, an instance frozen (SIGSTOP), a burst to one channel. PostgreSQL
 * is cut at a TCP proxy the suite owns (the shared server keeps running),
 * Slack's Web API with the stand-in's faults. At the end, exact counts: every ask posted once, settled once,
 * its agent told, its card updated once to its final state; every click
 * counted or its person told.
 */

const suite = cliSuite('dsh-slack-outages-')
const CHANNELS = ['C0FAULTKILL', 'C0FAULTPGSQL', 'C0FAULTSLACK', 'C0FAULTFROZE', 'C0FAULTBURST']
const [KILL, PGSQL, SLACK_DOWN, FROZEN, BURST] = CHANNELS as [string, string, string, string, string]

interface Instance {
  name: string
  run: CliRun
  url: string
  /** What agents connect through: a load balancer that can move them to another instance. */
  front: TcpProxy
  /** Agents asking through `front`, one per channel they ask in. */
  agents: Map<string, ServiceConnection>
}

/** One agent's ask, from the question to its answer. */
interface Ask {
  question: string
  label: string
  channel: string
  via: Instance
  answer: Promise<AskUserQuestionAnswer>
  message?: StoredMessage
}

/** One click and what came of it. */
interface Click {
  ask: Ask
  user: string
  /** Slack's ack arrived (false: the app did not acknowledge in time, and Slack tells the person so). */
  acked: boolean
}

let db: FreshDatabase
let database: TcpProxy
const clock = new ShiftedClock()
let slack: Sandbox
const instances: Instance[] = []
const asks: Ask[] = []
const clicks: Click[] = []
const updatesByTs = new Map<string, number>()
let clickers = 0

function countUpdates(change: WorkspaceChange): void {
  if (change.type === 'message_updated') updatesByTs.set(change.message.ts, (updatesByTs.get(change.message.ts) ?? 0) + 1)
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function serve(name: string): Promise<Instance> {
  const cwd = join(suite.cwd, name)
  mkdirSync(cwd, { recursive: true })
  const env = { PORT: '0', SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_CHANNEL: slack.defaultChannel, DSH_SLACK_STATE: database.through(db.url) }
  const run = runCli(suite.main, ['serve'], { env: cleanEnv(env), cwd })
  const output = await run.waitForOutput(/API: (http:\/\/\S+)\/v1\/asks/)
  const url = /API: (http:\/\/\S+)\/v1\/asks/.exec(output)![1]!
  const { hostname, port } = new URL(url)
  const front = await startTcpProxy({ host: hostname, port: Number(port) })
  return { name, run, url, front, agents: new Map() }
}

function ask(via: Instance, channel: string): Ask {
  const index = asks.length
  const question = `Fault ask ${index}?`
  const label = index % 2 === 0 ? 'npm' : 'pnpm'
  let agent = via.agents.get(channel)
  if (!agent) via.agents.set(channel, (agent = connectToService({ url: via.front.through(via.url).replace(/\/$/, ''), channel })))
  const answer = agent.provider.ask({ questions: [{ id: 'pick', question, options: [{ label: 'npm' }, { label: 'pnpm' }] }] })
  // Settled with an error, it fails the assertion at the end, not the process.
  answer.catch(() => undefined)
  const created: Ask = { question, label, channel, via, answer }
  asks.push(created)
  return created
}

/** The ask's message once posted: exactly one message carries its question. */
async function posted(ask: Ask): Promise<StoredMessage> {
  ask.message = await slack.waitFor(() => slack.messages(ask.channel).find((message) => visibleText(message).includes(ask.question)), { timeoutMs: 45_000, message: `${ask.question} to be posted` })
  return ask.message
}

/** A person (a new one per click, so what they are told is theirs alone) clicks the ask's label. */
async function click(ask: Ask): Promise<Click> {
  const user = `U0FAULT${String(clickers++).padStart(4, '0')}`
  const acked = await slack
    .user(user)
    .click({ channel: ask.channel, ts: ask.message!.ts }, ask.label)
    .then(
      () => true,
      (error: unknown) => {
        if ((error as { code?: string }).code !== 'NOT_ACKNOWLEDGED') throw error
        return false
      },
    )
  const done: Click = { ask, user, acked }
  clicks.push(done)
  return done
}

function isSettled(ask: Ask): boolean {
  const message = slack.messages(ask.channel).find((m) => m.ts === ask.message!.ts)
  return message !== undefined && interactiveElements(message).length === 0
}

function settledCard(ask: Ask, timeoutMs = 30_000): Promise<StoredMessage> {
  return slack.waitFor(
    () => {
      const message = slack.messages(ask.channel).find((m) => m.ts === ask.message!.ts)
      return message && interactiveElements(message).length === 0 ? message : undefined
    },
    { timeoutMs, message: `the card of ${ask.question} to lose its controls` },
  )
}

/**
 * Slack's Web API fails at its edge (HTTP 503) for every call the
 * instances make about messages, until `faults.clear()`; Socket Mode
 * stays up, so clicks still arrive. (A TCP proxy cannot stand in for Slack
 * here: the stand-in answers only to its own Host, against DNS rebinding.)
 */
function slackIsDown(): void {
  for (const method of ['chat.update', 'chat.postMessage', 'chat.postEphemeral', 'chat.getPermalink', 'users.info']) slack.faults.inject(method, { status: 503 }, { times: 100_000 })
}

/** What one person was told privately in one channel. */
const toldTo = (click: Click) => slack.ephemerals(click.user, click.ask.channel)

beforeAll(async () => {
  db = await freshDatabase()
  const pgUrl = new URL(db.url)
  database = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) })
  slack = await startSandbox({ clock, channels: CHANNELS.map((id, index) => ({ id, name: `fault-${index}`, botIsMember: true })) })
  slack.workspace.on('change', countUpdates)
}, 60_000)

afterAll(async () => {
  if (process.env.DSH_SLACK_TEST_TRACE) for (const instance of instances) writeFileSync(join(process.env.DSH_SLACK_TEST_TRACE, `serve-${instance.name}.log`), instance.run.stderr() + instance.run.stdout())
  await Promise.all(instances.flatMap((instance) => [...instance.agents.values()].map((agent) => agent.stop().catch(() => undefined))))
  for (const { run } of instances) {
    if (run.child.signalCode === 'SIGSTOP' || run.child.exitCode === null) run.child.kill('SIGCONT')
    if (run.child.exitCode === null) run.child.kill('SIGKILL')
  }
  await Promise.all(instances.map((instance) => instance.front.close()))
  await database?.close()
  await slack?.close()
  await db?.drop()
})

/**
 * A run that fails in CI leaves no trace file, and CI shows the end of its
 * output: the failure carries the end of each instance's log with it.
 */
function withInstanceLogs(error: unknown): never {
  const logs = instances.map((instance) => `--- serve ${instance.name}, last lines ---\n${instance.run.stderr().trimEnd().split('\n').slice(-40).join('\n')}`)
  if (error instanceof Error) {
    error.message = `${error.message}\n${logs.join('\n')}`
    throw error
  }
  throw new Error(`${String(error)}\n${logs.join('\n')}`)
}

describe('three instances on PostgreSQL through outages', () => {
  it('loses no ask, answer or click through a SIGKILL, a database restart and stop, Slack down, a frozen instance and a burst', () => faultRun().catch(withInstanceLogs), 150_000)
})

/** The run, phase by phase: each phase's comment says what it shows. */
async function faultRun(): Promise<void> {
  instances.push(...(await Promise.all(['a', 'b', 'c'].map((name) => serve(name)))))
  const [a, b, c] = instances as [Instance, Instance, Instance]
  await slack.waitFor(() => slack.socketConnections() === 3 || undefined, { timeoutMs: 20_000 })

  // SIGKILL: c dies with asks it posted still open; its load balancer sends its agents to a.
  const killPhase = [a, b, c, c, c, b].map((via) => ask(via, KILL))
  await Promise.all(killPhase.map(posted))
  c.front.retarget({ host: new URL(a.url).hostname, port: Number(new URL(a.url).port) })
  c.run.child.kill('SIGKILL')
  c.front.resetConnections()
  await slack.waitFor(() => slack.socketConnections() === 2 || undefined, { timeoutMs: 20_000 })
  for (const each of killPhase) await click(each)
  await Promise.all(killPhase.map((each) => settledCard(each)))

  // PostgreSQL restarts (every connection broken), then stops: clicks in the outage are told to try again,
  // POSTs wait for it, /healthz says so; once it is back the people click again.
  await aMinutePasses(clock, db.url)
  const pgPhase = [a, b, a, b].map((via) => ask(via, PGSQL))
  await Promise.all(pgPhase.map(posted))
  database.resetConnections()
  await Promise.all([a, b].map((instance) => instance.run.waitForOutput('PostgreSQL is back')))
  await database.cut()
  const lateAsks = [a, b].map((via) => ask(via, PGSQL))
  const inOutage = [await click(pgPhase[0]!), await click(pgPhase[1]!)]
  await slack.waitFor(() => inOutage.every((each) => toldTo(each).length === 1) || undefined, { timeoutMs: 10_000, message: 'the people who clicked in the outage to be told' })
  const health = await fetch(`${a.url}/healthz`)
  expect(health.status).toBe(503)
  expect(await health.json()).toMatchObject({ ok: false, store: 'postgres', problem: expect.stringMatching(/store does not answer/) })
  await pause(1_500)
  await database.restore()
  await Promise.all(lateAsks.map(posted))
  for (const each of [...pgPhase, ...lateAsks]) await click(each)
  await Promise.all([...pgPhase, ...lateAsks].map((each) => settledCard(each)))

  // Slack's Web API down: clicks still arrive (Socket Mode) and settle, agents get their answers,
  // the cards cannot be updated until Slack is back, and then are, without a restart.
  await aMinutePasses(clock, db.url)
  const slackPhase = [a, b, a, b].map((via) => ask(via, SLACK_DOWN))
  await Promise.all(slackPhase.map(posted))
  slackIsDown()
  for (const each of slackPhase) await click(each)
  await Promise.all(slackPhase.map((each) => each.answer))
  expect(slackPhase.filter(isSettled)).toEqual([])
  await pause(2_000)
  slack.faults.clear()
  await Promise.all(slackPhase.map((each) => settledCard(each)))

  // b frozen (SIGSTOP): clicks Slack hands to it go unacknowledged (Slack tells the person), and are
  // handled once it thaws; its agents' long-polls wait and then answer.
  await aMinutePasses(clock, db.url)
  const frozenPhase = [a, b, a, b].map((via) => ask(via, FROZEN))
  await Promise.all(frozenPhase.map(posted))
  b.run.child.kill('SIGSTOP')
  const frozenClicks = await Promise.all(frozenPhase.map((each) => click(each)))
  await pause(500)
  b.run.child.kill('SIGCONT')
  await pause(3_000)
  // A click nobody heard of, thawed or not, is clicked again, as the person told "it did not go through" would.
  for (const each of frozenClicks) if (!each.acked && !isSettled(each.ask)) await click(each.ask)
  await Promise.all(frozenPhase.map((each) => settledCard(each)))

  // A burst to one channel: Slack takes four at once, then one a second; every POST is answered in time.
  await aMinutePasses(clock, db.url)
  const burst = Array.from({ length: 12 }, (_, index) => ask(index % 2 === 0 ? a : b, BURST))
  await Promise.all(burst.map(posted))
  await aMinutePasses(clock, db.url)
  for (const each of burst) await click(each)
  await Promise.all(burst.map((each) => settledCard(each)))

  // Every agent told the clicked label.
  const answers = await Promise.all(asks.map((each) => each.answer.then((answer) => answer, (error: unknown) => ({ error: String(error) }))))
  answers.forEach((answer, index) => expect(answer, asks[index]!.question).toEqual({ answers: [{ id: 'pick', selected: [asks[index]!.label] }] }))

  // Every ask posted once, and its card updated once, to its final state.
  for (const each of asks) {
    expect(slack.messages(each.channel).filter((message) => visibleText(message).includes(each.question)), each.question).toHaveLength(1)
    expect(updatesByTs.get(each.message!.ts), each.question).toBe(1)
    const card = slack.messages(each.channel).find((m) => m.ts === each.message!.ts)!
    expect(interactiveElements(card)).toEqual([])
    expect(visibleText(card)).toContain(each.label)
  }

  // Every ask settled once: exactly one instance logged its settlement.
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  // The card is on Slack a moment before its instance records that it is (after chat.update answers).
  const read = () =>
    client.query<{ id: string; question: string; status: string; shown: boolean | null }>(
      `SELECT id, record->'questions'->0->>'question' AS question, record->>'status' AS status, (record->>'finalMessageShown')::boolean AS shown FROM asks`,
    )
  let { rows } = await read()
  for (let tries = 0; tries < 100 && rows.some((row) => row.shown !== true); tries++) {
    await pause(100)
    rows = (await read()).rows
  }
  await client.end()
  expect(rows).toHaveLength(asks.length)
  for (const row of rows) {
    expect(row, row.question).toMatchObject({ status: 'answered', shown: true })
    const settlers = instances.filter((instance) => instance.run.stderr().includes(`ask ${row.id} answered`))
    expect(settlers.map((instance) => instance.name), row.question).toHaveLength(1)
  }

  // Every click counted (it is who answered) or its person told: privately, or by Slack when the app did not acknowledge.
  const idOf = new Map(rows.map((row) => [row.question, row.id]))
  for (const each of clicks) {
    const settledBy = `ask ${idOf.get(each.ask.question)} answered by `
    const counted = instances.some((instance) => instance.run.stderr().split('\n').some((line) => line.includes(settledBy) && line.includes(each.user)))
    const told = toldTo(each).length > 0 || !each.acked
    expect(counted || told, `${each.user} on ${each.ask.question}`).toBe(true)
  }
  // The ones who clicked in the database outage were told to try again.
  for (const each of inOutage) expect(toldTo(each)[0]!.text).toMatch(/not recorded.*try again/)

  // Reconnect logging: a line when PostgreSQL was lost and one when it was back, per outage, not one every half second.
  for (const instance of [a, b]) {
    const lost = instance.run.stderr().split('\n').filter((line) => line.includes('PostgreSQL connection lost')).length
    const back = instance.run.stderr().split('\n').filter((line) => line.includes('PostgreSQL is back')).length
    expect(back, instance.name).toBe(2)
    expect(lost, instance.name).toBeGreaterThanOrEqual(2)
    expect(lost, instance.name).toBeLessThanOrEqual(4)
  }
}
