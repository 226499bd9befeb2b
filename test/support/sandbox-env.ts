import type { Sandbox } from '../../src/sandbox/index.js'

/** The environment that points dsh-slack at a stand-in in Socket Mode: its tokens, Web API URL and default channel. */
export function sandboxEnv(slack: Sandbox): Record<string, string> {
  return { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_CHANNEL: slack.defaultChannel }
}
