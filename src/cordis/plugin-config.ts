import { z } from 'zod'
import type { SlackBridgeOptions } from '../bridge/types.js'
import { ConfigError } from '../config/config-error.js'
import { configFromEnv, valueChecks } from '../config/config.js'
import { bridgeOptionsFromConfig } from '../service/bridge-options.js'
import { silentLogger } from '../log/logger.js'

/**
 * The plugin's configuration: the bridge's options that are plain data (a
 * harness keeps plugin configs in YAML), named and documented as
 * `createSlackBridge` names them. `state` is a path only: a store object is
 * not configuration.
 */
export type BridgePluginConfig = Omit<SlackBridgeOptions, 'state' | 'logger' | 'owner' | 'observeSlackCalls' | 'policy'> & {
  /** SQLite file (default `.dsh-slack/state.sqlite`) or `:memory:`. */
  state?: string
  /** The operator's policy file (as DSH_SLACK_POLICY): the harness's asks follow its rules, and may only tighten them. */
  policy?: string
}

/**
 * The alternative to tokens: ask through a running `dsh-slack serve`
 * (`connectToService`), so a harness needs no Slack token and many agents
 * share one service and its channel.
 */
export interface ServicePluginConfig {
  /** Base URL of the service, e.g. `http://127.0.0.1:3000`. */
  serviceUrl: string
  /** The service's `DSH_SLACK_API_KEY`, when it has one. */
  apiKey?: string
  /** Where this harness's questions go; default: the service's `SLACK_CHANNEL`. */
  channel?: string
  /** Expiry of this harness's questions (ms or text like `30m`); default: the service's. */
  timeout?: number | string
}

export type SlackPluginConfig = BridgePluginConfig | ServicePluginConfig

/** True when the config asks through a service instead of connecting to Slack. */
export function isServiceConfig(config: SlackPluginConfig): config is ServicePluginConfig {
  return typeof (config as { serviceUrl?: unknown }).serviceUrl === 'string'
}

const checked = (variable: string, check: (value: string) => string | null, missing?: string) =>
  z.string({ error: (issue) => (issue.input === undefined && missing ? missing : `${variable} must be a string`) }).superRefine((value, context) => {
    const problem = check(value)
    if (problem) context.addIssue({ code: 'custom', message: problem })
  })

const duration = (name: string) => z.union([z.number().positive(), checked(name, valueChecks.duration)], { error: 'expected ms or a duration like 15m' })

const schema = z.strictObject({
  botToken: checked('botToken', valueChecks.botToken, 'is required (or serviceUrl, to ask through a running dsh-slack serve)'),
  appToken: checked('appToken', valueChecks.appToken).optional(),
  signingSecret: checked('signingSecret', valueChecks.signingSecret).optional(),
  channel: checked('channel', valueChecks.channel).optional(),
  slackApiUrl: checked('slackApiUrl', valueChecks.slackApiUrl).optional(),
  allowedUsers: z.array(checked('allowedUsers', valueChecks.userId)).optional(),
  allowedUserGroups: z.array(checked('allowedUserGroups', valueChecks.userGroupId)).optional(),
  mention: checked('mention', valueChecks.mention).optional(),
  locale: z.enum(['en', 'zh-CN'], { error: 'expected en or zh-CN' }).optional(),
  timeout: z.union([z.number().positive(), checked('timeout', valueChecks.duration)], { error: 'expected ms or a duration like 30m' }).optional(),
  state: z.string().optional(),
  policy: z.string({ error: 'policy must be the path of a policy file' }).optional(),
  listen: z.union([z.literal(false), z.object({ host: z.string().optional(), port: z.number().int().min(0).max(65535) })]).optional(),
  approvals: z.number({ error: 'expected a whole number from 1 to 10' }).int().min(1).max(10).optional(),
  approvers: z.array(checked('approvers', valueChecks.userOrGroup)).optional(),
  remindAfter: duration('remindAfter').optional(),
  escalateTo: checked('escalateTo', valueChecks.userOrGroup).optional(),
  escalateAfter: duration('escalateAfter').optional(),
  // Plan reviews of an agent session in its code channel (docs/code-channels.md); as DSH_SLACK_CODE_CHANNELS.
  codeChannels: z.enum(['auto', 'off'], { error: 'expected auto (the default) or off' }).optional(),
}, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a dsh-slack plugin setting (see docs/harness-plugin.md for the settings)' : undefined) })

const serviceSchema = z.strictObject(
  {
    serviceUrl: checked('serviceUrl', (value) => (/^https?:\/\/[^/]/.test(value) && URL.canParse(value) ? null : 'is not an http(s) URL (expected e.g. http://127.0.0.1:3000)')),
    apiKey: checked('apiKey', valueChecks.apiKey).optional(),
    channel: checked('channel', valueChecks.channel).optional(),
    timeout: z.union([z.number().positive(), checked('timeout', valueChecks.duration)], { error: 'expected ms or a duration like 30m' }).optional(),
  },
  // A token next to serviceUrl means two ways to Slack: refuse it rather than guess.
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'cannot be combined with serviceUrl: the service holds the Slack tokens and settings (keep apiKey, channel, timeout)' : undefined) },
)

