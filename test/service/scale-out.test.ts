import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ShiftedClock } from '../../src/sandbox/clock.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { WorkspaceChange } from '../../src/sandbox/model.js'
import { cleanEnv, cliSuite, runCli, type CliRun } from '../cli/cli-process.js'
import { interactiveElements, visibleText } from '../support/messages.js'
import { aMinutePasses, freshDatabase, type FreshDatabase } from '../support/postgres.js'

/**
 * Many processes on one Slack app, sharing one PostgreSQL database: three
 * `serve` instances (each in its own working folder) and two library
 * processes, all connected in Socket Mode to one stand-in, which hands each
 * interaction to its open connections in turn, as Slack spreads them. Then
 * two `serve` instances in HTTP mode behind a round-robin proxy.
 */

const suite = cliSuite('dsh-slack-scale-out-')
const ASK_CHANNELS = 150
const HTTP_ASKS = 290
const LIBRARY_ASKS_EACH = 5
/** Clicks per batch: under the stand-in's chat.update burst (Slack's Tier 3: 50 a minute), whose clock moves a minute between batches. */
const BATCH = 40
/** Asks posted at once. */
const POST_WAVE = 30

const ask = (question: string, extra: Record<string, unknown> = {}) => ({ questions: [{ id: 'pick', question, options: [{ label: 'npm' }, { label: 'pnpm' }] }], ...extra })

interface Instance {
  run: CliRun
  url: string
}

interface LibraryProcess {
  child: ChildProcess
  lines: Record<string, unknown>[]
  next(test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>
  send(line: unknown): void
}

let db: FreshDatabase
const clock = new ShiftedClock()
let slack: Sandbox
const updatesByTs = new Map<string, number>()
const libraries: LibraryProcess[] = []
const servers: CliRun[] = []
const mark = (what: string) => process.env.DSH_SLACK_TEST_TRACE && console.log(`${new Date().toISOString()} ${what}`)

function countUpdates(change: WorkspaceChange): void {
  if (change.type === 'message_updated') updatesByTs.set(change.message.ts, (updatesByTs.get(change.message.ts) ?? 0) + 1)
}

function slackEnv(channel: string, extra: Record<string, string> = {}, on: Sandbox = slack): Record<string, string> {
  return { SLACK_BOT_TOKEN: on.botToken, SLACK_API_URL: on.apiUrl, SLACK_CHANNEL: channel, DSH_SLACK_STATE: db.url, ...extra }
}

async function serve(name: string, env: Record<string, string>): Promise<Instance> {
  const cwd = join(suite.cwd, name)
  mkdirSync(cwd, { recursive: true })
  const run = runCli(suite.main, ['serve'], { env: cleanEnv({ PORT: '0', ...env }), cwd })
  // Not in suite.running: the instances outlive each test (the suite's tests share them) and stop in afterAll.
  servers.push(run)
  const output = await run.waitForOutput(/API: (http:\/\/\S+)\/v1\/asks/)
  return { run, url: /API: (http:\/\/\S+)\/v1\/asks/.exec(output)![1]! }
}

function library(channel: string): LibraryProcess {
  const script = join(dirname(suite.main), '..', '..', 'test', 'support', 'library-process.js')
  const child = spawn(process.execPath, [script], { env: cleanEnv(slackEnv(channel, { SLACK_APP_TOKEN: slack.appToken })), stdio: ['pipe', 'pipe', 'inherit'] })
  const lines: Record<string, unknown>[] = []
  const waiters: { test: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }[] = []
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Record<string, unknown>
    lines.push(line)
    for (const waiter of [...waiters]) if (waiter.test(line)) waiters.splice(waiters.indexOf(waiter), 1), waiter.resolve(line)
  })
  const process_: LibraryProcess = {
    child,
    lines,
    next: (test) => new Promise((resolve) => {
      const found = lines.find(test)
      if (found) resolve(found)
      else waiters.push({ test, resolve })
    }),
    send: (line) => child.stdin!.write(`${JSON.stringify(line)}\n`),
  }
  libraries.push(process_)
  return process_
}

async function json<T>(response: Promise<Response>): Promise<{ status: number; body: T }> {
  const settled = await response
  return { status: settled.status, body: (await settled.json()) as T }
}

