import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { ServiceMetrics } from '../../src/metrics/service-metrics.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { FakeBridge, oneQuestion } from './fake-bridge.js'

const API_KEY = 'k'.repeat(24)
const servers: ApiServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: { apiKey?: string; local?: boolean; bridge?: FakeBridge; onOpened?: (record: AskRecord) => void; metrics?: ServiceMetrics } = {}) {
  const bridge = options.bridge ?? new FakeBridge()
  const server = createApiServer({ bridge, logger: silentLogger, ...options })
  servers.push(server)
  const { url } = await server.listen('127.0.0.1', 0)
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as Record<string, any>) }
  }
  return { bridge, server, url, call }
}

describe('POST /v1/asks', () => {
  it('posts the ask and answers 201 with where the message is', async () => {
    const { call } = await start()

    const response = await call('POST', '/v1/asks', oneQuestion)

    expect(response.status).toBe(201)
    expect(response.body).toEqual({ id: 'ask1', status: 'pending', channel: 'C0DEFAULT', ts: '1700000000.000001', permalink: 'https://slack.test/archives/C0DEFAULT/p1' })
  })

  it('passes the channel, the agent and the timeout on to the bridge', async () => {
    const { bridge, call } = await start()

    await call('POST', '/v1/asks', { ...oneQuestion, channel: 'C0OTHER', agent: { id: 'session-1', title: 'Refactor' }, timeoutMs: 60_000 })

    expect(bridge.opened[0]?.options).toEqual({ channel: 'C0OTHER', timeoutMs: 60_000, onQueued: expect.any(Function) })
    expect(bridge.opened[0]?.request.agent).toEqual({ id: 'session-1', title: 'Refactor' })
  })

  it('refuses an unknown top-level field with 400 BAD_REQUEST naming it and the field it most likely means', async () => {
    const { bridge, call } = await start()

    const response = await call('POST', '/v1/asks', { ...oneQuestion, timeoutMS: 60_000 })

    expect(response.status).toBe(400)
    expect(response.body).toEqual({ error: { code: 'BAD_REQUEST', message: 'unknown field timeoutMS — did you mean timeoutMs?' } })
    expect(bridge.opened).toHaveLength(0)
  })

  it('refuses a misspelt question field, with the question’s index in the path', async () => {
    const { call } = await start()
    const question = { ...oneQuestion.questions[0]!, multiselect: true }

    const response = await call('POST', '/v1/asks', { questions: [question] })

    expect(response.status).toBe(400)
    expect(response.body?.error).toEqual({ code: 'BAD_REQUEST', message: 'unknown field questions[0].multiselect — did you mean multiSelect?' })
  })

  it('refuses an unknown option field and an unknown agent field', async () => {
    const { call } = await start()
    const question = { ...oneQuestion.questions[0]!, options: [{ label: 'npm', descripton: 'x' }] }

    const option = await call('POST', '/v1/asks', { questions: [question] })
    const agent = await call('POST', '/v1/asks', { ...oneQuestion, agent: { id: 'session-1', titel: 'Refactor' } })

    expect(option.body?.error.message).toBe('unknown field questions[0].options[0].descripton — did you mean description?')
    expect(agent.body?.error.message).toBe('unknown field agent.titel — did you mean title?')
  })

  it('answers an empty object with a sentence showing a whole request', async () => {
    const { call } = await start()

    const response = await call('POST', '/v1/asks', {})

    expect(response.status).toBe(400)
    expect(response.body?.error.code).toBe('BAD_REQUEST')
    expect(response.body?.error.message).toBe('the request has no "questions": send at least one, like {"questions": [{"id": "deploy", "question": "Deploy now?", "options": [{"label": "Deploy"}, {"label": "Wait"}]}]}')
  })

  it('refuses an empty batch with the seam’s EMPTY_QUESTIONS', async () => {
    const { call } = await start()

    const response = await call('POST', '/v1/asks', { questions: [] })

    expect(response.status).toBe(400)
    expect(response.body?.error.code).toBe('EMPTY_QUESTIONS')
  })

  it('refuses a plan review whose approve names no option with BAD_INTENT', async () => {
    const { call } = await start()
    const question = { id: 'plan-review', question: 'Approve?', detail: '# Plan', options: [{ label: 'Approve' }], intent: { kind: 'plan-review', approve: 'Yes' } }

    const response = await call('POST', '/v1/asks', { questions: [question] })

    expect(response.status).toBe(400)
    expect(response.body?.error.code).toBe('BAD_INTENT')
  })

  it.each([
    ['a body that is not JSON', '{"questions": ['],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['a channel that is not an id', { ...oneQuestion, channel: '#general' }],
    ['a timeout that is not a number', { ...oneQuestion, timeoutMs: '10m' }],
    ['an agent without an id', { ...oneQuestion, agent: { title: 'x' } }],
    ['a request without questions', { channel: 'C0OTHER' }],
  ])('refuses %s with BAD_REQUEST', async (_, body) => {
    const { call } = await start()

    const response = await call('POST', '/v1/asks', body)

    expect(response.status).toBe(400)
    expect(response.body?.error.code).toBe('BAD_REQUEST')
    expect(response.body?.error.message).toEqual(expect.any(String))
  })

  it('answers 502 with SLACK_API_ERROR when Slack refuses the post', async () => {
    const { bridge, call } = await start()
    bridge.failNextPost = 'channel_not_found'

    const response = await call('POST', '/v1/asks', oneQuestion)

    expect(response.status).toBe(502)
    expect(response.body?.error).toEqual({ code: 'SLACK_API_ERROR', message: expect.stringContaining('channel_not_found') })
  })

  it('refuses a declared body over 1 MiB with 413 without reading it', async () => {
    const { call } = await start()
    const big = JSON.stringify({ questions: [{ id: 'q', question: 'x'.repeat(1024 * 1024) }] })

    const response = await call('POST', '/v1/asks', big)

    expect(response.status).toBe(413)
    expect(response.body?.error.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('refuses a chunked body once it passes 1 MiB', async () => {
    const { url } = await start()

    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      const chunk = Buffer.alloc(64 * 1024, 'x')
      // Writes until the server answers; it must not wait for the end.
      let written = 0
      const pump = () => {
        while (written < 4 * 1024 * 1024 && req.write(chunk)) written += chunk.length
        if (written < 4 * 1024 * 1024) req.once('drain', () => ((written += chunk.length), pump()))
      }
      pump()
    })

    expect(status).toBe(413)
  })

  it('accepts a body of exactly 1 MiB', async () => {
    const { call } = await start()
    const padded = (detail: string) => ({ questions: [{ ...oneQuestion.questions[0]!, detail }] })
    const base = JSON.stringify(padded(''))
    const body = JSON.stringify(padded('x'.repeat(1024 * 1024 - base.length)))

    const response = await call('POST', '/v1/asks', body)

    expect(Buffer.byteLength(body)).toBe(1024 * 1024)
    expect(response.status).toBe(201)
  })

  it('reports each posted ask to onOpened', async () => {
    const opened: AskRecord[] = []
    const { call } = await start({ onOpened: (record) => opened.push(record) })

    await call('POST', '/v1/asks', oneQuestion)

    expect(opened.map((record) => record.id)).toEqual(['ask1'])
  })
})

describe('GET /v1/asks/:id', () => {
  it('answers at once with the pending state when no wait is asked', async () => {
    const { call } = await start()
    await call('POST', '/v1/asks', oneQuestion)

    const response = await call('GET', '/v1/asks/ask1')

    expect(response).toMatchObject({ status: 200, body: { id: 'ask1', status: 'pending' } })
  })

  it('waits for the answer and returns it with who answered', async () => {
    const { bridge, call } = await start()
    await call('POST', '/v1/asks', oneQuestion)

    const polling = call('GET', '/v1/asks/ask1?wait=30')
    await vi.waitFor(() => expect(bridge.store instanceof MemoryAskStore && bridge.store.watchers.size).toBe(1))
    await bridge.answer('ask1', ['pnpm (Recommended)'])
    const response = await polling

    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      id: 'ask1',
      status: 'answered',
      answer: { answers: [{ id: 'q1', selected: ['pnpm (Recommended)'] }] },
      answeredBy: { id: 'U0ALICE', name: 'alice' },
    })
  })

  it('returns the still-pending state when the wait runs out', async () => {
    const { call } = await start()
    await call('POST', '/v1/asks', oneQuestion)

    const response = await call('GET', '/v1/asks/ask1?wait=0.05')

    expect(response.body).toEqual({ id: 'ask1', status: 'pending' })
  })

  it('reports a dismissal as cancelled, with the seam’s code and who dismissed it', async () => {
    const { bridge, call } = await start()
    await call('POST', '/v1/asks', oneQuestion)
    await bridge.dismiss('ask1')

    const response = await call('GET', '/v1/asks/ask1?wait=5')

    expect(response.body).toEqual({ id: 'ask1', status: 'cancelled', answeredBy: { id: 'U0BOB', name: 'bob' }, error: { code: 'ASK_CANCELLED', message: 'dismissed in Slack by bob' } })
  })

  it('answers 404 for an unknown id', async () => {
    const { call } = await start()

    const response = await call('GET', '/v1/asks/nope?wait=5')

    expect(response.status).toBe(404)
    expect(response.body?.error.code).toBe('NOT_FOUND')
  })

  it('refuses a wait that is not a number of seconds', async () => {
    const { call } = await start()
    await call('POST', '/v1/asks', oneQuestion)

    const response = await call('GET', '/v1/asks/ask1?wait=soon')

    expect(response.status).toBe(400)
    expect(response.body?.error.code).toBe('BAD_REQUEST')
  })

  it('leaves the ask open and no watcher behind when the client hangs up mid-wait (only DELETE withdraws)', async () => {
    const store = new MemoryAskStore()
    const { bridge, url, call } = await start({ bridge: new FakeBridge(store) })
    await call('POST', '/v1/asks', oneQuestion)

    const req = httpRequest(`${url}/v1/asks/ask1?wait=60`)
    req.on('error', () => undefined)
    req.end()
    await vi.waitFor(() => expect(store.watchers.size).toBe(1))
    req.destroy()

    await vi.waitFor(() => expect(store.watchers.size).toBe(0))
    expect((await bridge.get('ask1'))?.status).toBe('pending')
  })

  it('answers long-polls in flight with the pending state when the server closes', async () => {
    const store = new MemoryAskStore()
    const { server, call } = await start({ bridge: new FakeBridge(store) })
    await call('POST', '/v1/asks', oneQuestion)

    const polling = call('GET', '/v1/asks/ask1?wait=60')
    await vi.waitFor(() => expect(store.watchers.size).toBe(1))
    await server.close()

    expect((await polling).body).toEqual({ id: 'ask1', status: 'pending' })
  })
})

