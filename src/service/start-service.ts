import type { SlackBridge } from '../bridge/types.js'
import type { Config } from '../config/config.js'
import { checkCombination } from '../config/config.js'
import { createApiServer, type ApiServer } from '../http/api-server.js'
import type { Logger } from '../log/logger.js'
import type { CreateBridge } from './bridge-factory.js'
import { bridgeOptionsFromConfig } from './bridge-options.js'
import type { LocalSlack, StartLocalSlack } from './local-slack.js'

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
  /** Stops taking requests, stops the bridge (open asks stay open in the store), stops the stand-in. */
  stop(): Promise<void>
}

/**
 * `dsh-slack serve`: one bridge for a whole team behind the HTTP API. With
 * a bot token it talks to Slack; without one it starts the local stand-in
 * and talks to that, so a newcomer can try everything in a browser.
 */
export async function startService(config: Config, deps: ServiceDeps, logger: Logger): Promise<RunningService> {
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
      local = await deps.startLocalSlack()
      stack.push(() => local!.stop())
      // The stand-in plays Slack in Socket Mode; its tokens replace the unset ones.
      // Its messages live in its memory only, so asks are kept in memory too:
      // a state file would otherwise carry asks for messages that no longer
      // exist into the next run, against the real Slack once a token is set.
      effective = {
        ...config,
        botToken: local.botToken,
        appToken: local.appToken,
        slackApiUrl: local.apiUrl,
        channel: config.channel ?? local.channel,
        statePath: ':memory:',
      }
      delete effective.signingSecret
    }

    // The bridge logs one line per ask event (posted, answered by, withdrawn,
    // expired, dismissed) with this logger, so the service adds none of its own.
    const bridge = await deps.createBridge({ ...bridgeOptionsFromConfig(effective, { owner: 'service', logger }), listen: false })
    stack.push(() => bridge.stop())

    const api: ApiServer = createApiServer({
      bridge,
      logger,
      local: local !== undefined,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    })
    const { url } = await api.listen(config.host, config.port)
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
      stop: () => (stopped ??= unwind()),
    }
  } catch (error) {
    await unwind()
    throw error
  }
}
