import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { cleanEnv, cliSuite, runCli, type CliRun } from '../cli/cli-process.js'
import { interactiveElements, visibleText } from '../support/messages.js'
import { sandboxEnv } from '../support/sandbox-env.js'

const ALICE = 'U0SANDBOX01'
const question = { questions: [{ id: 'deploy', question: 'Deploy to production now?', options: [{ label: 'Deploy' }, { label: 'Wait' }] }] }

const suite = cliSuite('dsh-slack-serve-')
const { cwd, running, closers } = suite

function serve(env: Record<string, string>, args: string[] = []): CliRun {
  // DSH_SLACK_STATE's folder must exist (only the default one is created).
  if (env.DSH_SLACK_STATE?.startsWith('/')) mkdirSync(dirname(env.DSH_SLACK_STATE), { recursive: true })
  const run = runCli(suite.main, ['serve', ...args], { env: cleanEnv({ PORT: '0', DSH_SLACK_SANDBOX_PORT: '0', ...env }), cwd })
  running.push(run)
  return run
}

/** The API's base URL, from the line `serve` prints once it listens. */
async function apiUrlOf(run: CliRun): Promise<string> {
  const output = await run.waitForOutput(/API: (http:\/\/\S+)\/v1\/asks/)
  return /API: (http:\/\/\S+)\/v1\/asks/.exec(output)![1]!
}

/** A stand-in of the test's own (it outlives the serve processes) and the env that points serve at it, with a state file in `folder`. */
async function externalSlack(folder: string): Promise<{ slack: Sandbox; env: Record<string, string> }> {
  const slack = await startSandbox()
  closers.push(() => slack.close())
  const env = { ...sandboxEnv(slack), DSH_SLACK_STATE: join(cwd, folder, 'state.sqlite') }
  return { slack, env }
}

