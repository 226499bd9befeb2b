import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { CODE_CHANNEL_SCOPES } from '../../src/cli/doctor/manifest-scopes.js'
import { FakeBridge, oneQuestion } from '../http/fake-bridge.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { cleanEnv, cliSuite, runCli, type CliRun } from './cli-process.js'

const suite = cliSuite('dsh-slack-cli-')
const { cwd, running, closers } = suite

function cli(args: string[], env: Record<string, string> = {}, stdin?: string): CliRun {
  const run = runCli(suite.main, args, { env: cleanEnv({ DSH_SLACK_SANDBOX_PORT: '0', ...env }), cwd, ...(stdin !== undefined ? { stdin } : {}) })
  running.push(run)
  return run
}

describe('dsh-slack (help, version, mistakes)', () => {
  it('prints the version from package.json', async () => {
    const run = cli(['--version'])

    expect(await run.exited).toBe(0)
    expect(run.stdout().trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version)
  })

  it.each(['--help', 'serve --help', 'ask --help', 'doctor --help', 'sandbox --help', 'relay --help'])('prints help for `dsh-slack %s` and exits 0', async (args) => {
    const run = cli(args.split(' '))

    expect(await run.exited).toBe(0)
    expect(run.stdout()).toMatch(/Usage: dsh-slack/)
  })

  it('refuses an unknown command with one line and exit 2', async () => {
    const run = cli(['sreve'])

    expect(await run.exited).toBe(2)
    expect(run.stderr().trim().split('\n')).toHaveLength(1)
  })

  it('refuses an unknown flag with one line naming it and exit 2', async () => {
    const run = cli(['ask', '--chanel', 'C0123ABCDEF'])

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/^dsh-slack ask: .*--chanel.*\(see dsh-slack ask --help\)\n$/)
  })

  it('passes the sandbox command’s failure through as the exit code', async () => {
    const run = cli(['sandbox', '--port', 'nope'])

    expect(await run.exited).toBe(2)
  })

  it('stops on a malformed setting with one line naming the variable, exit 2 and no stack trace', async () => {
    const run = cli(['serve'], { SLACK_CHANNEL: '#general' })

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/^dsh-slack: SLACK_CHANNEL: "#general" is not a channel or user id .*\n$/)
  })

  it('refuses to serve on a non-loopback HOST without DSH_SLACK_API_KEY', async () => {
    const run = cli(['serve'], { HOST: '0.0.0.0', PORT: '0' })

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/^dsh-slack: DSH_SLACK_API_KEY: is required when HOST \(0\.0\.0\.0\) is not a loopback address.*e\.g\. DSH_SLACK_API_KEY=\$\(openssl rand -hex 24\) HOST=0\.0\.0\.0 npm start.*\n$/)
  })
})

