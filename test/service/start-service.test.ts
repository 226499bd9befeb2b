import { mkdtempSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SlackBridgeOptions } from '../../src/bridge/types.js'
import { configFromEnv, type Config } from '../../src/config/config.js'
import type { LocalSlack, LocalSlackOptions } from '../../src/service/local-slack.js'
import { startService, type RunningService, type ServiceDeps } from '../../src/service/start-service.js'
import type { Logger } from '../../src/log/logger.js'
import { FakeBridge } from '../http/fake-bridge.js'

/** A state folder that exists, as DSH_SLACK_STATE requires. */
const srv = mkdtempSync(join(tmpdir(), 'dsh-slack-start-service-'))

const running: RunningService[] = []

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  const push = (level: string) => (message: string) => void lines.push(`${level} ${message}`)
  return { lines, info: push('info'), warn: push('warn'), error: push('error'), debug: push('debug') }
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.stop()))
})

function config(env: Record<string, string> = {}): Config {
  return configFromEnv({ PORT: '0', DSH_SLACK_STATE: ':memory:', ...env })
}

const slackEnv = { SLACK_BOT_TOKEN: 'xoxb-real', SLACK_APP_TOKEN: 'xapp-real', SLACK_CHANNEL: 'C0123ABCDEF' }

function fakeDeps() {
  const bridges: FakeBridge[] = []
  const options: SlackBridgeOptions[] = []
  const local = { started: 0, stopped: 0, options: [] as LocalSlackOptions[] }
  const relays: { hosts: string[]; stopped: boolean }[] = []
  const deps: ServiceDeps = {
    createBridge: async (given) => {
      options.push(given)
      const bridge = new FakeBridge()
      bridges.push(bridge)
      return bridge
    },
    startLocalSlack: async (given): Promise<LocalSlack> => {
      local.started += 1
      local.options.push(given)
      return {
        apiUrl: 'http://127.0.0.1:1/api/',
        webUrl: 'http://127.0.0.1:1/',
        botToken: 'xoxb-local',
        appToken: 'xapp-local',
        channel: 'C0LOCAL',
        stop: async () => void (local.stopped += 1),
      }
    },
    startRelay: async ({ config: given }) => {
      const relay = { hosts: given.hostUrls, stopped: false }
      relays.push(relay)
      return { stop: async () => void (relay.stopped = true) }
    },
  }
  return { deps, bridges, options, local, relays }
}

async function start(env: Record<string, string>, deps: ServiceDeps, logger = recordingLogger()) {
  const service = await startService(config(env), deps, logger)
  running.push(service)
  return { service, logger }
}

