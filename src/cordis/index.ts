import type { SlackBridge } from '../bridge/types.js'
import { connectToService } from '../client/connect-to-service.js'
import type { AskUserQuestionRequest, UserInteractionProvider } from '../contract/index.js'
import { knownFieldsOnly } from '../contract/validate-request.js'
import type { Logger } from '../log/logger.js'
import { scrubSecrets } from '../log/scrub.js'
import type { CreateBridge } from '../service/bridge-factory.js'
import { loadCreateSlackBridge } from '../service/bridge-factory.js'
import { slackApprovalAnswerer } from './approval-answerer.js'
import type { PluginContext } from './harness-context.js'
import { harnessErrorClassOf, inHarnessTerms } from './harness-errors.js'
import { bridgeOptionsFromPluginConfig, isServiceConfig, PluginConfigSchema, type PluginSettings, type ServicePluginConfig, type SlackPluginConfig } from './plugin-config.js'

export type { PluginContext, PluginSettings, SlackPluginConfig, ServicePluginConfig }

/**
 * `userQuestions` is the seam. `loader` with `await` holds `apply` until
 * every other entry of the profile has loaded: a host with its own question
 * UI (`dsh web`, the terminal) has registered its provider by then, so
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
 * it meets at start (a bad config, Slack unreachable, a native module built
 * for another Node) stops the host: it says what is wrong on stderr, once,
 * and stays off.
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
      const config = settings.config
      const errorClass = harnessErrorClassOf(ctx.userQuestions)

      // The provider is registered before anything connects: a host that
      // already has one refuses at once, and no socket is opened for nothing.
      let ready!: Promise<UserInteractionProvider>
      const provider: UserInteractionProvider = {
        // The harness hands over its own objects and ignores keys it does not
        // know (SEAM.md); so does the plugin, unlike the library's strict ask().
        ask: async (request: AskUserQuestionRequest) => {
          try {
            return await (await ready).ask(knownFieldsOnly(request))
          } catch (error) {
            throw inHarnessTerms(error, await errorClass)
          }
        },
      }
      let unregister: () => void
      try {
        unregister = ctx.userQuestions.registerProvider(provider)
      } catch (error) {
        logger.warn(`off: ${(error as { code?: unknown }).code === 'DUPLICATE_PROVIDER' ? HOST_HAS_ITS_OWN_UI : describe(error)}`)
        return
      }

      let connection: { provider: UserInteractionProvider; stop(): Promise<void> } | undefined
      let bridge: Promise<SlackBridge> | undefined
      if (isServiceConfig(config)) {
        connection = connectToService({ url: config.serviceUrl, logger, ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.channel ? { channel: config.channel } : {}), ...(config.timeout !== undefined ? { timeout: config.timeout } : {}) })
        ready = Promise.resolve(connection.provider)
      } else {
        bridge = createBridge().then((create) => create({ ...bridgeOptionsFromPluginConfig(config), logger }))
        ready = bridge.then((started) => started.provider)
        ready.catch(() => undefined)
      }

      if (bridge) {
        const started = bridge
        ctx.inject(['approval'], (scope) => scope.on('approval/request', slackApprovalAnswerer(() => started, logger)))
        started.then(
          () => logger.info('connected to Slack: questions and tool approvals of this profile are asked there'),
          (error: unknown) => {
            // Off, not half-on: the harness then says NO_PROVIDER to the agent, as with no plugin.
            unregister()
            logger.warn(`off: could not start: ${describe(error)}`)
          },
        )
      }

      // cordis 4 has no `dispose` event: the plugin's lifetime is an effect.
      // Unloading (a headless run ending, Ctrl-C, the entry disabled)
      // withdraws open questions, updates their cards, and closes the
      // socket, so the process can exit.
      ctx.effect(() => async () => {
        unregister()
        await connection?.stop()
        const running = await bridge?.catch(() => undefined)
        await running?.stop({ withdrawOpen: true })
      }, 'dsh-slack: Slack connection')
    },
  }
}

const HOST_HAS_ITS_OWN_UI =
  'this host shows questions in its own UI (dsh web or the terminal), so dsh-slack is not its question provider. To answer this host from Slack, run `dsh-slack relay` with DSH_HOST_URL set to it (docs/host-relay.md), and remove dsh-slack from this profile.'

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

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

const plugin = createSlackPlugin()

export const name = plugin.name
export const inject = plugin.inject
export const Config = plugin.Config
export const apply = plugin.apply
export default plugin
