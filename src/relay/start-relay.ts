import type { SlackBridge } from '../bridge/types.js'
import type { Config } from '../config/config.js'
import type { Logger } from '../log/logger.js'
import { createHostHttp, type HostHttp } from './host-http.js'
import { HostRelay, type HostRelayStatus } from './host-relay.js'
import { systemScheduler, type Scheduler } from './scheduler.js'
import { RELAY_TIMING, type RelayTiming } from './timing.js'

export interface StartRelayOptions {
  /** The running bridge that shows the requests in Slack; the relay never stops it. */
  bridge: SlackBridge
  /**
   * Harness web hosts (`DSH_HOST_URL`, split on commas), each with its own
   * access secret when it runs with one (`DSH_HOST_ACCESS_SECRET`).
   */
  hosts: HostTarget[]
  logger: Logger
  /** Shorter delays for tests. */
  timing?: Partial<RelayTiming>
  /** The clock and timers (tests drive backoff by hand). */
  scheduler?: Scheduler
  /** The HTTP client (tests may count or fail calls); closed by `stop()`. */
  http?: HostHttp
}

/** One host to relay: its base URL, or the URL with that host's access secret. */
export type HostTarget = string | { url: string; accessSecret?: string }

/** The hosts of a configuration, each with the secret at its position. */
export function hostTargets(config: Pick<Config, 'hostUrls' | 'hostAccessSecrets'>): HostTarget[] {
  return config.hostUrls.map((url, index) => {
    const accessSecret = config.hostAccessSecrets[index]
    return accessSecret === undefined ? url : { url, accessSecret }
  })
}

export interface RelayStatus {
  hosts: HostRelayStatus[]
}

export interface Relay {
  /** Disconnects from every host and waits for work in flight; open asks stay open in Slack. */
  stop(): Promise<void>
  status(): RelayStatus
}

/**
 * Relays the questions and tool approvals of one or more harness web hosts
 * (shared/DSH-HOST.md) to Slack through `bridge`, and the answers back.
 */
export function startRelay(options: StartRelayOptions): Relay {
  const timing: RelayTiming = { ...RELAY_TIMING, ...options.timing }
  const http = options.http ?? createHostHttp(timing.requestTimeoutMs)
  const targets = new Map<string, string | undefined>()
  for (const target of options.hosts) {
    const { url, accessSecret } = typeof target === 'string' ? { url: target, accessSecret: undefined } : target
    if (!targets.has(url)) targets.set(url, accessSecret)
  }
  // With several hosts a card names its host: the same session id means nothing without it.
  const nameHost = targets.size > 1
  const relays = [...targets].map(
    ([hostUrl, accessSecret]) =>
      new HostRelay({
        nameHost,
        bridge: options.bridge,
        hostUrl,
        ...(accessSecret !== undefined ? { accessSecret } : {}),
        logger: options.logger,
        scheduler: options.scheduler ?? systemScheduler,
        timing,
        http,
      }),
  )
  for (const relay of relays) relay.start()
  let stopping: Promise<void> | undefined
  return {
    stop() {
      stopping ??= (async () => {
        await Promise.all(relays.map((relay) => relay.stop()))
        await http.close()
      })()
      return stopping
    },
    status: () => ({ hosts: relays.map((relay) => relay.status()) }),
  }
}