const post = (instance: Instance, body: unknown) =>
  json<{ id: string; channel: string; ts: string }>(fetch(`${instance.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))

const poll = (instance: Instance, id: string, wait = 60) =>
  json<{ id: string; status: string; answer?: { answers: { selected: string[] }[] }; answeredBy?: { id: string } }>(fetch(`${instance.url}/v1/asks/${id}?wait=${wait}`))

/**
 * Which processes settled the ask: a `serve` instance logs `ask <id> <outcome>`
 * when its settle wins, a library process prints `settledHere`. Waits until
 * one has said so (their output arrives through pipes, after the fact).
 */
async function settlersOf(id: string, outcome: string, question?: string): Promise<string[]> {
  for (;;) {
    const settlers = [
      ...servers.filter((run) => run.stderr().includes(`ask ${id} ${outcome}`)).map((run) => `serve ${servers.indexOf(run)}`),
      ...libraries.filter((lib) => question !== undefined && lib.lines.some((line) => line.settledHere === question)).map((lib) => `library ${libraries.indexOf(lib)}`),
    ]
    if (settlers.length > 0) return settlers
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The message once its controls are gone; generous, as five processes share two loaded cores. */
function settledMessage(on: Sandbox, channel: string, ts: string) {
  return on.waitFor(
    () => {
      const message = on.messages(channel).find((m) => m.ts === ts)
      return message && interactiveElements(message).length === 0 ? message : undefined
    },
    { timeoutMs: 30_000, message: `message ${ts} to lose its controls` },
  )
}

beforeAll(async () => {
  db = await freshDatabase()
  const channels = Array.from({ length: ASK_CHANNELS + 2 }, (_, index) => ({ id: `C0SCALE${String(index).padStart(4, '0')}`, name: `scale-${index}`, botIsMember: true }))
  slack = await startSandbox({ clock, channels })
  slack.workspace.on('change', countUpdates)
}, 60_000)

afterAll(async () => {
  for (const { child } of libraries) if (child.exitCode === null) child.kill('SIGKILL')
  for (const run of servers) if (run.child.exitCode === null) run.child.kill('SIGKILL')
  await slack?.close()
  await db?.drop()
})

describe('five processes on one Slack app in Socket Mode, sharing PostgreSQL', () => {
  const instances: Instance[] = []

  it('answers 300 asks from clicks that land on any process, through an instance killed mid-way, each message updated once', async () => {
    const socket = { SLACK_APP_TOKEN: slack.appToken }
    instances.push(...(await Promise.all(['a', 'b', 'c'].map((name) => serve(name, slackEnv(slack.defaultChannel, socket))))))
    const libraryChannels = [`C0SCALE${String(ASK_CHANNELS).padStart(4, '0')}`, `C0SCALE${String(ASK_CHANNELS + 1).padStart(4, '0')}`]
    const [libA, libB] = libraryChannels.map((channel) => library(channel))
    await Promise.all([libA!, libB!].map((lib) => lib.next((line) => line.ready === true)))
    await slack.waitFor(() => slack.socketConnections() === 5 || undefined, { timeoutMs: 20_000 })

    mark('connected')
    // Post: two asks per channel, both from one instance.
    // A few agents at a time, as a team's agents would post: 290 at once only measures a loaded machine's Web API timeouts.
    const posted: { index: number; poster: number; label: string; id: string; channel: string; ts: string }[] = []
    for (let start = 0; start < HTTP_ASKS; start += POST_WAVE) {
      await aMinutePasses(clock, db.url)
      const wave = Array.from({ length: Math.min(POST_WAVE, HTTP_ASKS - start) }, async (_, offset) => {
        const index = start + offset
        const pair = Math.floor(index / 2)
        const poster = pair % 3
        const created = await post(instances[poster]!, ask(`Scale ask ${index}?`, { channel: `C0SCALE${String(pair).padStart(4, '0')}` }))
        expect(created.status, JSON.stringify(created.body)).toBe(201)
        return { index, poster, label: index % 2 === 0 ? 'npm' : 'pnpm', ...created.body }
      })
      posted.push(...(await Promise.all(wave)))
    }
    const libraryAsks = [libA!, libB!].flatMap((lib, which) =>
      Array.from({ length: LIBRARY_ASKS_EACH }, (_, index) => {
        const question = `Library ${which} ask ${index}?`
        lib.send({ ask: question })
        return { lib, question, channel: libraryChannels[which]!, label: index % 2 === 0 ? 'pnpm' : 'npm' }
      }),
    )
    mark('posted')
    // A pool: the asks are looked up at once, and one client runs one query at a time.
    const client = new pg.Pool({ connectionString: db.url, max: 4 })
    const libraryMessages = await Promise.all(
      libraryAsks.map(async (libraryAsk) => {
        for (;;) {
          const { rows } = await client.query<{ message: { channel: string; ts: string } | null }>(`SELECT record->'message' AS message FROM asks WHERE record->'questions'->0->>'question' = $1`, [libraryAsk.question])
          if (rows[0]?.message) return { ...libraryAsk, ...rows[0].message }
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }),
    )
    await client.end()

    // Click, in batches; the third instance is SIGKILLed half-way, with asks it posted still open.
    const clicks = [...posted.map((p) => ({ channel: p.channel, ts: p.ts, label: p.label })), ...libraryMessages.map((m) => ({ channel: m.channel, ts: m.ts, label: m.label }))]
    // Long-poll each HTTP ask on an instance that did not post it and stays alive (a or b).
    const pollerOf = (poster: number) => (poster === 0 ? 1 : 0)
    const polls = new Map<string, ReturnType<typeof poll>>()
    for (let start = 0, batch = 0; start < clicks.length; start += BATCH, batch++) {
      if (batch === 4) {
        instances[2]!.run.child.kill('SIGKILL')
        await slack.waitFor(() => slack.socketConnections() === 4 || undefined, { timeoutMs: 20_000 })
      }
      const slice = clicks.slice(start, start + BATCH)
      for (const p of posted.slice(start, start + BATCH)) polls.set(p.id, poll(instances[pollerOf(p.poster)]!, p.id))
      await aMinutePasses(clock, db.url)
      await Promise.all(slice.map((click, i) => slack.user(`U0CLICK${String((start + i) % 7).padStart(4, '0')}`).click({ channel: click.channel, ts: click.ts }, click.label)))
      await Promise.all(slice.map((click) => settledMessage(slack, click.channel, click.ts)))
      mark(`batch ${batch}`)
    }

    const answers = await Promise.all(posted.map(async (p) => ({ p, polled: await polls.get(p.id)! })))
    for (const { p, polled } of answers) {
      expect(polled.status).toBe(200)
      expect(polled.body).toMatchObject({ id: p.id, status: 'answered', answer: { answers: [{ selected: [p.label] }] } })
    }
    const libraryResults = await Promise.all(libraryAsks.map((libraryAsk) => libraryAsk.lib.next((line) => line.question === libraryAsk.question && ('answer' in line || 'error' in line))))
    libraryResults.forEach((result, index) => expect(result).toEqual({ question: libraryAsks[index]!.question, answer: { answers: [{ id: 'pick', selected: [libraryAsks[index]!.label] }] } }))
    for (const click of clicks) expect(updatesByTs.get(click.ts)).toBe(1)
    for (const click of clicks) expect(visibleText(slack.messages(click.channel).find((m) => m.ts === click.ts)!)).toContain(click.label)
    // Nobody was told anything privately: every click counted, wherever it landed.
    for (let user = 0; user < 7; user++) expect(slack.ephemerals(`U0CLICK${String(user).padStart(4, '0')}`)).toEqual([])

    // Asks posted by the killed instance were answered by the others.
    const orphans = posted.filter((p) => p.poster === 2 && p.index >= 4 * BATCH)
    expect(orphans.length).toBeGreaterThan(0)
    // Each ask was settled by exactly one process; most long-polls and some ask()s were
    // resolved on a process that did not take the click (they heard through NOTIFY).
    const settlers = await Promise.all(answers.map(({ p }) => settlersOf(p.id, 'answered', `Scale ask ${p.index}?`)))
    for (const settler of settlers) expect(settler).toHaveLength(1)
    const notifiedPolls = answers.filter(({ p }, index) => settlers[index]![0] !== `serve ${servers.indexOf(instances[pollerOf(p.poster)]!.run)}`)
    expect(notifiedPolls.length).toBeGreaterThan(HTTP_ASKS / 2)
    const settledElsewhere = libraryAsks.filter((libraryAsk) => !libraryAsk.lib.lines.some((line) => line.settledHere === libraryAsk.question))
    expect(settledElsewhere.length).toBeGreaterThan(0)
  }, 240_000)

  it('lets one of twenty people clicking at once on different processes answer, updates the message once, and tells the others who won', async () => {
    const [a, b] = instances
    const created = await post(a!, ask('Race?', { channel: 'C0SCALE0000' }))
    const people = Array.from({ length: 20 }, (_, index) => `U0RACE${String(index).padStart(4, '0')}`)
    await aMinutePasses(clock, db.url)

    await Promise.all(people.map((person, index) => slack.user(person).click({ channel: created.body.channel, ts: created.body.ts }, index % 2 ? 'npm' : 'pnpm')))

    const final = await settledMessage(slack, created.body.channel, created.body.ts)
    await slack.waitFor(() => people.filter((person) => slack.ephemerals(person).length > 0).length === 19 || undefined, { timeoutMs: 10_000 })
    const fromB = await poll(b!, created.body.id, 0)
    const winner = fromB.body.answeredBy!.id
    expect(people.filter((person) => slack.ephemerals(person).length === 0)).toEqual([winner])
    expect(updatesByTs.get(created.body.ts)).toBe(1)
    expect(visibleText(final)).toContain(winner)
    for (const person of people.filter((p) => p !== winner)) expect(slack.ephemerals(person)[0]!.text).toContain(winner)
    expect((await poll(a!, created.body.id, 0)).body).toEqual(fromB.body)
  }, 60_000)

  it('expires an ask once while two instances are alive, and DELETE on either answers for the ask', async () => {
    const [a, b] = instances
    const expiring = await post(a!, ask('Expire?', { channel: 'C0SCALE0001', timeoutMs: 1500 }))
    const withdrawn = await post(b!, ask('Withdraw?', { channel: 'C0SCALE0002' }))

    const expired = await poll(b!, expiring.body.id)
    const deleted = await json<{ status: string }>(fetch(`${a!.url}/v1/asks/${withdrawn.body.id}`, { method: 'DELETE' }))
    await settledMessage(slack, expiring.body.channel, expiring.body.ts)
    await settledMessage(slack, withdrawn.body.channel, withdrawn.body.ts)

    expect(expired.body).toMatchObject({ status: 'expired', error: { code: 'ASK_EXPIRED' } })
    // Every process arms the timer (library processes too); exactly one of the five settles it.
    expect(await settlersOf(expiring.body.id, 'expired', 'Expire?')).toHaveLength(1)
    expect(updatesByTs.get(expiring.body.ts)).toBe(1)
    expect(deleted.body).toMatchObject({ status: 'aborted' })
    expect((await poll(b!, withdrawn.body.id, 0)).body.status).toBe('aborted')
    expect(updatesByTs.get(withdrawn.body.ts)).toBe(1)
  }, 60_000)
})

describe('two instances in HTTP mode behind a load balancer, sharing PostgreSQL', () => {
  let proxy: Server | undefined
  let httpSlack: Sandbox | undefined

  afterAll(async () => {
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
    await httpSlack?.close()
  })

  it('settles every click whichever instance the signed request reaches, and each instance receives some', async () => {
    // Its own stand-in on a true clock: signed requests carry the stand-in's time, which the first suite moved on.
    const channels = Array.from({ length: 10 }, (_, index) => ({ id: `C0HTTP${String(index).padStart(4, '0')}`, name: `http-${index}`, botIsMember: true }))
    const on = (httpSlack = await startSandbox({ channels }))
    const updates = new Map<string, number>()
    on.workspace.on('change', (change: WorkspaceChange) => {
      if (change.type === 'message_updated') updates.set(change.message.ts, (updates.get(change.message.ts) ?? 0) + 1)
    })
    const http = { SLACK_SIGNING_SECRET: on.signingSecret }
    const instances = await Promise.all(['http-a', 'http-b'].map((name) => serve(name, slackEnv(channels[0]!.id, http, on))))
    const received = [0, 0]
    let turn = 0
    // A load balancer: each request to the next instance, body and signature headers passed through untouched.
    proxy = createServer((req, res) => {
      const target = turn++ % instances.length
      received[target]! += 1
      const upstream = request(`${instances[target]!.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve))
    const address = proxy.address() as { port: number }
    on.deliverInteractionsTo({ kind: 'http', url: `http://127.0.0.1:${address.port}/slack/events`, signingSecret: on.signingSecret })

    const posted = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => (await post(instances[index % 2]!, ask(`HTTP ask ${index}?`, { channel: channels[index]!.id }))).body),
    )
    const polls = posted.map((p, index) => poll(instances[(index + 1) % 2]!, p.id))
    for (const p of posted) await on.user('U0SANDBOX01').click({ channel: p.channel, ts: p.ts }, 'npm')

    for (const polled of await Promise.all(polls)) expect(polled.body).toMatchObject({ status: 'answered', answer: { answers: [{ selected: ['npm'] }] }, answeredBy: { id: 'U0SANDBOX01' } })
    for (const p of posted) {
      await settledMessage(on, p.channel, p.ts)
      expect(updates.get(p.ts)).toBe(1)
    }
    expect(received).toEqual([5, 5])
    expect(on.ephemerals('U0SANDBOX01')).toEqual([])
  }, 90_000)
})
