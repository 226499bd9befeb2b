import type { SlackBridge } from '../bridge/types.js'
import type { Logger } from '../log/logger.js'
import { createHostHttp, type HostHttp } from './host-http.js'
import { HostRelay, type HostRelayStatus } from './host-relay.js'
import { systemScheduler, type Scheduler } from './scheduler.js'
import { RELAY_TIMING, type RelayTiming } from './timing.js'

export interface StartRelayOptions {
  /** The running bridge that shows the requests in Slack; the relay never stops it. */
  bridge: SlackBridge
  /** Harness web host base URLs (`DSH_HOST_URL`, split on commas). */
  hosts: string[]
  /** `DSH_HOST_ACCESS_SECRET`, for hosts started with an access secret. */
  accessSecret?: string
  logger: Logger
  /** Shorter delays for tests. */
  timing?: Partial<RelayTiming>
  /** The clock and timers (tests drive backoff by hand). */
  scheduler?: Scheduler
  /** The HTTP client (tests may count or fail calls); closed by `stop()`. */
  http?: HostHttp
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
  const relays = [...new Set(options.hosts)].map(
    (hostUrl) =>
      new HostRelay({
        bridge: options.bridge,
        hostUrl,
        ...(options.accessSecret !== undefined ? { accessSecret: options.accessSecret } : {}),
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
