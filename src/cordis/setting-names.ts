/**
 * The plugin's messages name each setting the way the person wrote it. A
 * plugin entry with a config has `botToken`, `state`, … in a patch file;
 * the shared code's advice names the service's variables (SLACK_BOT_TOKEN,
 * DSH_SLACK_STATE, …), which are right only for an entry without config
 * (it takes the environment, plugin-config.ts).
 */
import type { PluginSettings } from './plugin-config.js'

/** The service's variable → the plugin config key that sets the same. */
const CONFIG_KEY_OF: Record<string, string> = {
  SLACK_BOT_TOKEN: 'botToken',
  SLACK_APP_TOKEN: 'appToken',
  SLACK_SIGNING_SECRET: 'signingSecret',
  SLACK_CHANNEL: 'channel',
  SLACK_API_URL: 'slackApiUrl',
  DSH_SLACK_STATE: 'state',
  DSH_SLACK_CODE_CHANNELS: 'codeChannels',
  DSH_SLACK_POLICY: 'policy',
}

const VARIABLE = new RegExp(`\\b(${Object.keys(CONFIG_KEY_OF).join('|')})\\b`, 'g')

/** `message` with each variable named as `source` sets it: unchanged for the environment, `botToken in the plugin config` for a config. */
export function inSettingTerms(message: string, source: NonNullable<PluginSettings['source']>): string {
  if (source === 'environment') return message
  return message.replace(VARIABLE, (variable) => `${CONFIG_KEY_OF[variable]!} (in the plugin config)`)
}
