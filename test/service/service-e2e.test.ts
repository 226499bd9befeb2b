import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { configFromEnv } from '../../src/config/config.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import type { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { recordingLogger } from '../support/e2e.js'
import { sandboxEnv } from '../support/sandbox-env.js'

const ALICE = 'U0SANDBOX01'
const question = { questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }] }
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

/** The real service (real bridge, real Bolt) on a stand-in the test holds, so the test can click. */
async function serviceOnSandbox(env: Record<string, string> = {}): Promise<{ slack: Sandbox; service: RunningService; logger: ReturnType<typeof recordingLogger> }> {
  const slack = await startSandbox()
  cleanups.push(() => slack.close())
  const config = configFromEnv({
    ...sandboxEnv(slack),
    DSH_SLACK_STATE: ':memory:',
    PORT: '0',
    ...env,
  })
  const logger = recordingLogger()
  const service = await startService(config, await serviceDeps(), logger)
  cleanups.push(() => service.stop())
  return { slack, service, logger }
}

async function api(service: RunningService, method: string, path: string, body?: unknown) {
  const response = await fetch(service.url + path, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe('the service on the local stand-in (real bridge)', () => {
  it('posts an ask, and a long-poll returns the answer a person taps in Slack', async () => {
    const { slack, service } = await serviceOnSandbox()

    const created = await api(service, 'POST', '/v1/asks', question)
    const polling = api(service, 'GET', `/v1/asks/${created.body.id}?wait=30`)
    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel))
    await slack.user(ALICE).click(message, 'pnpm (Recommended)')

    expect(created).toMatchObject({ status: 201, body: { status: 'pending', channel: slack.defaultChannel, ts: message.ts } })
    expect((await polling).body).toEqual({
      id: created.body.id,
      status: 'answered',
      answer: { answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] },
      answeredBy: { id: ALICE, name: expect.any(String) },
    })
  })

  it('includes a permalink to the message when Slack gives one', async () => {
    const { service } = await serviceOnSandbox()

    const created = await api(service, 'POST', '/v1/asks', question)

    expect(created.body.permalink).toEqual(expect.stringMatching(/^https?:\/\//))
  })

  it('withdraws an ask on DELETE: the message loses its buttons', async () => {
    const { slack, service } = await serviceOnSandbox()
    const created = await api(service, 'POST', '/v1/asks', question)

    const deleted = await api(service, 'DELETE', `/v1/asks/${created.body.id}`)

    expect(deleted.body).toEqual({ id: created.body.id, status: 'aborted' })
    const updated = await slack.waitFor(() => {
      const latest = slack.latestMessage(slack.defaultChannel)
      return latest && !JSON.stringify(latest.blocks).includes('"type":"button"') ? latest : undefined
    })
    expect(updated.ts).toBe(created.body.ts)
  })

  it('answers 502 with SLACK_API_ERROR naming Slack’s error when Slack refuses the post', async () => {
    const { slack, service } = await serviceOnSandbox()
    slack.faults.inject('chat.postMessage', { error: 'channel_not_found' })

    const created = await api(service, 'POST', '/v1/asks', question)

    expect(created.status).toBe(502)
    expect(created.body.error).toEqual({ code: 'SLACK_API_ERROR', message: expect.stringContaining('channel_not_found') })
  })

  it('keeps the ask open and leaves no watcher when a long-polling client hangs up', async () => {
    const { service } = await serviceOnSandbox()
    const created = await api(service, 'POST', '/v1/asks', question)
    const store = service.bridge.store as SqliteAskStore

    const req = httpRequest(`${service.url}/v1/asks/${created.body.id}?wait=60`)
    req.on('error', () => undefined)
    req.end()
    await vi.waitFor(() => expect(store.watchers.size).toBe(1))
    req.destroy()

    await vi.waitFor(() => expect(store.watchers.size).toBe(0))
    expect((await api(service, 'GET', `/v1/asks/${created.body.id}`)).body.status).toBe('pending')
  })

  it('logs the posting and the answer once each, with no token in any line', async () => {
    const { slack, service, logger } = await serviceOnSandbox()
    const created = await api(service, 'POST', '/v1/asks', question)
    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel))

    await slack.user(ALICE).click(message, 'npm')
    await api(service, 'GET', `/v1/asks/${created.body.id}?wait=30`)

    const lines = logger.lines.filter((line) => line.includes(`ask ${created.body.id}`))
    expect(lines).toEqual([expect.stringMatching(/^info ask \S+ posted to C0SANDBOX01/), expect.stringMatching(/^info ask \S+ answered by /)])
    expect(logger.lines.join('\n')).not.toMatch(/xox[bp]-|xapp-/)
  })

  it('counts a real ask in /metrics: the Web API calls it took, its answer and time to answer, and no open ask left', async () => {
    const { slack, service } = await serviceOnSandbox()
    const created = await api(service, 'POST', '/v1/asks', question)
    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel))
    await slack.user(ALICE).click(message, 'npm')
    await api(service, 'GET', `/v1/asks/${created.body.id}?wait=30`)

    const text = await (await fetch(`${service.url}/metrics`)).text()

    expect(text).toMatch(/^dsh_slack_slack_api_calls_total\{method="chat.postMessage"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_slack_api_calls_total\{method="chat.update"\} [1-9]/m)
    expect(text).toMatch(/^dsh_slack_asks_settled_total\{status="answered"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_time_to_answer_seconds_count 1$/m)
    expect(text).toMatch(/^dsh_slack_asks_open 0$/m)
    expect(text).not.toMatch(/Which package manager|U0SANDBOX01/)
  })

  it('counts Slack’s refusals and 429s by method in /metrics', async () => {
    const { slack, service } = await serviceOnSandbox()
    slack.faults.inject('chat.postMessage', { error: 'channel_not_found' })
    await api(service, 'POST', '/v1/asks', question)
    slack.faults.inject('chat.postMessage', { status: 429, retryAfter: 1 })
    const created = await api(service, 'POST', '/v1/asks', question)

    const text = await (await fetch(`${service.url}/metrics`)).text()

    expect(created.status).toBe(201)
    expect(text).toMatch(/^dsh_slack_slack_api_errors_total\{method="chat.postMessage",error="channel_not_found"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_slack_rate_limited_total\{method="chat.postMessage"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_asks_settled_total\{status="failed"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_asks_open 1$/m)
  })

  it('reports its store in /healthz', async () => {
    const { service } = await serviceOnSandbox()

    expect(await api(service, 'GET', '/healthz')).toEqual({ status: 200, body: { ok: true, slack: 'connected', store: 'memory' } })
  })
})
