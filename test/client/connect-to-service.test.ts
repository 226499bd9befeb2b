import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { askThroughService } from '../../src/client/ask-through-service.js'
import { ServiceHttp } from '../../src/client/service-http.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { connectToService, createSlackBridge } from '../../src/index.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import type { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'
import { sandboxEnv } from '../support/sandbox-env.js'

const ALICE = 'U0SANDBOX01'
const KEY = 'k'.repeat(32)
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }
const cleanups: (() => Promise<void> | void)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()!()).catch(() => undefined)
})

/** A real `serve` (real bridge, real Bolt, Socket Mode) on a stand-in the test can click in. */
async function serveOn(slack: Sandbox, env: Record<string, string> = {}): Promise<RunningService> {
  const config = configFromEnv({
    ...sandboxEnv(slack),
    DSH_SLACK_STATE: ':memory:',
    DSH_SLACK_API_KEY: KEY,
    PORT: '0',
    ...env,
  })
  const service = await startService(config, await serviceDeps(), silentLogger)
  cleanups.push(() => service.stop())
  return service
}

async function rig(env: Record<string, string> = {}) {
  const slack = await startSandbox()
  cleanups.push(() => slack.close())
  const service = await serveOn(slack, env)
  const connection = connectToService({ url: service.url, apiKey: KEY })
  cleanups.push(() => connection.stop())
  return { slack, service, connection, channel: slack.defaultChannel }
}