describe('DELETE /v1/asks/:id', () => {
  it('withdraws a pending ask, and says so again when repeated', async () => {
    const { call } = await start()
    await call('POST', '/v1/asks', oneQuestion)

    const first = await call('DELETE', '/v1/asks/ask1')
    const second = await call('DELETE', '/v1/asks/ask1')

    expect(first).toMatchObject({ status: 200, body: { id: 'ask1', status: 'aborted' } })
    expect(second).toMatchObject({ status: 200, body: { id: 'ask1', status: 'aborted' } })
  })

  it('leaves an answered ask answered', async () => {
    const { bridge, call } = await start()
    await call('POST', '/v1/asks', oneQuestion)
    await bridge.answer('ask1', ['npm'])

    const response = await call('DELETE', '/v1/asks/ask1')

    expect(response.body).toEqual({ id: 'ask1', status: 'answered' })
  })

  it('answers 404 for an unknown id', async () => {
    const { call } = await start()

    expect((await call('DELETE', '/v1/asks/nope')).status).toBe(404)
  })
})

describe('the API key', () => {
  it('refuses /v1 requests without the key with 401 and a Bearer challenge', async () => {
    const { call } = await start({ apiKey: API_KEY })

    const response = await call('POST', '/v1/asks', oneQuestion)

    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(response.body?.error.code).toBe('UNAUTHORIZED')
  })

  it('refuses a wrong key, including one that is a prefix of the right one', async () => {
    const { call } = await start({ apiKey: API_KEY })

    const wrong = await call('GET', '/v1/asks/ask1', undefined, { authorization: 'Bearer wrong-key-wrong-key' })
    const prefix = await call('GET', '/v1/asks/ask1', undefined, { authorization: `Bearer ${API_KEY.slice(0, -1)}` })

    expect(wrong.status).toBe(401)
    expect(prefix.status).toBe(401)
  })

  it('accepts the right key', async () => {
    const { call } = await start({ apiKey: API_KEY })

    const response = await call('POST', '/v1/asks', oneQuestion, { authorization: `Bearer ${API_KEY}` })

    expect(response.status).toBe(201)
  })

  it('does not guard /healthz, so load balancers can probe it', async () => {
    const { call } = await start({ apiKey: API_KEY })

    expect((await call('GET', '/healthz')).status).toBe(200)
  })
})