function fail(issue: z.core.$ZodIssue | undefined): never {
  const key = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue?.path.join('.') || 'config'
  throw new ConfigError(`dsh-slack plugin config ${key}`, issue?.message ?? 'is malformed')
}

/**
 * cordis calls a plugin's `Config` with the raw configuration and uses what
 * it returns; a throw stops the plugin with that one-line message.
 */
export function parsePluginConfig(raw: unknown): SlackPluginConfig {
  if (typeof raw === 'object' && raw !== null && 'serviceUrl' in raw) {
    const result = serviceSchema.safeParse(raw)
    if (!result.success) fail(result.error.issues[0])
    return result.data as ServicePluginConfig
  }
  const result = schema.safeParse(raw ?? {})
  if (!result.success) fail(result.error.issues[0])
  const config = result.data as BridgePluginConfig
  if (!config.appToken && !config.signingSecret) {
    throw new ConfigError('dsh-slack plugin config appToken', 'is required (Socket Mode), or set signingSecret and listen for HTTP mode')
  }
  return config
}

/** The config as bridge options: the plugin's asks belong to the harness process (owner `library`). */
export function bridgeOptionsFromPluginConfig(config: BridgePluginConfig): SlackBridgeOptions {
  const options: SlackBridgeOptions = { ...config, owner: 'library' }
  return options
}

/**
 * A plugin entry with no `config` (what a bundle install inserts) takes the
 * service's environment variables (SLACK_BOT_TOKEN, SLACK_APP_TOKEN,
 * SLACK_CHANNEL, …; ARCHITECTURE.md), so the same settings serve
 * `dsh-slack serve` and the harness. `.env` is not read: the harness runs
 * in the user's project, whose `.env` is not ours.
 */
export function pluginConfigFromEnv(env: NodeJS.ProcessEnv): SlackPluginConfig {
  // A copy: the environment object itself is not a plain record to a schema.
  const config = configFromEnv({ ...env }, { checkCombination: false })
  if (!config.botToken) {
    throw new ConfigError('SLACK_BOT_TOKEN', 'is not set, and the dsh-slack plugin entry has no config: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (or give the entry a config with botToken and appToken, or serviceUrl)')
  }
  const { logger: _logger, owner: _owner, ...options } = bridgeOptionsFromConfig({ ...config, botToken: config.botToken }, { owner: 'library', logger: silentLogger })
  const policy = env.DSH_SLACK_POLICY?.trim()
  return parsePluginConfig(policy ? { ...options, policy } : options)
}

/** What the harness hands `apply`: a usable config, or the one line saying what is wrong with it. */
export type PluginSettings = { config: SlackPluginConfig; source: 'config' | 'environment'; problem?: undefined } | { problem: string; config?: undefined; source?: undefined }

function settingsOf(raw: unknown, env: NodeJS.ProcessEnv): PluginSettings {
  const empty = raw === undefined || raw === null || (typeof raw === 'object' && Object.keys(raw).length === 0)
  try {
    return empty ? { config: pluginConfigFromEnv(env), source: 'environment' } : { config: parsePluginConfig(raw), source: 'config' }
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * The plugin's `Config` for cordis 4, which validates a plugin's config
 * through Standard Schema (zod 4 implements it). It never fails: a config
 * that cordis refused would fail the whole entry, and the harness refuses
 * to boot with a failed entry, so a typo in dsh-slack's settings would stop
 * `dsh web` or a headless run. The problem travels to `apply` instead,
 * which says it in one line and leaves the plugin off.
 */
export const PluginConfigSchema = z.unknown().transform((raw): PluginSettings => settingsOf(raw, process.env))
