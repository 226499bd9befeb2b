import { afterEach, describe, expect, it, vi } from 'vitest'
import { startRelay, type StartRelayOptions } from '../../src/relay/index.js'
import { startFakeHost, type FakeHost, type FakeHostOptions } from '../support/fake-host.js'
import { FakeBridge } from './support/fake-bridge.js'
import { manualScheduler } from './support/manual-scheduler.js'
import { recordingLogger } from './support/recording-logger.js'
import { FAST } from './support/fixtures.js'

const SECRET = 'correct-horse-battery-staple'

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function hostWith(options: FakeHostOptions = {}): Promise<FakeHost> {
  const host = await startFakeHost(options)
  cleanups.push(() => host.close())
  return host
}

function relayTo(host: FakeHost, options: Partial<StartRelayOptions> = {}) {
  const bridge = new FakeBridge()
  const logger = recordingLogger()
  const relay = startRelay({ bridge, hosts: [host.url], logger, timing: FAST, ...options })
  cleanups.push(() => relay.stop())
  return { bridge, relay, logger }
}

async function answerOne(host: FakeHost, bridge: FakeBridge) {
  const { rpcId, outcome } = host.ask('session-1', [{ id: 'q', question: 'Go?', options: [{ label: 'Yes' }, { label: 'No' }] }])
  const record = await vi.waitFor(async () => (await bridge.askFor(host.url, rpcId)) ?? Promise.reject(new Error('not yet')))
  await bridge.answer(record.id, { answers: [{ id: 'q', selected: ['Yes'] }] })
  return outcome
}

describe('host client: trust', () => {
  it("sends the URL's authority as the Host header and no Origin", async () => {
    const host = await hostWith()

    relayTo(host)
    await host.waitForConnections(1)

    expect(host.upgradeHeaders[0]?.host).toBe(`127.0.0.1:${host.port}`)
    expect(host.upgradeHeaders[0]?.origin).toBeUndefined()
  })

  it('never sends on the socket: the one-way host keeps the same connection through a whole answer', async () => {
    const host = await hostWith()
    const { bridge } = relayTo(host)
    await host.waitForConnections(1)

    await answerOne(host, bridge)

    expect(host.counters.connections).toBe(1)
  })
})

describe('host client: access secret', () => {
  it('logs in first and sends the cookie on the upgrade and on every response', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const { bridge } = relayTo(host, { accessSecret: SECRET })
    await host.waitForConnections(1)

    const outcome = await answerOne(host, bridge)

    expect(outcome).toMatchObject({ kind: 'answered' })
    expect(host.counters.loginAttempts).toBe(1)
    expect(host.upgradeHeaders.at(-1)?.cookie).toMatch(/^dsh_access=[^;]+$/)
  })

  it('logs in again when the host no longer takes the cookie on the upgrade', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    relayTo(host, { accessSecret: SECRET })
    await host.waitForConnections(1)

    host.rotateAccessKey()
    await host.restart()
    await host.waitForConnections(1)

    expect(host.counters.loginAttempts).toBe(2)
    expect(host.counters.refusedUpgrades).toBe(1)
  })

  it('logs in again when a response gets 401, and the answer still arrives', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const { bridge } = relayTo(host, { accessSecret: SECRET })
    await host.waitForConnections(1)

    host.rotateAccessKey()
    const outcome = await answerOne(host, bridge)

    expect(outcome).toMatchObject({ kind: 'answered' })
    expect(host.counters.loginAttempts).toBe(2)
    expect(host.counters.responses).toBe(2)
  })

  it('says the secret is missing when the host needs one and none is set', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const scheduler = manualScheduler()

    const { logger } = relayTo(host, { scheduler })

    await vi.waitFor(() => expect(logger.text('error')).toEqual([expect.stringContaining('set DSH_HOST_ACCESS_SECRET')]))
    expect(host.counters.connections).toBe(0)
  })
})

describe('host client: a wrong secret', () => {
  it('logs one clear error and retries only when its growing backoff delay has passed', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const scheduler = manualScheduler(0.5)
    const { logger } = relayTo(host, {
      accessSecret: 'wrong-wrong-wrong-wrong',
      scheduler,
      timing: { backoffInitialMs: 100, backoffMaxMs: 400, loginRateWindowMs: 60_000 },
    })

    await vi.waitFor(() => expect(scheduler.pending()).toBe(1))
    for (let fired = 1; fired <= 4; fired++) {
      scheduler.fireNext()
      await vi.waitFor(() => expect(host.counters.loginAttempts).toBe(fired + 1))
      await vi.waitFor(() => expect(scheduler.pending()).toBe(1))
    }

    // One login per timer: a retry never comes without a delay before it.
    expect(host.counters.loginAttempts).toBe(5)
    // Equal jitter at random 0.5: three quarters of 100, 200, 400, 400, 400.
    expect(scheduler.delays).toEqual([75, 150, 300, 300, 300])
    expect(logger.text('error')).toEqual([expect.stringContaining('login failed: wrong secret')])
    expect(host.counters.connections).toBe(0)
  })

  it("waits out the host's login limit after a 429 instead of spending more attempts", async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const scheduler = manualScheduler(0.5)
    const { logger } = relayTo(host, {
      accessSecret: 'wrong-wrong-wrong-wrong',
      scheduler,
      timing: { backoffInitialMs: 100, backoffMaxMs: 400, loginRateWindowMs: 60_000 },
    })

    await vi.waitFor(() => expect(scheduler.pending()).toBe(1))
    for (let fired = 1; fired <= 5; fired++) {
      scheduler.fireNext()
      await vi.waitFor(() => expect(host.counters.loginAttempts).toBe(fired + 1))
      await vi.waitFor(() => expect(scheduler.pending()).toBe(1))
    }

    expect(host.counters.failedLogins).toBe(5)
    expect(scheduler.delays.at(-1)).toBe(60_000)
    expect(logger.text('warn')).toEqual([expect.stringContaining('login refused: too many failed logins')])
  })

  it('makes a bounded number of attempts in a window with real timers: no tight loop', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const { relay } = relayTo(host, { accessSecret: 'wrong-wrong-wrong-wrong', timing: { backoffInitialMs: 20, backoffMaxMs: 40 } })

    // Five failures, then the host's 429, then the relay waits out the minute.
    await vi.waitFor(() => expect(host.counters.loginAttempts).toBe(6), { timeout: 5000 })
    await new Promise((resolve) => setTimeout(resolve, 200))

    expect(host.counters.loginAttempts).toBe(6)
    expect(relay.status().hosts[0]).toMatchObject({ state: 'waiting', lastError: { code: 'LOGIN_RATE_LIMITED' } })
  })

  it('connects once the secret is right: the error clears', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const { relay } = relayTo(host, { accessSecret: SECRET })

    await host.waitForConnections(1)

    await vi.waitFor(() => expect(relay.status().hosts[0]).toEqual({ url: host.url, state: 'connected', outbox: 0 }))
  })
})