describe('dsh-slack serve (the process)', () => {
  it('without a token runs the local stand-in, prints where to open it, and stops cleanly on SIGTERM', async () => {
    const run = serve({ DSH_SLACK_STATE: join(cwd, 'first-run', 'state.sqlite') })

    const url = await apiUrlOf(run)
    const health = await (await fetch(`${url}/healthz`)).json()
    const created = await fetch(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question) })
    run.child.kill('SIGTERM')

    expect(run.stdout()).toMatch(/^Open http:\/\/127\.0\.0\.1:\d+\/\S* to try it/m)
    expect(health).toEqual({ ok: true, slack: 'local', store: 'sqlite' })
    expect(created.status).toBe(201)
    expect(await run.exited).toBe(0)
  })

  it('without a token keeps the open question across a restart, says so when it stops, and --fresh starts empty', async () => {
    const env = { DSH_SLACK_STATE: join(cwd, 'stand-in', 'state.sqlite') }
    const first = serve(env)
    const firstUrl = await apiUrlOf(first)
    const created = (await (await fetch(`${firstUrl}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question) })).json()) as { id: string }
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)

    const second = serve(env)
    const kept = await fetch(`${await apiUrlOf(second)}/v1/asks/${created.id}`)
    second.child.kill('SIGTERM')
    await second.exited
    const fresh = serve(env, ['--fresh'])
    const forgotten = await fetch(`${await apiUrlOf(fresh)}/v1/asks/${created.id}`)

    expect(first.stdout()).toContain(`Kept between runs in ${join(cwd, 'stand-in', 'sandbox-0.json')} and ${join(cwd, 'stand-in', 'sandbox-0.sqlite')} (serve --fresh starts empty)`)
    expect(first.stdout() + first.stderr()).toContain(`SIGTERM: stopping (open questions stay open: the stand-in's workspace in ${join(cwd, 'stand-in', 'sandbox-0.json')} and their state in`)
    expect(kept.status).toBe(200)
    expect(await kept.json()).toMatchObject({ id: created.id, status: 'pending' })
    expect(forgotten.status).toBe(404)
  }, 90_000)

  it('with DSH_SLACK_STATE=:memory: says at stop that nothing is kept', async () => {
    const run = serve({ DSH_SLACK_STATE: ':memory:' })
    await apiUrlOf(run)
    run.child.kill('SIGTERM')

    expect(await run.exited).toBe(0)
    expect(run.stdout() + run.stderr()).toContain("SIGTERM: stopping (DSH_SLACK_STATE is :memory:, so nothing is kept: open questions are withdrawn and the stand-in's workspace is forgotten)")
  })

  it('survives SIGKILL: after a restart, a click on the earlier message answers the ask and GET returns it', async () => {
    const { slack, env } = await externalSlack('restart')
    const first = serve(env)
    const firstUrl = await apiUrlOf(first)
    const created = (await (await fetch(`${firstUrl}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question) })).json()) as { id: string; ts: string }
    const message = await slack.waitFor(() => slack.messages(slack.defaultChannel).find((m) => m.ts === created.ts))

    first.child.kill('SIGKILL')
    await first.exited
    const second = serve(env)
    const secondUrl = await apiUrlOf(second)
    // Exactly one: the killed process's socket must be gone, or the click could go to it.
    await slack.waitFor(() => slack.socketConnections() === 1)
    await slack.user(ALICE).click(message, 'Deploy')
    const state = await (await fetch(`${secondUrl}/v1/asks/${created.id}?wait=30`)).json()

    expect(state).toEqual({ id: created.id, status: 'answered', answer: { answers: [{ id: 'deploy', selected: ['Deploy'] }] }, answeredBy: { id: ALICE, name: expect.any(String) } })
  }, 60_000)

  it('expires an ask on time after a SIGKILL and a restart, and the message says it expired', async () => {
    const { slack, env } = await externalSlack('expiry-restart')
    const startedAt = Date.now()
    const first = serve(env)
    const firstUrl = await apiUrlOf(first)
    // The deadline must fall after the restart, so that only the restarted
    // process's timer can expire it: a few start-up times from now, however
    // slow this machine is today.
    const timeoutMs = 3000 + 3 * (Date.now() - startedAt)
    const postedAt = Date.now()
    const created = (await (await fetch(`${firstUrl}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...question, timeoutMs }) })).json()) as { id: string; ts: string }

    first.child.kill('SIGKILL')
    await first.exited
    const second = serve(env)
    const secondUrl = await apiUrlOf(second)
    const beforeDeadline = (await (await fetch(`${secondUrl}/v1/asks/${created.id}`)).json()) as { status: string }
    const restartedBeforeDeadline = Date.now() < postedAt + timeoutMs
    const state = (await (await fetch(`${secondUrl}/v1/asks/${created.id}?wait=${Math.ceil(timeoutMs / 1000) + 10}`)).json()) as { status: string }
    const expiredAt = Date.now()
    const message = await slack.waitFor(() => slack.messages(slack.defaultChannel).find((m) => m.ts === created.ts && /expired/i.test(visibleText(m))))

    expect(restartedBeforeDeadline).toBe(true)
    expect(beforeDeadline.status).toBe('pending')
    expect(state.status).toBe('expired')
    expect(expiredAt).toBeGreaterThanOrEqual(postedAt + timeoutMs)
    expect(interactiveElements(message)).toEqual([])
  }, 120_000)

  it('drains on SIGTERM: a POST already posting finishes with 201, a new one gets 503, then the process exits 0', async () => {
    const slack: Sandbox = await startSandbox()
    closers.push(() => slack.close())
    const run = serve({ SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_CHANNEL: slack.defaultChannel, DSH_SLACK_STATE: join(cwd, 'drain', 'state.sqlite') })
    const url = await apiUrlOf(run)
    slack.faults.inject('chat.postMessage', { delayMs: 1500 })
    const first = fetch(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question) })
    await slack.waitFor(() => slack.faults.armedFor('chat.postMessage') === 0)

    run.child.kill('SIGTERM')
    await run.waitForOutput('SIGTERM: stopping')
    const refused = await fetch(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(question) })
    const created = (await (await first).json()) as { ts: string }

    expect(refused.status).toBe(503)
    expect(await refused.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } })
    expect(await run.exited).toBe(0)
    expect(slack.messages(slack.defaultChannel).map((message) => message.ts)).toEqual([created.ts])
  })

  it('with DSH_SLACK_LOG_FORMAT=json writes one JSON object per line, with no token and no question text', async () => {
    const slack: Sandbox = await startSandbox()
    closers.push(() => slack.close())
    const secretQuestion = { questions: [{ id: 'zebra', question: 'Ship the quarterly zebra migration?', detail: 'Moves the zebra tables', options: [{ label: 'Ship zebra' }, { label: 'Hold zebra' }] }] }
    const run = serve({ SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_CHANNEL: slack.defaultChannel, DSH_SLACK_STATE: ':memory:', DSH_SLACK_LOG_FORMAT: 'json' })
    const url = await apiUrlOf(run)
    const created = (await (await fetch(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(secretQuestion) })).json()) as { id: string; ts: string }
    const message = await slack.waitFor(() => slack.messages(slack.defaultChannel).find((m) => m.ts === created.ts))
    await slack.user(ALICE).click(message, 'Ship zebra')
    await fetch(`${url}/v1/asks/${created.id}?wait=30`)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)

    const lines = run.stderr().trim().split('\n')
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(entries.map((entry) => entry.msg)).toEqual(expect.arrayContaining([expect.stringMatching(`^ask ${created.id} posted to `), expect.stringMatching(`^ask ${created.id} answered by `), 'stopped']))
    for (const entry of entries) expect(entry).toMatchObject({ level: expect.stringMatching(/^(info|warn|error)$/), time: expect.any(String), name: 'dsh-slack', msg: expect.any(String) })
    expect(run.stderr()).not.toMatch(/zebra|xox[bp]-|xapp-/i)
  })

  it('never writes the password of DSH_HOST_URL into its JSON log', async () => {
    const slack: Sandbox = await startSandbox()
    closers.push(() => slack.close())
    const run = serve({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', DSH_SLACK_LOG_FORMAT: 'json', DSH_HOST_URL: 'http://relayuser:hunter2pass@127.0.0.1:9' })

    await run.waitForOutput(/relaying questions and approvals/)
    run.child.kill('SIGTERM')
    await run.exited

    expect(run.stderr()).toContain('http://***@127.0.0.1:9')
    expect(run.stderr()).not.toMatch(/hunter2pass|relayuser/)
  })
})