describe('connectToService: a provider asking through a running service', () => {
  it('resolves with the answer a person taps in Slack', async () => {
    const { slack, connection, channel } = await rig()

    const answer = connection.provider.ask({ questions: [pm], agent: { id: 'session-7', title: 'Refactor' } })
    const message = await postedMessage(slack, channel)
    await slack.user(ALICE).click(message, 'pnpm (Recommended)')

    await expect(answer).resolves.toEqual({ answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] })
    expect(visibleText(message)).toMatch(/Refactor/)
  })

  it('rejects with ASK_CANCELLED when a person dismisses the question', async () => {
    const { slack, connection, channel } = await rig()

    const answer = connection.provider.ask({ questions: [pm] })
    await slack.user(ALICE).click(await postedMessage(slack, channel), 'Dismiss')

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_CANCELLED' })
  })

  it('withdraws the question through DELETE when the agent aborts: the message says so and ask() rejects with ASK_ABORTED', async () => {
    const { slack, service, connection, channel } = await rig()
    const controller = new AbortController()
    const answer = connection.provider.ask({ questions: [pm], signal: controller.signal })
    const message = await postedMessage(slack, channel)

    controller.abort()

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_ABORTED' })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/withdrew/)
    expect((await service.bridge.store.listPending()).length).toBe(0)
  })

  it('rejects with ASK_EXPIRED when the question expires', async () => {
    const { slack, service } = await rig()
    const connection = connectToService({ url: service.url, apiKey: KEY, timeout: 300 })

    const answer = connection.provider.ask({ questions: [pm] })

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'ASK_EXPIRED' })
    expect(visibleText(await settledMessage(slack, slack.defaultChannel, (await postedMessage(slack, slack.defaultChannel)).ts))).toMatch(/expired/)
  })

  it.each([
    ['an empty batch', { questions: [] }],
    ['a plan review whose approve label is not an option', { questions: [{ ...pm, detail: '# Plan', intent: { kind: 'plan-review', approve: 'Ship it' } }] }],
    ['questions that are not an array', { questions: 'pm' }],
    ['an already aborted signal', { questions: [pm], signal: AbortSignal.abort() }],
  ])('refuses %s with the same name and code as the in-process bridge', async (_, request) => {
    const { slack, connection } = await rig()
    const bridge = await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger })
    cleanups.push(() => bridge.stop())

    const inProcess = await bridge.provider.ask(request as never).catch((error: Error & { code: string }) => ({ name: error.name, code: error.code }))
    const thin = await connection.provider.ask(request as never).catch((error: Error & { code: string }) => ({ name: error.name, code: error.code }))

    expect(thin).toEqual(inProcess)
    expect(thin).toMatchObject({ name: 'UserInteractionError' })
  })

  it('maps the service’s 400 body to the seam’s code, as the bridge would have thrown it', async () => {
    const { service } = await rig()

    const asked = askThroughService({ http: new ServiceHttp(service.url, KEY), body: { questions: [] } })

    await expect(asked).rejects.toMatchObject({ name: 'UserInteractionError', code: 'EMPTY_QUESTIONS' })
  })

  it('rejects with SLACK_API_ERROR naming Slack’s error when Slack refuses the post (the service’s 502)', async () => {
    const { slack, connection } = await rig()
    slack.faults.inject('chat.postMessage', { error: 'channel_not_found' })

    const answer = connection.provider.ask({ questions: [pm] })

    await expect(answer).rejects.toMatchObject({ name: 'UserInteractionError', code: 'SLACK_API_ERROR', message: expect.stringContaining('channel_not_found') })
  })

  it('refuses a redirect instead of re-posting the question to wherever it points', async () => {
    const received: string[] = []
    const elsewhere = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`)
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'stolen', status: 'pending', channel: 'C1', ts: '1.1' }))
    })
    const redirector = createServer((req, res) => res.writeHead(307, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}${req.url}` }).end())
    for (const server of [elsewhere, redirector]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    }
    const connection = connectToService({ url: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`, apiKey: KEY })
    cleanups.push(() => connection.stop())

    await expect(connection.provider.ask({ questions: [pm] })).rejects.toMatchObject({ name: 'HarnessError', code: 'REDIRECTED', message: expect.stringContaining('307') })
    expect(received).toEqual([])
  })

  it('refuses a wrong API key with UNAUTHORIZED and posts nothing', async () => {
    const { slack, service } = await rig()
    const connection = connectToService({ url: service.url, apiKey: 'w'.repeat(32) })

    await expect(connection.provider.ask({ questions: [pm] })).rejects.toMatchObject({ name: 'HarnessError', code: 'UNAUTHORIZED' })
    expect(slack.messages(slack.defaultChannel)).toEqual([])
  })

  it('keeps waiting through a service restart and resolves with the answer given afterwards', async () => {
    const slack = await startSandbox()
    cleanups.push(() => slack.close())
    const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-thin-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const state = join(dir, 'state.sqlite')
    const first = await serveOn(slack, { DSH_SLACK_STATE: state })
    const port = new URL(first.url).port
    const warnings: string[] = []
    const connection = connectToService({ url: first.url, apiKey: KEY, logger: { ...silentLogger, warn: (line) => void warnings.push(line) } })
    cleanups.push(() => connection.stop())
    const answer = connection.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, slack.defaultChannel)

    await first.stop()
    await vi.waitFor(() => expect(warnings.join('\n')).toMatch(/cannot reach .*; retrying/), { timeout: 15_000 })
    const second = await serveOn(slack, { DSH_SLACK_STATE: state, PORT: port })
    await vi.waitFor(() => expect((second.bridge.store as SqliteAskStore).watchers.size).toBe(1), { timeout: 15_000 })
    await slack.user(ALICE).click(message, 'npm')

    await expect(answer).resolves.toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
  })

  it('withdraws every open question on stop(), and refuses asks afterwards', async () => {
    const { slack, connection, channel } = await rig()
    const answer = connection.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)

    await connection.stop()

    await expect(answer).rejects.toMatchObject({ code: 'ASK_ABORTED' })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toMatch(/withdrew/)
    await expect(connection.provider.ask({ questions: [pm] })).rejects.toMatchObject({ code: 'ASK_ABORTED' })
  })

  it('refuses a malformed url or key at once, naming the option', () => {
    expect(() => connectToService({ url: 'localhost:3000' })).toThrow(/^url: /)
    expect(() => connectToService({ url: 'http://127.0.0.1:3000', apiKey: 'short' })).toThrow(/^apiKey: /)
  })
})
