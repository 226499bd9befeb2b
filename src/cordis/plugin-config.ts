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
export type SlackPluginConfig = Omit<SlackBridgeOptions, 'state' | 'logger' | 'owner'> & {
  /** SQLite file (default `.dsh-slack/state.sqlite`) or `:memory:`. */
  state?: string
}

const checked = (variable: string, check: (value: string) => string | null) =>
  z.string({ error: `${variable} must be a string` }).superRefine((value, context) => {
    const problem = check(value)
    if (problem) context.addIssue({ code: 'custom', message: problem })
  })

const schema = z.object({
  botToken: checked('botToken', valueChecks.botToken),
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
  listen: z.union([z.literal(false), z.object({ host: z.string().optional(), port: z.number().int().min(0).max(65535) })]).optional(),
})

/**
 * cordis calls a plugin's `Config` with the raw configuration and uses what
 * it returns; a throw stops the plugin with that one-line message.
 */
export function parsePluginConfig(raw: unknown): SlackPluginConfig {
  const result = schema.safeParse(raw ?? {})
  if (!result.success) {
    const issue = result.error.issues[0]
    const key = issue?.path.join('.') || 'config'
    throw new ConfigError(`dsh-slack plugin config ${key}`, issue?.message ?? 'is malformed')
  }
  const config = result.data as SlackPluginConfig
  if (!config.appToken && !config.signingSecret) {
    throw new ConfigError('dsh-slack plugin config appToken', 'is required (Socket Mode), or set signingSecret and listen for HTTP mode')
  }
  return config
}

/** The config as bridge options: the plugin's asks belong to the harness process (owner `library`). */
export function bridgeOptionsFromPluginConfig(config: SlackPluginConfig): SlackBridgeOptions {
  const options: SlackBridgeOptions = { ...config, owner: 'library' }
  return options
}
