import { afterEach, describe, expect, it, vi } from 'vitest'
import { TIMING } from '../../src/slack/timing.js'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger, type Logger } from '../../src/log/logger.js'
import { recordingLogger } from '../support/e2e.js'
import { ServiceMetrics } from '../../src/metrics/service-metrics.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { FakeBridge, oneQuestion } from './fake-bridge.js'

const servers: ApiServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** What node-postgres throws when the database refuses the connection. */
function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' })
}

/** A memory store that behaves like a PostgreSQL store whose server went away while `down` is set. */
function outageStore(): { store: AskStore; down: boolean; failWith: () => Error } {
  const state = { down: false, failWith: refused }
  const inner = new MemoryAskStore()
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      if (property === 'ping') return async () => !state.down
      if (property === 'watch') return value.bind(target)
      return async (...args: unknown[]) => {
        if (state.down) throw state.failWith()
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return Object.assign(state, { store })
}

async function start(logger: Logger = silentLogger) {
  const outage = outageStore()
  const bridge = new FakeBridge(outage.store)
  const metrics = new ServiceMetrics()
  metrics.attach({ openAsks: async () => (await outage.store.listPending()).length, postsWaiting: () => new Map(), storeUp: () => outage.store.ping() })
  const server = createApiServer({ bridge, logger, metrics })
  servers.push(server)
  const { url } = await server.listen('127.0.0.1', 0)
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
    const text = await response.text()
    return { status: response.status, retryAfter: response.headers.get('retry-after'), text }
  }
  return { outage, bridge, call }
}

describe('the state store unreachable', () => {
  it('answers 503 STATE_UNAVAILABLE with Retry-After on every API route, never 500', async () => {
    const { outage, bridge, call } = await start()
    const open = await bridge.open(oneQuestion)
    outage.down = true

    const responses = await Promise.all([
      call('POST', '/v1/asks', oneQuestion),
      call('GET', `/v1/asks/${open.id}`),
      call('GET', `/v1/asks/${open.id}?wait=5`),
      call('DELETE', `/v1/asks/${open.id}`),
      call('GET', '/v1/asks'),
      call('GET', `/v1/asks/${open.id}/events`),
    ])

    for (const response of responses) {
      expect(response.status, response.text).toBe(503)
      expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'STATE_UNAVAILABLE', message: expect.stringMatching(/state store.*Retry-After/) } })
      expect(Number(response.retryAfter)).toBeGreaterThan(0)
    }
  })

  it('answers 503 for a failure that does not name the network when the store does not answer a ping', async () => {
    const { outage, bridge, call } = await start()
    const open = await bridge.open(oneQuestion)
    outage.failWith = () => new Error('Query read timeout')
    outage.down = true

    expect((await call('GET', `/v1/asks/${open.id}`)).status).toBe(503)
  })

  it('logs the outage once however many requests it refuses, and once more when the store answers again, for each outage', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const logger = recordingLogger()
    const { outage, call } = await start(logger)

    outage.down = true
    for (let i = 0; i < 20; i++) await call('GET', '/v1/asks')
    const during = [...logger.lines]
    outage.down = false
    await vi.advanceTimersByTimeAsync(TIMING.storeRetryAfterSeconds * 1000)
    outage.down = true
    await call('POST', '/v1/asks', oneQuestion)

    expect(during).toEqual([expect.stringMatching(/^warn GET \/v1\/asks: the memory store is unreachable \(connect ECONNREFUSED .*\); answered 503.*logged once/)])
    expect(logger.lines.slice(1)).toEqual(['info the memory store answers again: 20 requests were answered 503 meanwhile', expect.stringMatching(/^warn POST \/v1\/asks: the memory store is unreachable/)])
    vi.useRealTimers()
  })

  it('still answers 500 for a failure while the store is up', async () => {
    const { outage, call } = await start()
    outage.store.get = async () => {
      throw new Error('a bug')
    }

    const response = await call('GET', '/v1/asks/abc')

    expect(response.status).toBe(500)
    expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'INTERNAL_ERROR' } })
  })

  it('keeps /metrics answering, with the store marked down, and /healthz at 503', async () => {
    const { outage, call } = await start()
    outage.down = true

    const metrics = await call('GET', '/metrics')
    const health = await call('GET', '/healthz')

    expect(metrics.status).toBe(200)
    expect(metrics.text).toMatch(/^dsh_slack_store_up 0$/m)
    expect(health.status).toBe(503)
    expect(JSON.parse(health.text)).toMatchObject({ ok: false, problem: expect.stringMatching(/store does not answer/) })
  })
})
