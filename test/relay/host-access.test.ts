import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHostHttp } from '../../src/relay/host-http.js'
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

function relayTo(host: FakeHost, options: Partial<StartRelayOptions> & { accessSecret?: string } = {}) {
  const bridge = new FakeBridge()
  const logger = recordingLogger()
  const { accessSecret, ...rest } = options
  const relay = startRelay({ bridge, hosts: [accessSecret === undefined ? host.url : { url: host.url, accessSecret }], logger, timing: FAST, ...rest })
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
  it('logs in when the host asks, then sends the cookie on the upgrade and on every response', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const { bridge } = relayTo(host, { accessSecret: SECRET })
    await host.waitForConnections(1)

    const outcome = await answerOne(host, bridge)

    expect(outcome).toMatchObject({ kind: 'answered' })
    expect(host.counters.loginAttempts).toBe(1)
    expect(host.counters.goodLogins).toBe(1)
    // The first upgrade, without a cookie, is how the host asks for the secret.
    expect(host.upgradeHeaders.map((headers) => headers.cookie === undefined)).toEqual([true, false])
    expect(host.upgradeHeaders.at(-1)?.cookie).toMatch(/^dsh_access=[^;]+$/)
  })

  it('never sends a secret to a host that does not ask for one', async () => {
    const host = await hostWith()
    const { bridge } = relayTo(host, { accessSecret: SECRET })
    await host.waitForConnections(1)

    const outcome = await answerOne(host, bridge)

    expect(outcome).toMatchObject({ kind: 'answered' })
    expect(host.counters.loginAttempts).toBe(0)
    expect(host.upgradeHeaders.every((headers) => headers.cookie === undefined)).toBe(true)
  })

  it('relays two hosts with different secrets and one without, each logging in with its own', async () => {
    const first = await hostWith({ accessSecret: SECRET })
    const second = await hostWith({ accessSecret: 'another-secret-of-the-second-host' })
    const open = await hostWith()
    const bridge = new FakeBridge()
    const relay = startRelay({
      bridge,
      hosts: [{ url: first.url, accessSecret: SECRET }, { url: second.url, accessSecret: 'another-secret-of-the-second-host' }, open.url],
      logger: recordingLogger(),
      timing: FAST,
    })
    cleanups.push(() => relay.stop())
    await Promise.all([first, second, open].map((host) => host.waitForConnections(1)))

    const outcomes = await Promise.all([first, second, open].map((host) => answerOne(host, bridge)))

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['answered', 'answered', 'answered'])
    expect([first, second, open].map((host) => [host.counters.goodLogins, host.counters.failedLogins])).toEqual([
      [1, 0],
      [1, 0],
      [0, 0],
    ])
    expect(open.counters.loginAttempts).toBe(0)
  })

  it('takes a 405 at the login as a host without an access gate, not as a failure', async () => {
    const host = await hostWith()
    // One 401 on respond (as from a proxy in front of the host) makes the relay try to log in.
    const real = createHostHttp(5000)
    let unauthorized = 1
    const http = {
      ...real,
      async postJson(url: string, headers: Record<string, string>, body: unknown) {
        if (url.endsWith('/api/respond') && unauthorized-- > 0) return { status: 401, headers: {}, text: '' }
        return real.postJson(url, headers, body)
      },
    }
    const { bridge, logger } = relayTo(host, { accessSecret: SECRET, http })
    await host.waitForConnections(1)

    const outcome = await answerOne(host, bridge)

    expect(outcome).toMatchObject({ kind: 'answered' })
    expect(host.counters.loginAttempts).toBe(1)
    expect(host.counters.failedLogins).toBe(0)
    expect(logger.text('error')).toEqual([])
  })

  it('logs in again when the host no longer takes the cookie on the upgrade', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    relayTo(host, { accessSecret: SECRET })
    await host.waitForConnections(1)

    host.rotateAccessKey()
    await host.restart()
    await host.waitForConnections(1)

    expect(host.counters.loginAttempts).toBe(2)
    expect(host.counters.failedLogins).toBe(0)
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
    expect(host.counters.loginAttempts).toBe(0)
  })
})

describe('host client: a wrong secret', () => {
  it('says so once and waits minutes before the next login, never spending the host\'s login budget', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const scheduler = manualScheduler(0.5)
    const { logger, relay } = relayTo(host, {
      accessSecret: 'wrong-wrong-wrong-wrong',
      scheduler,
      timing: { backoffInitialMs: 100, backoffMaxMs: 400, loginRateWindowMs: 60_000, wrongSecretRetryMs: 600_000 },
    })

    await vi.waitFor(() => expect(scheduler.pending()).toBe(1))

    expect(host.counters.failedLogins).toBe(1)
    expect(scheduler.delays).toEqual([600_000])
    expect(logger.text('error')).toEqual([expect.stringContaining('login failed: wrong secret')])
    expect(relay.status().hosts[0]).toMatchObject({ state: 'waiting', lastError: { code: 'WRONG_SECRET' } })
  })

  it('tries once more after the long wait, and still says it only once', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const scheduler = manualScheduler(0.5)
    const { logger } = relayTo(host, {
      accessSecret: 'wrong-wrong-wrong-wrong',
      scheduler,
      timing: { backoffInitialMs: 100, backoffMaxMs: 400, loginRateWindowMs: 60_000, wrongSecretRetryMs: 600_000 },
    })
    await vi.waitFor(() => expect(scheduler.pending()).toBe(1))

    scheduler.fireNext()
    await vi.waitFor(() => expect(host.counters.failedLogins).toBe(2))
    await vi.waitFor(() => expect(scheduler.pending()).toBe(1))

    expect(scheduler.delays).toEqual([600_000, 600_000])
    expect(logger.text('error')).toHaveLength(1)
  })

  it("waits out the host's login limit after a 429 (another client spent it) instead of spending more attempts", async () => {
    const host = await hostWith({ accessSecret: SECRET })
    for (let attempt = 0; attempt < 5; attempt++) {
      await fetch(`${host.url}/__dsh/access`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret: 'someone-else-typing-wrong' }) })
    }
    const scheduler = manualScheduler(0.5)
    const { logger } = relayTo(host, { accessSecret: SECRET, scheduler, timing: { backoffInitialMs: 100, backoffMaxMs: 400, loginRateWindowMs: 60_000 } })

    await vi.waitFor(() => expect(scheduler.pending()).toBe(1))

    expect(host.counters.loginAttempts).toBe(6)
    expect(scheduler.delays).toEqual([60_000])
    expect(logger.text('warn')).toEqual([expect.stringContaining('login refused: too many failed logins')])
  })

  it('makes one login attempt with real timers and short backoff: no burst', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const { relay } = relayTo(host, { accessSecret: 'wrong-wrong-wrong-wrong', timing: { backoffInitialMs: 20, backoffMaxMs: 40 } })

    await vi.waitFor(() => expect(relay.status().hosts[0]).toMatchObject({ state: 'waiting', lastError: { code: 'WRONG_SECRET' } }))
    await new Promise((resolve) => setTimeout(resolve, 200))

    expect(host.counters.loginAttempts).toBe(1)
  })

  it('connects once the secret is right: the error clears', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const { relay } = relayTo(host, { accessSecret: SECRET })

    await host.waitForConnections(1)

    await vi.waitFor(() => expect(relay.status().hosts[0]).toEqual({ url: host.url, state: 'connected', outbox: 0 }))
  })
})