describe('GET /healthz', () => {
  it('says Slack is connected', async () => {
    const { call } = await start()

    expect(await call('GET', '/healthz')).toMatchObject({ status: 200, body: { ok: true, slack: 'connected', store: 'memory' } })
  })

  it('says local when the bridge talks to the built-in stand-in', async () => {
    const { call } = await start({ local: true })

    expect((await call('GET', '/healthz')).body).toEqual({ ok: true, slack: 'local', store: 'memory' })
  })

  it('answers 503 while Slack is unreachable', async () => {
    const { bridge, call } = await start()
    bridge.healthState = 'disconnected'

    expect(await call('GET', '/healthz')).toMatchObject({ status: 503, body: { ok: false } })
  })

  it('answers 503 naming the store while the store does not answer, and 200 once it does again', async () => {
    const { bridge, call } = await start()
    let up = false
    bridge.store.ping = async () => up

    const down = await call('GET', '/healthz')
    up = true
    const back = await call('GET', '/healthz')

    expect(down).toMatchObject({ status: 503, body: { ok: false, slack: 'connected', store: 'memory', problem: 'the memory store does not answer' } })
    expect(back).toMatchObject({ status: 200, body: { ok: true, store: 'memory' } })
  })
})

describe('GET /metrics', () => {
  it('answers Prometheus text with the ask, Slack call and event-loop metrics', async () => {
    const metrics = new ServiceMetrics()
    const { bridge, call, url } = await start({ metrics })
    metrics.attach({ openAsks: async () => (await bridge.store.listPending()).length, postsWaiting: () => new Map([['C0DEFAULT', 2]]), storeUp: () => bridge.store.ping() })
    await call('POST', '/v1/asks', oneQuestion)
    metrics.slackCall('chat.postMessage', undefined)
    metrics.slackCall('chat.update', 'ratelimited')
    metrics.settled({ status: 'answered', createdAt: 0, settledAt: 4_000 })

    const response = await fetch(`${url}/metrics`)
    const text = await response.text()

    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(text).toMatch(/^dsh_slack_asks_open 1$/m)
    expect(text).toMatch(/^dsh_slack_asks_settled_total\{status="answered"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_time_to_answer_seconds_bucket\{le="5"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_time_to_answer_seconds_bucket\{le="1"\} 0$/m)
    expect(text).toMatch(/^dsh_slack_slack_api_calls_total\{method="chat.update"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_slack_api_errors_total\{method="chat.update",error="ratelimited"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_slack_rate_limited_total\{method="chat.update"\} 1$/m)
    expect(text).toMatch(/^dsh_slack_channel_posts_waiting\{channel="C0DEFAULT"\} 2$/m)
    expect(text).toMatch(/^dsh_slack_store_up 1$/m)
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m)
  })

  it('needs the API key when one is set', async () => {
    const { call, url } = await start({ apiKey: API_KEY, metrics: new ServiceMetrics() })

    expect((await call('GET', '/metrics')).status).toBe(401)
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${API_KEY}` } })).status).toBe(200)
  })

  it('is not a route when the server has no metrics', async () => {
    const { call } = await start()

    expect((await call('GET', '/metrics')).status).toBe(404)
  })
})

describe('draining (SIGTERM)', () => {
  it('refuses new asks with 503 while a POST already being handled finishes with 201', async () => {
    const { bridge, server, call } = await start()
    let release!: () => void
    bridge.postGate = new Promise((resolve) => (release = resolve))
    const first = call('POST', '/v1/asks', oneQuestion)
    await vi.waitFor(() => expect(bridge.opened).toHaveLength(1))

    const drained = server.drain()
    const refused = await call('POST', '/v1/asks', oneQuestion)
    const health = await call('GET', '/healthz')
    release()

    expect(refused).toMatchObject({ status: 503, body: { error: { code: 'UNAVAILABLE' } } })
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(health).toMatchObject({ status: 503, body: { ok: false, problem: expect.stringMatching(/stopping/) } })
    expect((await first).status).toBe(201)
    await drained
    expect(bridge.opened).toHaveLength(1)
  })

  it('keeps answering GET and DELETE while draining', async () => {
    const { server, call } = await start()
    const created = await call('POST', '/v1/asks', oneQuestion)

    await server.drain()

    expect((await call('GET', `/v1/asks/${created.body!.id}`)).status).toBe(200)
    expect((await call('DELETE', `/v1/asks/${created.body!.id}`)).body).toMatchObject({ status: 'aborted' })
  })
})

describe('routing', () => {
  it('answers 404 for an unknown route', async () => {
    const { call } = await start()

    const response = await call('GET', '/v2/asks')

    expect(response.status).toBe(404)
    expect(response.body?.error.code).toBe('NOT_FOUND')
  })

  it('answers 405 with the allowed methods for a wrong method', async () => {
    const { call } = await start()

    const response = await call('PUT', '/v1/asks/ask1')

    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, DELETE')
    expect(response.body?.error.code).toBe('METHOD_NOT_ALLOWED')
  })

  it('hands /slack/events to the bridge’s request listener in HTTP mode', async () => {
    const bridge = new FakeBridge()
    bridge.slackRequestListener = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('bolt')
    const { url } = await start({ bridge })

    const response = await fetch(`${url}/slack/events`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payload=x' })

    expect(await response.text()).toBe('bolt')
  })

  it('answers 404 for /slack/events in Socket Mode', async () => {
    const { call } = await start()

    expect((await call('POST', '/slack/events', {})).status).toBe(404)
  })
})
