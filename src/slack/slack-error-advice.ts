/**
 * What a person should do about a Slack error, in one sentence. Shared by
 * `ask()` failures, the HTTP API's 502s and `dsh-slack doctor`.
 */
export function adviceFor(slackError: string, context: { channel?: string } = {}): string {
  const channel = context.channel ? `channel ${context.channel}` : 'the channel'
  switch (slackError) {
    case 'channel_not_found':
      return `check SLACK_CHANNEL: use the channel's id (C…, from its details in Slack), not its name, and for a private channel invite the app first`
    case 'not_in_channel':
      return `invite the app to ${channel} (/invite @dsh-slack) or add the chat:write.public scope and reinstall the app`
    case 'is_archived':
      return `${channel} is archived: unarchive it or set SLACK_CHANNEL to another channel`
    case 'invalid_auth':
    case 'not_authed':
    case 'token_revoked':
    case 'token_expired':
    case 'account_inactive':
      return 'check SLACK_BOT_TOKEN: copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions, and reinstall the app if it was revoked'
    case 'missing_scope':
      return 'add the missing scope in OAuth & Permissions (manifest.yml lists them all) and reinstall the app'
    case 'user_not_found':
    case 'cannot_dm_bot':
      return 'check the user id (U…) in SLACK_CHANNEL or the request; it must be a person in this workspace'
    case 'ratelimited':
      return 'Slack is rate-limiting the app; retry later, or spread questions over more channels'
    case 'invalid_blocks':
    case 'msg_blocks_too_long':
    case 'invalid_arguments':
      return 'Slack refused the message layout; this is a dsh-slack bug, please report it with the request'
    case 'not_enabled':
      return 'the app\'s Home tab is off: turn on App Home → Home Tab (manifest.yml: features.app_home.home_tab_enabled) and reinstall the app'
    case 'request_failed':
      return 'could not reach Slack: check the network, a proxy, or SLACK_API_URL'
    default:
      if (slackError.startsWith('http_5')) return 'Slack had a server error; retry in a moment'
      return 'see Slack\'s documentation for this error'
  }
}
