import type { SlackBridge } from '../bridge/types.js'
import type { AskUserQuestionRequest, UserInteractionProvider } from '../contract/index.js'
import { knownFieldsOnly } from '../contract/validate-request.js'
import type { Logger } from '../log/logger.js'
import type { CreateBridge } from '../service/bridge-factory.js'
import { loadCreateSlackBridge } from '../service/bridge-factory.js'
import { connectToService } from '../client/connect-to-service.js'
import { bridgeOptionsFromPluginConfig, isServiceConfig, parsePluginConfig, type ServicePluginConfig, type SlackPluginConfig } from './plugin-config.js'

/**
 * The harness's seam service as a plugin sees it (SEAM.md, "Registering in
 * a harness"): `registerProvider` returns a disposer and throws
 * `DUPLICATE_PROVIDER` synchronously when a provider is already registered.
 */
export interface SeamService {
  registerProvider(provider: UserInteractionProvider): () => unknown
}

/**
 * The part of a cordis context the plugin uses, typed structurally so that
 * dsh-slack does not depend on cordis (a harness brings its own).
 */
export interface PluginContext {
  /** Older harnesses. */
  userInteraction?: SeamService
  /** Newer harnesses (the seam renamed, same contract). */
  userQuestions?: SeamService
  on(event: 'dispose', listener: () => unknown): unknown
  /** cordis's logger service, when present. */
  logger?: (name: string) => { info(...args: unknown[]): void; warn(...args: unknown[]): void; error(...args: unknown[]): void; debug(...args: unknown[]): void }
  scope?: { cancel?(reason?: unknown): void }
}

export type { SlackPluginConfig, ServicePluginConfig }

/** A cordis plugin object: `name`, `inject`, `Config`, `apply`. */
export interface SlackPlugin {
  readonly name: 'dsh-slack'
  /** Both seam names, optional: a harness has one or the other (or both). */
  readonly inject: Record<'userInteraction' | 'userQuestions', { required: false }>
  readonly Config: (raw: unknown) => SlackPluginConfig
  apply(ctx: PluginContext, config: SlackPluginConfig): void
}

function seamsOf(ctx: PluginContext): SeamService[] {
  const seams: SeamService[] = []
  if (ctx.userInteraction) seams.push(ctx.userInteraction)
  // A harness that serves both names with one service must not see us twice.
  if (ctx.userQuestions && ctx.userQuestions !== ctx.userInteraction) seams.push(ctx.userQuestions)
  return seams
}

/** Registers with every seam, or with none: a refusal (DUPLICATE_PROVIDER) undoes the ones made. */
function registerWithAll(seams: SeamService[], provider: UserInteractionProvider): (() => unknown)[] {
  const disposers: (() => unknown)[] = []
  try {
    for (const seam of seams) disposers.push(seam.registerProvider(provider))
  } catch (error) {
    for (const dispose of disposers) dispose()
    throw error
  }
  return disposers
}

function loggerOf(ctx: PluginContext): Logger | undefined {
  if (typeof ctx.logger !== 'function') return undefined
  const logger = ctx.logger('dsh-slack')
  return { info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m), debug: (m) => logger.debug(m) }
}

/**
 * Builds the plugin around a bridge factory (tests pass a fake one).
 *
 * `apply` registers the provider before anything connects to Slack, so a
 * second registration fails at once (`DUPLICATE_PROVIDER`, thrown by the
 * harness) without opening a socket; the bridge then starts in the
 * background, and an `ask()` that arrives meanwhile waits for it. Disposing
 * the plugin unregisters the provider and stops the bridge, withdrawing
 * every open question (their `ask()` rejects with `ASK_ABORTED`).
 */
export function createSlackPlugin(createBridge: () => Promise<CreateBridge> = loadCreateSlackBridge): SlackPlugin {
  return {
    name: 'dsh-slack',
    inject: { userInteraction: { required: false }, userQuestions: { required: false } },
    Config: parsePluginConfig,
    apply(ctx, config) {
      const seams = seamsOf(ctx)
      if (seams.length === 0) {
        throw new Error('dsh-slack: this context has no user-interaction seam (ctx.userInteraction or ctx.userQuestions); load the harness’s seam plugin first')
      }
      if (isServiceConfig(config)) {
        applyServiceConfig(ctx, seams, config)
        return
      }
      let resolveBridge!: (bridge: SlackBridge) => void
      let rejectBridge!: (error: unknown) => void
      const ready = new Promise<SlackBridge>((resolve, reject) => ((resolveBridge = resolve), (rejectBridge = reject)))
      ready.catch(() => undefined)
      const provider: UserInteractionProvider = {
        // The harness hands over its own objects and ignores keys it does not
        // know (SEAM.md); so does its plugin, unlike the library's strict ask().
        ask: async (request: AskUserQuestionRequest) => (await ready).provider.ask(knownFieldsOnly(request)),
      }

      const disposers = registerWithAll(seams, provider)

      let disposed = false
      ctx.on('dispose', async () => {
        disposed = true
        for (const dispose of disposers.splice(0)) dispose()
        const bridge = await ready.catch(() => undefined)
        await bridge?.stop({ withdrawOpen: true })
      })

      const logger = loggerOf(ctx)
      const options = { ...bridgeOptionsFromPluginConfig(config), ...(logger ? { logger } : {}) }
      createBridge()
        .then((create) => create(options))
        .then(
          async (bridge) => {
            resolveBridge(bridge)
            // Disposed while starting: the dispose handler stops it once resolved.
            if (disposed) logger?.debug('disposed while starting; stopping the bridge')
          },
          (error: unknown) => {
            rejectBridge(error)
            logger?.error(`could not start: ${error instanceof Error ? error.message : String(error)}`)
            ctx.scope?.cancel?.(error)
          },
        )
    },
  }
}

/**
 * `serviceUrl`: the provider asks through a running service. Nothing
 * connects at start (each ask is a request), so registering is all there
 * is; dispose withdraws the questions still open through it.
 */
function applyServiceConfig(ctx: PluginContext, seams: SeamService[], config: ServicePluginConfig): void {
  const logger = loggerOf(ctx)
  const connection = connectToService({ url: config.serviceUrl, ...(config.apiKey ? { apiKey: config.apiKey } : {}), ...(config.channel ? { channel: config.channel } : {}), ...(config.timeout !== undefined ? { timeout: config.timeout } : {}), ...(logger ? { logger } : {}) })
  const disposers = registerWithAll(seams, connection.provider)
  ctx.on('dispose', async () => {
    for (const dispose of disposers.splice(0)) dispose()
    await connection.stop()
  })
}

const plugin = createSlackPlugin()

export const name = plugin.name
export const inject = plugin.inject
export const Config = plugin.Config
export const apply = plugin.apply
export default plugin
