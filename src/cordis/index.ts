import type { SlackBridge } from '../bridge/types.js'
import { connectToService } from '../client/connect-to-service.js'
import { isUserInteractionError, type AskUserQuestionRequest, type UserInteractionProvider } from '../contract/index.js'
import { knownFieldsOnly } from '../contract/validate-request.js'
import type { Logger } from '../log/logger.js'
import { scrubSecrets } from '../log/scrub.js'
import type { CreateBridge } from '../service/bridge-factory.js'
import { loadCreateSlackBridge } from '../service/bridge-factory.js'
import { slackApprovalAnswerer } from './approval-answerer.js'
import type { PluginContext } from './harness-context.js'
import { harnessErrorClassOf, inHarnessTerms } from './harness-errors.js'
import { describeError, OffSwitch } from './off-switch.js'
import { TIMING } from '../slack/timing.js'
import { unsupportedNode } from '../config/node-range.js'
import { inSettingTerms } from './setting-names.js'
import { bridgeOptionsFromPluginConfig, isServiceConfig, PluginConfigSchema, type PluginSettings, type ServicePluginConfig, type SlackPluginConfig } from './plugin-config.js'

export type { PluginContext, PluginSettings, SlackPluginConfig, ServicePluginConfig }

/**
 * `userQuestions` is the seam. `loader` with `await` holds `apply` until
 * every other entry of the profile has loaded: a host with its own question
 * UI (`dsh web`) has registered its provider by then, so
 * dsh-slack finds the slot taken and steps aside, instead of taking it first
 * and making the host fail to boot with DUPLICATE_PROVIDER.
 */
const INJECT = { userQuestions: null, loader: { await: true } } as const

/** A cordis 4 plugin object, as the harness's loader reads a module. */
export interface SlackPlugin {
  readonly name: 'dsh-slack'
  readonly inject: typeof INJECT
  readonly Config: typeof PluginConfigSchema
  apply(ctx: PluginContext, settings: PluginSettings): void
}

/**
 * The plugin around a bridge factory (unit tests pass a fake one).
 *
 * In a profile with no other question UI (headless runs, custom profiles)
 * dsh-slack is the question provider and the tool-approval answerer. Where
 * the host shows questions itself, it does nothing but say so: the host
 * relay (`dsh-slack relay`) brings that host's questions to Slack. Nothing
 * it meets, at start or later (a bad config, a revoked token, Slack
 * unreachable, the store unavailable, a failing approval), stops the host:
 * it says what is wrong on stderr, once, and stays off (`OffSwitch`).
 */
export function createSlackPlugin(createBridge: () => Promise<CreateBridge> = loadCreateSlackBridge): SlackPlugin {
  return {
    name: 'dsh-slack',
    inject: INJECT,
    Config: PluginConfigSchema,
    apply(ctx, settings) {
      const logger = pluginLogger(ctx)
      if (settings.problem !== undefined) {
        logger.warn(`off: ${settings.problem}`)
        return
      }
      // The harness's own range is ours, but a profile can be run by another Node: off, in one line, before anything fails deeper.
      const wrongNode = unsupportedNode()
      if (wrongNode !== undefined) {
        logger.warn(`off: ${wrongNode}`)
        return
      }
      const config = settings.config
      const errorClass = harnessErrorClassOf(ctx.userQuestions)

      // The provider is registered before anything connects: a host that
      // already has one refuses at once, and no socket is opened for nothing.
      let ready!: Promise<UserInteractionProvider>
      let unregister: () => void = () => undefined
      const off = new OffSwitch(logger.warn, () => unregister())
      const provider: UserInteractionProvider = {
        // The harness hands over its own objects and ignores keys it does not
        // know (SEAM.md); so does the plugin, unlike the library's strict ask().
        ask: async (request: AskUserQuestionRequest) => {
          try {
            return await askOrOff(request)
          } catch (error) {
            throw inHarnessTerms(error, await errorClass)
          }
        },
      }
      const askOrOff = async (request: AskUserQuestionRequest) => {
        if (off.isOff) throw off.noProvider()
        // A failed start has turned the plugin off already (the handler below).
        const started = await ready.catch(() => undefined)
        if (!started || off.isOff) throw off.noProvider()
        const session = request.agent?.id
        if (typeof session === 'string' && session !== '') served.add(session)
        try {
          return await started.ask(knownFieldsOnly(request))
        } catch (error) {
          // The seam's own outcomes (answered, dismissed, expired, one post
          // refused by Slack) are the agent's; anything else is a broken plugin.
          if (isUserInteractionError(error)) throw error
          off.turnOff(`a question failed: ${inSettingTerms(describeError(error), settings.source)}`)
          throw off.noProvider()
        }
      }
      try {
        unregister = ctx.userQuestions.registerProvider(provider)
      } catch (error) {
        logger.warn(`off: ${(error as { code?: unknown }).code === 'DUPLICATE_PROVIDER' ? HOST_HAS_ITS_OWN_UI : describeError(error)}`)
        return
      }

      /** Session ends still talking to Slack: the unload waits for them, or a headless run would exit mid-archive. */
      const ending = new Set<Promise<void>>()
      /** Sessions that asked through this plugin and have not ended yet. */
      const served = new Set<string>()
      const endServed = (id: string) => {
        served.delete(id)
        if (bridge) endSession(bridge, id, off, logger, ending)
      }
      let connection: { provider: UserInteractionProvider; stop(): Promise<void> } | undefined
      let bridge: Promise<SlackBridge> | undefined
      if (isServiceConfig(config)) {
        connection = connectToService({ url: config.serviceUrl, logger, ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.channel ? { channel: config.channel } : {}), ...(config.timeout !== undefined ? { timeout: config.timeout } : {}) })
        ready = Promise.resolve(connection.provider)
      } else {
        // Until it is connected, what Slack's SDK warns about (six retries of an
        // unreachable URL) stays in the harness's log: a failed start is the one "off" line.
        const starting = quietUntilConnected(logger)
        bridge = createBridge().then((create) => create({ ...bridgeOptionsFromPluginConfig(config), logger: starting.logger }))
        ready = bridge.then((started) => started.provider)
        // Handled where it is awaited; unhandled, a failed start would be fatal to the harness.
        ready.catch(() => undefined)
        bridge.then(
          () => {
            starting.connected()
            logger.info('connected to Slack: questions and tool approvals of this profile are asked there')
          },
          // Off, not half-on: the harness then says NO_PROVIDER to the agent, as with no plugin.
          (error: unknown) => off.turnOff(`could not start: ${inSettingTerms(describeError(error), settings.source)}`),
        )
        const started = bridge
        ctx.inject(['approval'], (scope) => scope.on('approval/request', slackApprovalAnswerer(() => started, off, logger)))
        // A session closed while the plugin runs (its owner disposed it).
        ctx.on('session/disposed', (session) => {
          if (typeof session.id === 'string' && served.has(session.id)) endServed(session.id)
        })
      }

      // cordis 4 has no `dispose` event: the plugin's lifetime is an effect.
      // Unloading (a headless run ending, Ctrl-C, the entry disabled)
      // withdraws open questions, updates their cards, and closes the
      // socket, so the process can exit. A failure here is said, not thrown:
      // the run is over, and its exit code is the harness's.
      ctx.effect(() => async () => {
        try {
          unregister()
          await connection?.stop()
          // cordis unloads in reverse order: the harness disposes its sessions after this plugin,
          // so `session/disposed` never reaches it at a run's end. Unloading is the end of the
          // sessions it served (a headless run's one session; decision 0078).
          for (const id of [...served]) endServed(id)
          if (!(await settledWithin(ending, TIMING.sessionEndsAtUnloadMs))) logger.warn(`stopping without waiting longer for Slack to archive the code channels of ${ending.size} ended session(s)`)
          const running = await bridge?.catch(() => undefined)
          await running?.stop({ withdrawOpen: true })
        } catch (error) {
          logger.warn(`could not stop cleanly: ${describeError(error)}`)
        }
      }, 'dsh-slack: Slack connection')
    },
  }
}