describe('dsh-slack ask --url (exit codes against a service)', () => {
  async function service(apiKey?: string): Promise<{ bridge: FakeBridge; url: string }> {
    const bridge = new FakeBridge()
    const server: ApiServer = createApiServer({ bridge, logger: silentLogger, ...(apiKey ? { apiKey } : {}) })
    closers.push(() => server.close())
    const { url } = await server.listen('127.0.0.1', 0)
    return { bridge, url }
  }

  async function whenPosted(bridge: FakeBridge): Promise<string> {
    await vi.waitFor(() => expect(bridge.opened).toHaveLength(1), { timeout: 10_000 })
    return (await bridge.store.listPending())[0]!.id
  }

  it('prints the answer JSON and exits 0 when answered', async () => {
    const { bridge, url } = await service()
    const run = cli(['ask', '--url', url], {}, JSON.stringify(oneQuestion))

    await bridge.answer(await whenPosted(bridge), ['pnpm (Recommended)'])

    expect(await run.exited).toBe(0)
    expect(JSON.parse(run.stdout())).toEqual({ answers: [{ id: 'q1', selected: ['pnpm (Recommended)'] }] })
  })

  it('reads the request from a FILE and passes --channel, --timeout and the API key', async () => {
    const key = 'a'.repeat(32)
    const { bridge, url } = await service(key)
    const file = join(cwd, 'request.json')
    writeFileSync(file, JSON.stringify(oneQuestion))
    const run = cli(['ask', file, '--url', url, '--channel', 'C0OTHER', '--timeout', '10m'], { DSH_SLACK_API_KEY: key })

    await bridge.answer(await whenPosted(bridge), ['npm'])

    expect(await run.exited).toBe(0)
    // The CLI sends an Idempotency-Key, so a retried POST is never posted twice.
    expect(bridge.opened[0]?.options).toEqual({ channel: 'C0OTHER', timeoutMs: 600_000, idempotencyKey: expect.stringMatching(/^http-idempotency::[0-9a-f-]{36}$/), onQueued: expect.any(Function) })
  })

  it('exits 2 for an invalid request, with the seam’s code on stderr', async () => {
    const { url } = await service()
    const run = cli(['ask', '-', '--url', url], {}, JSON.stringify({ questions: [] }))

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/EMPTY_QUESTIONS/)
  })

  it('exits 2 naming a misspelt field and the one it most likely means, before posting anything', async () => {
    const { bridge, url } = await service()
    const question = { ...oneQuestion.questions[0]!, multiselect: true }
    const run = cli(['ask', '--url', url], {}, JSON.stringify({ questions: [question] }))

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toBe('dsh-slack ask: BAD_REQUEST: unknown field questions[0].multiselect — did you mean multiSelect?\n')
    expect(bridge.opened).toHaveLength(0)
  })

  it('exits 2 for a request that is not JSON', async () => {
    const { url } = await service()
    const run = cli(['ask', '--url', url], {}, '{questions')

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/^dsh-slack ask: stdin is not valid JSON/)
  })

  it('exits 3 when the question is dismissed in Slack', async () => {
    const { bridge, url } = await service()
    const run = cli(['ask', '--url', url], {}, JSON.stringify(oneQuestion))

    await bridge.dismiss(await whenPosted(bridge))

    expect(await run.exited).toBe(3)
    expect(run.stderr()).toMatch(/ASK_CANCELLED/)
  })

  it('exits 4 when the question expires', async () => {
    const { bridge, url } = await service()
    const run = cli(['ask', '--url', url], {}, JSON.stringify(oneQuestion))

    await bridge.expire(await whenPosted(bridge))

    expect(await run.exited).toBe(4)
  })

  it('exits 1 when someone else withdraws the question', async () => {
    const { bridge, url } = await service()
    const run = cli(['ask', '--url', url], {}, JSON.stringify(oneQuestion))

    await bridge.abort(await whenPosted(bridge))

    expect(await run.exited).toBe(1)
  })

  it('exits 1 with one line when the service cannot be reached', async () => {
    const run = cli(['ask', '--url', 'http://127.0.0.1:9'], {}, JSON.stringify(oneQuestion))

    expect(await run.exited).toBe(1)
    expect(run.stderr()).toMatch(/^dsh-slack ask: cannot reach http:\/\/127\.0\.0\.1:9 .*dsh-slack serve/)
  })

  it('exits 1 when the API key is wrong, saying so in CLI terms', async () => {
    const { url } = await service('b'.repeat(32))
    const run = cli(['ask', '--url', url, '--api-key', 'c'.repeat(32)], {}, JSON.stringify(oneQuestion))

    expect(await run.exited).toBe(1)
    expect(run.stderr()).toContain(`dsh-slack ask: the service at ${url} refused the API key (from --api-key or DSH_SLACK_API_KEY)`)
  })

  it('exits 1 without the API key, advising --api-key or DSH_SLACK_API_KEY rather than an HTTP header', async () => {
    const { url } = await service('b'.repeat(32))
    const run = cli(['ask', '--url', url], {}, JSON.stringify(oneQuestion))

    expect(await run.exited).toBe(1)
    expect(run.stderr()).toContain(`dsh-slack ask: the service at ${url} needs an API key: pass --api-key KEY, or set DSH_SLACK_API_KEY`)
    expect(run.stderr()).not.toContain('Authorization')
  })

  it('keeps waiting through a service restart and prints the answer given afterwards', async () => {
    const bridge = new FakeBridge()
    const first = createApiServer({ bridge, logger: silentLogger })
    const { port, url } = await first.listen('127.0.0.1', 0)
    const run = cli(['ask', '--url', url], {}, JSON.stringify(oneQuestion))
    const id = await whenPosted(bridge)
    await run.waitForOutput('waiting for an answer')

    await first.close()
    await run.waitForOutput('retrying')
    const second = createApiServer({ bridge, logger: silentLogger })
    closers.push(() => second.close())
    await second.listen('127.0.0.1', port)
    await vi.waitFor(() => expect(bridge.store instanceof MemoryAskStore && bridge.store.watchers.size).toBe(1), { timeout: 15_000 })
    await bridge.answer(id, ['npm'])

    expect(await run.exited).toBe(0)
    expect(JSON.parse(run.stdout())).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
  })

  it('withdraws the question on Ctrl-C and exits 130', async () => {
    const { bridge, url } = await service()
    const run = cli(['ask', '--url', url], {}, JSON.stringify(oneQuestion))
    const id = await whenPosted(bridge)
    await run.waitForOutput('waiting for an answer')

    run.child.kill('SIGINT')

    expect(await run.exited).toBe(130)
    expect((await bridge.get(id))?.status).toBe('aborted')
  })
})

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('dsh-slack doctor (against the local stand-in)', () => {
  let slack: Sandbox

  async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
    slack = await startSandbox(options)
    closers.push(() => slack.close())
    return slack
  }

  const envFor = (s: Sandbox, extra: Record<string, string> = {}) => ({
    SLACK_BOT_TOKEN: s.botToken,
    SLACK_APP_TOKEN: s.appToken,
    SLACK_API_URL: s.apiUrl,
    SLACK_CHANNEL: s.defaultChannel,
    ...extra,
  })

  it('passes every check with a good configuration and exits 0', async () => {
    // The stand-in starts as an app installed before code channels; this one has every scope of manifest.yml.
    const s = await sandbox({ scopes: [...DEFAULT_SCOPES, ...CODE_CHANNEL_SCOPES] })
    // The API's port is probed: one where nothing listens, whatever else runs on this machine.
    const run = cli(['doctor'], envFor(s, { PORT: String(await closedPort()) }))

    expect(await run.exited).toBe(0)
    const lines = run.stdout().trim().split('\n')
    expect(lines.filter((line) => line.startsWith('✓')).map((line) => line.split(':')[0])).toEqual(['✓ token', '✓ scopes', '✓ thread replies', '✓ code channels', '✓ channel', '✓ Socket Mode', '✓ HTTP API'])
    expect(run.stdout()).not.toContain('✗')
  })

  it('says why plan reviews stay in the thread when the app lacks the code-channel scopes, and passes: nothing else is affected', async () => {
    const s = await sandbox()
    const run = cli(['doctor'], envFor(s, { PORT: String(await closedPort()) }))

    expect(await run.exited).toBe(0)
    expect(run.stdout()).toContain('! code channels: missing code_channels:manage, canvases:write: plan reviews are the card and its thread')
    expect(run.stdout()).not.toContain('✗')
    expect(run.stdout()).toContain('All checks passed (1 optional feature is off: see the ! line).')
  })

  it('never prints the password of a URL it checks', async () => {
    const s = await sandbox()
    const run = cli(['doctor'], envFor(s, { SLACK_API_URL: s.apiUrl.replace('http://', 'http://doctoruser:hunter2pass@'), DSH_SLACK_STATE: 'postgres://pguser:pgsecretpass@127.0.0.1:9/none' }))

    await run.exited

    expect(run.stdout() + run.stderr()).not.toMatch(/hunter2pass|pgsecretpass|doctoruser|pguser/)
  })

  it('names what is broken and how to fix it, and exits 1', async () => {
    const s = await sandbox({ scopes: ['chat:write', 'users:read', 'channels:read'] })
    const run = cli(['doctor'], envFor(s, { SLACK_CHANNEL: 'C0SANDBOX02' }))

    expect(await run.exited).toBe(1)
    const out = run.stdout()
    expect(out).toMatch(/✓ token: valid/)
    expect(out).toMatch(/✗ scopes: missing chat:write\.public, usergroups:read, im:write, files:write, groups:read, im:read\n {4}fix: add them under OAuth & Permissions/)
    expect(out).toMatch(/✗ channel: #general \(C0SANDBOX02\) exists but the bot is not a member\n {4}fix: invite the app/)
  })

  it('stops at a token Slack refuses, saying where to get a good one', async () => {
    const s = await sandbox()
    const run = cli(['doctor'], envFor(s, { SLACK_BOT_TOKEN: 'xoxb-not-the-right-one' }))

    expect(await run.exited).toBe(1)
    expect(run.stdout()).toMatch(/✗ token: auth\.test at .* failed: invalid_auth\n {4}fix: check SLACK_BOT_TOKEN/)
  })

  it('reports an app token Slack refuses', async () => {
    const s = await sandbox()
    const run = cli(['doctor'], envFor(s, { SLACK_APP_TOKEN: 'xapp-not-the-right-one' }))

    expect(await run.exited).toBe(1)
    expect(run.stdout()).toMatch(/✗ Socket Mode: apps\.connections\.open with SLACK_APP_TOKEN failed: invalid_auth\n {4}fix: create an app-level token/)
  })

  it('checks a bot token that has neither an app token nor a signing secret, and names what is missing', async () => {
    const s = await sandbox()
    const { SLACK_APP_TOKEN: _, ...env } = envFor(s)
    const run = cli(['doctor'], env)

    expect(await run.exited).toBe(1)
    const out = run.stdout()
    expect(out).toMatch(/✓ token: valid/)
    expect(out).toMatch(/✓ channel: /)
    expect(out).toMatch(/✗ HTTP mode: neither SLACK_APP_TOKEN nor SLACK_SIGNING_SECRET is set\n {4}fix: set SLACK_APP_TOKEN/)
  })

  it('says that without a token serve runs against the stand-in', async () => {
    const run = cli(['doctor'])

    expect(await run.exited).toBe(1)
    expect(run.stdout()).toMatch(/✗ token: SLACK_BOT_TOKEN is not set/)
  })
})

