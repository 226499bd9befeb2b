import type { SlackBridge } from '../bridge/types.js'
import type { Config } from '../config/config.js'
import { checkCombination } from '../config/config.js'
import { createApiServer, type ApiServer } from '../http/api-server.js'
import { ServiceMetrics } from '../metrics/service-metrics.js'
import type { Logger } from '../log/logger.js'
import type { CreateBridge } from './bridge-factory.js'
import { bridgeOptionsFromConfig } from './bridge-options.js'
import { servicePolicy, watchPolicy } from './service-policy.js'
import type { LocalSlack, StartLocalSlack } from './local-slack.js'
import { forgetStandInAsks, standInFiles, standInNote } from './stand-in-files.js'

/** A running relay (DSH_HOST_URL), as the service sees it. */
export interface RunningRelay {
  stop(): Promise<void>
}

export type StartRelay = (options: { bridge: SlackBridge; config: Config; logger: Logger }) => Promise<RunningRelay>

export interface ServiceDeps {
  createBridge: CreateBridge
  /** Used when no SLACK_BOT_TOKEN is set. */
  startLocalSlack: StartLocalSlack
  /** Used when DSH_HOST_URL is set. */
  startRelay?: StartRelay
}

export interface RunningService {
  /** Base URL of the HTTP API, e.g. http://127.0.0.1:3000. */
  url: string
  bridge: SlackBridge
  /** Set when the service runs against the built-in stand-in. */
  local?: LocalSlack
  /** Where the bridge keeps its asks: a SQLite file, or `:memory:` (then open asks are withdrawn at stop). */
  statePath: string
  /** Stops taking requests, stops the bridge (open asks stay open in the store), stops the stand-in. */
  stop(): Promise<void>
}

export interface StartServiceOptions {
  /** Against the stand-in: start with an empty workspace and no asks (`serve --fresh`). */
  fresh?: boolean
}

/**
 * `dsh-slack serve`: one bridge for a whole team behind the HTTP API. With
 * a bot token it talks to Slack; without one it starts the local stand-in
 * and talks to that, so a newcomer can try everything in a browser.
 */
export async function startService(config: Config, deps: ServiceDeps, logger: Logger, options: StartServiceOptions = {}): Promise<RunningService> {
  checkCombination(config)
  const stack: (() => Promise<void>)[] = []
  const unwind = async () => {
    for (const stop of stack.splice(0).reverse()) await stop().catch((error: unknown) => logger.warn(`shutdown: ${(error as Error).message}`))
  }
  try {
    let local: LocalSlack | undefined
    let effective: Config & { botToken: string }
    if (config.botToken) {
      effective = { ...config, botToken: config.botToken }
    } else {
      // The stand-in keeps its workspace and the bridge its asks in files of
      // their own beside DSH_SLACK_STATE, so an open question survives a
      // restart as it would with Slack, and never follows the service to
      // real Slack once a token is set.
      const files = standInFiles(config.statePath, config.sandboxPort)
      const note = standInNote(config.statePath, files)
      if (note) logger.warn(note)
      if (options.fresh) forgetStandInAsks(files)
      local = await deps.startLocalSlack({
        port: config.sandboxPort,
        ...(files.workspaceFile ? { workspaceFile: files.workspaceFile } : {}),
        ...(options.fresh ? { fresh: true } : {}),
      })
      stack.push(() => local!.stop())
      // The stand-in plays Slack in Socket Mode; its tokens replace the unset ones.
      effective = {
        ...config,
        botToken: local.botToken,
        appToken: local.appToken,
        slackApiUrl: local.apiUrl,
        channel: config.channel ?? local.channel,
        statePath: files.statePath,
      }
      delete effective.signingSecret
    }

    // The bridge logs one line per ask event (posted, answered by, withdrawn,
    // expired, dismissed) with this logger, so the service adds none of its own.
    const metrics = new ServiceMetrics()
    const policy = servicePolicy(config, effective.channel, logger)
    if (config.policyPath) {
      const reloader = watchPolicy({ path: config.policyPath, holder: policy, config, logger, onRefused: metrics.policyReloadRefused })
      stack.push(async () => reloader.stop())
      logger.info(`policy ${config.policyPath} in force (version ${policy.current.version}): ${policy.current.rules.length} rule(s), ${policy.current.keys.length} key(s); a change to the file is applied when it only tightens, SIGHUP to this process (kill -HUP ${process.pid}) applies the file whatever it changes`)
    }
    const bridge = await deps.createBridge({ ...bridgeOptionsFromConfig(effective, { owner: 'service', logger }), policy, listen: false, observeSlackCalls: metrics.slackCall, observeRefusedClicks: () => metrics.refused('click') })
    metrics.attach({
      // Counted in the store: reading every pending ask in full blocked the event loop with large plans.
      openAsks: async () => (await bridge.store.countPending()).total,
      postsWaiting: () => bridge.postsWaiting?.() ?? new Map(),
      storeUp: () => bridge.store.ping(),
      stuckCards: () => bridge.stuckCards?.() ?? 0,
      auditEventsWaiting: () => bridge.auditEventsWaiting?.() ?? 0,
    })
    const unwatchSettled = bridge.onSettled((record) => metrics.settled({ status: record.status, createdAt: record.createdAt, settledAt: record.settlement?.outcome.at }))
    stack.push(async () => void unwatchSettled())
    // Asks kept in memory die with the process: withdraw them, so nobody answers a question nobody will read.
    const withdrawOpen = effective.statePath === ':memory:'
    stack.push(() => bridge.stop({ withdrawOpen }))

    const api: ApiServer = createApiServer({
      bridge,
      logger,
      local: local !== undefined,
      ...(config.allowedHosts ? { allowedHosts: config.allowedHosts } : {}),
      metrics,
      onRefused: metrics.refused,
      policy: () => policy.current,
      policyFromFile: config.policyPath !== undefined,
    })
    const { url } = await api.listen(config.host, config.port).catch((error: NodeJS.ErrnoException) => {
      // The bare "listen EADDRINUSE" names no setting; the person needs the variable to change.
      if (error.code !== 'EADDRINUSE') throw error
      throw new Error(`port ${config.port} on ${config.host} is already in use (PORT): stop the other process (another dsh-slack serve?), or set PORT to a free port`, { cause: error })
    })
    stack.push(() => api.close())
    const mode = local ? 'the local Slack stand-in' : effective.appToken ? 'Slack (Socket Mode)' : `Slack (HTTP mode: Slack's requests go to ${url}/slack/events)`
    logger.info(`dsh-slack serving ${url}/v1/asks, connected to ${mode}`)

    if (config.hostUrls.length > 0) {
      if (!deps.startRelay) throw new Error('DSH_HOST_URL is set, but this build has no relay')
      const relay = await deps.startRelay({ bridge, config, logger })
      stack.push(() => relay.stop())
      logger.info(`relaying questions and approvals of ${config.hostUrls.join(', ')}`)
    }

    let stopped: Promise<void> | undefined
    return {
      url,
      bridge,
      ...(local ? { local } : {}),
      statePath: effective.statePath,
      stop: () => (stopped ??= unwind()),
    }
  } catch (error) {
    await unwind()
    throw error
  }
}