describe('startService', () => {
  it('connects a service-owned bridge to Slack with the configured settings and mounts nothing itself', async () => {
    const { deps, options, local } = fakeDeps()

    await start({ ...slackEnv, DSH_SLACK_TIMEOUT: '30m' }, deps)

    expect(options[0]).toMatchObject({ botToken: 'xoxb-real', appToken: 'xapp-real', channel: 'C0123ABCDEF', owner: 'service', listen: false, state: ':memory:', timeout: 1_800_000 })
    expect(local.started).toBe(0)
  })

  it('serves the HTTP API and reports Slack as connected', async () => {
    const { deps } = fakeDeps()
    const { service } = await start(slackEnv, deps)

    const health = await (await fetch(`${service.url}/healthz`)).json()

    // No DSH_SLACK_POLICY: no file, so no policy version to report (the defaults from the environment have none).
    expect(health).toEqual({ ok: true, slack: 'connected', store: 'memory' })
  })

  it('without a bot token starts the local stand-in on its port, with its files beside the state, and points the bridge at it', async () => {
    const { deps, options, local } = fakeDeps()

    const { service } = await start({ DSH_SLACK_STATE: join(srv, 'state.sqlite'), DSH_SLACK_SANDBOX_PORT: '4321' }, deps)

    expect(local.options).toEqual([{ port: 4321, workspaceFile: join(srv, 'sandbox-4321.json') }])
    // Its own SQLite file: asks on the stand-in never follow the service to real Slack.
    expect(options[0]?.state).toBe(join(srv, 'sandbox-4321.sqlite'))
    expect(service.statePath).toBe(join(srv, 'sandbox-4321.sqlite'))
    expect(options[0]).toMatchObject({ botToken: 'xoxb-local', appToken: 'xapp-local', slackApiUrl: 'http://127.0.0.1:1/api/', channel: 'C0LOCAL' })
    expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ ok: true, slack: 'local', store: 'memory' })
    expect(service.local?.webUrl).toBe('http://127.0.0.1:1/')
  })

  it('keeps the stand-in and its asks in memory when DSH_SLACK_STATE is :memory:', async () => {
    const { deps, options, local } = fakeDeps()

    await start({ DSH_SLACK_STATE: ':memory:' }, deps)

    expect(local.options).toEqual([{ port: 4100 }])
    expect(options[0]?.state).toBe(':memory:')
  })

  it('stops without withdrawing open asks kept in a file, and stops the stand-in after the bridge', async () => {
    const { deps, bridges, local } = fakeDeps()
    const { service } = await start({ DSH_SLACK_STATE: join(srv, 'state.sqlite') }, deps)

    await service.stop()

    expect(bridges[0]!.stopped).toEqual({ withdrawOpen: false })
    expect(local.stopped).toBe(1)
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow()
  })

  it('withdraws open asks at stop when they are kept in memory, since nobody could answer them after', async () => {
    const { deps, bridges } = fakeDeps()
    const { service } = await start(slackEnv, deps)

    await service.stop()

    expect(bridges[0]!.stopped).toEqual({ withdrawOpen: true })
  })

  it('refuses a non-loopback HOST without an API key before starting anything', async () => {
    const { deps, local, bridges } = fakeDeps()
    const unsafe = { ...config(slackEnv), host: '0.0.0.0' }

    await expect(startService(unsafe, deps, recordingLogger())).rejects.toMatchObject({ name: 'ConfigError', variable: 'DSH_SLACK_API_KEY' })
    expect(local.started).toBe(0)
    expect(bridges).toHaveLength(0)
  })

  it('stops the stand-in again when the bridge cannot start', async () => {
    const { deps, local } = fakeDeps()
    deps.createBridge = async () => {
      throw new Error('auth.test failed')
    }

    await expect(startService(config(), deps, recordingLogger())).rejects.toThrow('auth.test failed')
    expect(local.stopped).toBe(1)
  })

  it('starts the relay when DSH_HOST_URL is set, and stops it first', async () => {
    const { deps, relays } = fakeDeps()
    const { service } = await start({ ...slackEnv, DSH_HOST_URL: 'http://127.0.0.1:4000' }, deps)

    await service.stop()

    expect(relays).toEqual([{ hosts: ['http://127.0.0.1:4000'], stopped: true }])
  })

  it('requires a bridge to listen for nothing in HTTP mode: Slack’s requests come through the API port', async () => {
    const { deps, bridges } = fakeDeps()
    const listener = vi.fn((_req, res) => res.end('ok'))
    const original = deps.createBridge
    deps.createBridge = async (options) => {
      const bridge = (await original(options)) as FakeBridge
      bridge.slackRequestListener = listener
      return bridge
    }
    const { service } = await start({ SLACK_BOT_TOKEN: 'xoxb-real', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef' }, deps)

    await fetch(`${service.url}/slack/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })

    expect(bridges).toHaveLength(1)
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('names PORT when the API port is taken, instead of a bare EADDRINUSE', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    try {
      await expect(start({ PORT: String(port), SLACK_BOT_TOKEN: 'xoxb-test', SLACK_APP_TOKEN: 'xapp-test' }, fakeDeps().deps)).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use (PORT): stop the other process (another dsh-slack serve?), or set PORT to a free port`)
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })

  it('says at start that the stand-in does not use a DSH_SLACK_STATE database, and keeps its asks in its own file', async () => {
    const { deps, options } = fakeDeps()
    const { logger, service } = await start({ DSH_SLACK_STATE: 'postgres://dsh:secret@db.internal:5432/dsh_slack', DSH_SLACK_SANDBOX_PORT: '4200' }, deps)

    expect(options[0]?.state).toBe('.dsh-slack/sandbox-4200.sqlite')
    expect(service.statePath).toBe('.dsh-slack/sandbox-4200.sqlite')
    expect(logger.lines).toContainEqual(expect.stringMatching(/^warn DSH_SLACK_STATE names a database, but without SLACK_BOT_TOKEN .* kept in \.dsh-slack\/sandbox-4200\.sqlite, not in the database/))
    expect(logger.lines.join('\n')).not.toContain('secret')
  })
})