/**
 * A session this plugin served ended (the harness disposed it, or the
 * plugin unloads with the run): its code channel, if it has one, is
 * archived with a summary
 * (decision 0078). Said, never thrown: the harness contains listener
 * failures, but a run must not hear of Slack's.
 */
function endSession(bridge: Promise<SlackBridge>, id: string, off: OffSwitch, logger: Logger, ending: Set<Promise<void>>): void {
  if (off.isOff) return
  const end = bridge
    .then((started) => started.sessionEnded?.(id))
    .then(
      (outcome) => {
        if (outcome?.kind === 'archived') logger.info(`session ${id} ended: its code channel ${outcome.channel} is archived`)
      },
      // A bridge that failed to start has said so already (the plugin is off).
      (error: unknown) => void (off.isOff || logger.warn(`session ${id} ended, but its code channel was not archived: ${describeError(error)}`)),
    )
  ending.add(end)
  void end.finally(() => ending.delete(end))
}

/** Whether every promise settled within `ms` (the timer does not hold the process open). */
async function settledWithin(promises: Set<Promise<void>>, ms: number): Promise<boolean> {
  if (promises.size === 0) return true
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)).unref())
  try {
    return await Promise.race([Promise.allSettled([...promises]).then(() => true as const), late])
  } finally {
    clearTimeout(timer)
  }
}

const HOST_HAS_ITS_OWN_UI =
  'this host shows questions in its own UI (dsh web), so dsh-slack is not its question provider. To answer this host from Slack, run `dsh-slack relay` with DSH_HOST_URL set to it (docs/host-relay.md), and remove dsh-slack from this profile.'

/**
 * Info and debug go to the harness's logger. Warnings and errors go to
 * stderr as well, one line each: a headless run prints none of a plugin's
 * log lines, and "why is Slack silent" must never be invisible.
 */
function pluginLogger(ctx: PluginContext): Logger {
  let harness: ReturnType<NonNullable<PluginContext['logger']>> | undefined
  try {
    harness = ctx.logger?.('dsh-slack')
  } catch {
    harness = undefined
  }
  const stderr = (level: string, message: string) => process.stderr.write(`dsh-slack: ${level}${scrubSecrets(message)}\n`)
  return {
    info: (message) => harness?.info('%s', message),
    debug: (message) => harness?.debug('%s', message),
    warn: (message) => stderr('', message),
    error: (message) => stderr('error: ', message),
  }
}

/** A logger whose warnings and errors go to the harness's log only, until `connected()`. */
function quietUntilConnected(logger: Logger): { logger: Logger; connected(): void } {
  let connected = false
  return {
    logger: {
      info: (message) => logger.info(message),
      debug: (message) => logger.debug(message),
      warn: (message) => (connected ? logger.warn : logger.info)(message),
      error: (message) => (connected ? logger.error : logger.info)(message),
    },
    connected: () => {
      connected = true
    },
  }
}

const plugin = createSlackPlugin()

export const name = plugin.name
export const inject = plugin.inject
export const Config = plugin.Config
export const apply = plugin.apply
export default plugin