describe('dsh-slack ask in-process (the real bridge on the local stand-in)', () => {
  async function sandboxEnv(): Promise<{ slack: Sandbox; env: Record<string, string> }> {
    const slack = await startSandbox()
    closers.push(() => slack.close())
    return {
      slack,
      env: { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_CHANNEL: slack.defaultChannel, DSH_SLACK_STATE: ':memory:' },
    }
  }

  it('prints the answer a person taps and exits 0', async () => {
    const { slack, env } = await sandboxEnv()
    const run = cli(['ask'], env, JSON.stringify(oneQuestion))

    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: 15_000 })
    await slack.user('U0SANDBOX01').click(message, 'npm')

    expect(await run.exited).toBe(0)
    expect(JSON.parse(run.stdout())).toEqual({ answers: [{ id: 'q1', selected: ['npm'] }] })
  })

  it('exits 2 with POLICY_FORBIDDEN naming the rule and field when the request loosens the operator\'s quorum, posting nothing', async () => {
    const { slack, env } = await sandboxEnv()
    const operator = { SLACK_ALLOWED_USERS: 'U0SANDBOX01,U0SANDBOX03', DSH_SLACK_APPROVALS: '2', DSH_SLACK_APPROVERS: 'U0SANDBOX01,U0SANDBOX03' }
    const request = { questions: [planReviewQuestion('# Plan\n\nDrop the table.')], policy: { approvals: 1, approvers: ['U0SANDBOX02'] } }
    const run = cli(['ask'], { ...env, ...operator }, JSON.stringify(request))

    expect(await run.exited).toBe(2)
    expect(run.stderr().trim().split('\n').at(-1)).toMatch(/^dsh-slack ask: POLICY_FORBIDDEN: policy\.approvals .*rule "environment"/)
    expect(slack.messages(slack.defaultChannel)).toEqual([])
  })

  it('exits 3 when the question is dismissed in Slack', async () => {
    const { slack, env } = await sandboxEnv()
    const run = cli(['ask'], env, JSON.stringify(oneQuestion))

    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: 15_000 })
    await slack.user('U0SANDBOX01').click(message, 'Dismiss')

    expect(await run.exited).toBe(3)
  })

  it('withdraws the question on Ctrl-C (the message loses its buttons) and exits 130', async () => {
    const { slack, env } = await sandboxEnv()
    const run = cli(['ask'], env, JSON.stringify(oneQuestion))
    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel), { timeoutMs: 15_000 })

    run.child.kill('SIGINT')

    expect(await run.exited).toBe(130)
    const final = slack.messages(slack.defaultChannel).find((m) => m.ts === message.ts)
    expect(JSON.stringify(final?.blocks)).not.toContain('"type":"button"')
  })

  it('names an unknown field without any configuration: the request is checked before connecting', async () => {
    const run = cli(['ask'], {}, JSON.stringify({ ...oneQuestion, agnet: { id: 'session-1' } }))

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toBe('dsh-slack ask: BAD_REQUEST: unknown field agnet — did you mean agent?\n')
  })

  it('answers {} with a sentence showing a whole request', async () => {
    const run = cli(['ask'], {}, '{}')

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/^dsh-slack ask: BAD_REQUEST: the request has no "questions": send at least one, like \{"questions": \[/)
  })

  it('exits 2 with one line when no bot token is configured', async () => {
    const run = cli(['ask'], {}, JSON.stringify(oneQuestion))

    expect(await run.exited).toBe(2)
    expect(run.stderr()).toMatch(/^dsh-slack: SLACK_BOT_TOKEN: is not set: without --url.*\n$/)
  })
})
