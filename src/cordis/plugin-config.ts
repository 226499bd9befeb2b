import { z } from 'zod'
import type { SlackBridgeOptions } from '../bridge/types.js'
import { ConfigError } from '../config/config-error.js'
import { valueChecks } from '../config/config.js'

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

const schema = z.object({
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
})

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
