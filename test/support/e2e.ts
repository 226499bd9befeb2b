import { afterEach, vi } from 'vitest'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import type { SlackBridge, SlackBridgeOptions } from '../../src/bridge/types.js'
import { silentLogger, type Logger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { SandboxOptions } from '../../src/sandbox/options.js'
import { registerBridgeStore } from './rig-registry.js'

export type Mode = 'socket' | 'http'

export const MODES: Mode[] = ['socket', 'http']

export interface Rig {
  slack: Sandbox
  bridge: SlackBridge
  channel: string
  /** Starts another bridge on the same stand-in (e.g. after a restart). */
  restartBridge(options?: Partial<SlackBridgeOptions>): Promise<SlackBridge>
}

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

/** A logger that remembers lines, for tests that check what was logged. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  const push = (level: string) => (message: string) => void lines.push(`${level} ${message}`)
  return { lines, info: push('info'), warn: push('warn'), error: push('error'), debug: push('debug') }
}

/**
 * The real bridge (real Bolt, real Web API client) on the local stand-in, in
 * Socket Mode or HTTP mode with signed deliveries. Everything is closed after
 * the test.
 */
export async function startRig(mode: Mode, options: Partial<SlackBridgeOptions> = {}, sandboxOptions: SandboxOptions = {}): Promise<Rig> {
  const slack = await startSandbox(sandboxOptions)
  cleanups.push(() => slack.close())
  const start = async (extra: Partial<SlackBridgeOptions> = {}) => {
    const base: SlackBridgeOptions = {
      botToken: slack.botToken,
      slackApiUrl: slack.apiUrl,
      channel: slack.defaultChannel,
      state: ':memory:',
      logger: silentLogger,
      ...(mode === 'socket' ? { appToken: slack.appToken } : { signingSecret: slack.signingSecret, listen: { host: '127.0.0.1', port: 0 } }),
      ...options,
      ...extra,
    }
    const bridge = await createSlackBridge(base)
    cleanups.push(() => bridge.stop())
    registerBridgeStore(slack, bridge.store)
    if (mode === 'http') slack.deliverInteractionsTo({ kind: 'http', url: bridge.slackEventsUrl!, signingSecret: slack.signingSecret })
    return bridge
  }
  const bridge = await start()
  return { slack, bridge, channel: slack.defaultChannel, restartBridge: start }
}

/**
 * Waits until an async check (a store read) gives a value; the stand-in's
 * `waitFor` checks synchronously, on workspace changes.
 */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check()
      if (value === undefined || value === false) throw new Error('not yet')
      return value
    },
    { timeout: timeoutMs, interval: 20 },
  )
}
