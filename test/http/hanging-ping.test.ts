import { afterEach, describe, expect, it } from 'vitest'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import { TIMING } from '../../src/slack/timing.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { FakeBridge } from './fake-bridge.js'

// Issue 39, item 4: a frozen database neither answers nor refuses. A request
// whose failure does not name the network is checked with a ping, and that
// ping must be bounded, or the client (and a load balancer's health check)
// hangs as long as the database does.

const servers: ApiServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** A store whose reads time out the way a driver says it (no network code), and whose ping never answers. */
function frozenStore(): MemoryAskStore {
  const store = new MemoryAskStore()
  store.get = async () => {
    throw new Error('Query read timeout')
  }
  store.ping = () => new Promise<boolean>(() => {})
  return store
}

describe('a request failing while the store is frozen', () => {
  it('answers 503 STATE_UNAVAILABLE within about the ping timeout, though the ping never returns', async () => {
    const server = createApiServer({ bridge: new FakeBridge(frozenStore()), logger: silentLogger })
    servers.push(server)
    const { url } = await server.listen('127.0.0.1', 0)
    const started = Date.now()

    const response = await fetch(`${url}/v1/asks/abc`, { signal: AbortSignal.timeout(TIMING.storePingTimeoutMs + 3_000) })
    const took = Date.now() - started

    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ error: { code: 'STATE_UNAVAILABLE' } })
    expect(took).toBeGreaterThanOrEqual(TIMING.storePingTimeoutMs - 50)
    expect(took).toBeLessThan(TIMING.storePingTimeoutMs + 1_500)
  })
})
