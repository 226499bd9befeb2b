import type { SlackBridgeOptions } from '../bridge/types.js'
import type { Config } from '../config/config.js'
import type { Logger } from '../log/logger.js'

/** The bridge's options from a loaded configuration (env variables → library options). */
export function bridgeOptionsFromConfig(config: Config & { botToken: string }, extra: { owner: 'service' | 'library'; logger: Logger }): SlackBridgeOptions {
  const options: SlackBridgeOptions = {
    botToken: config.botToken,
    allowedUsers: config.allowedUsers,
    allowedUserGroups: config.allowedUserGroups,
    locale: config.locale,
    state: config.statePath,
    owner: extra.owner,
    approvals: config.approvals,
    approvers: config.approvers,
    logger: extra.logger,
    codeChannels: config.codeChannels,
  }
  if (config.appToken !== undefined) options.appToken = config.appToken
  if (config.signingSecret !== undefined) options.signingSecret = config.signingSecret
  if (config.channel !== undefined) options.channel = config.channel
  if (config.slackApiUrl !== undefined) options.slackApiUrl = config.slackApiUrl
  if (config.mention !== undefined) options.mention = config.mention
  if (config.defaultTimeoutMs !== undefined) options.timeout = config.defaultTimeoutMs
  if (config.remindAfterMs !== undefined) options.remindAfter = config.remindAfterMs
  if (config.escalateTo !== undefined) options.escalateTo = config.escalateTo
  if (config.escalateAfterMs !== undefined) options.escalateAfter = config.escalateAfterMs
  return options
}
