/**
 * The built-in local Slack stand-in, as the service uses it when no
 * SLACK_BOT_TOKEN is set: where its Web API is, its tokens, its channel,
 * and the web page where a person plays Slack.
 */
export interface LocalSlack {
  /** Web API base URL, e.g. http://127.0.0.1:3001/api/. */
  apiUrl: string
  /** The page that shows the channel, when the stand-in serves one. */
  webUrl?: string
  botToken: string
  appToken: string
  /** The channel questions go to by default. */
  channel: string
  stop(): Promise<void>
}

export type StartLocalSlack = () => Promise<LocalSlack>
