/**
 * The built-in local Slack stand-in, as the service uses it when no
 * SLACK_BOT_TOKEN is set: where its Web API is, its tokens, its channel,
 * and the web page where a person plays Slack.
 */
export interface LocalSlack {
  /** Web API base URL, e.g. http://127.0.0.1:4100/api/. */
  apiUrl: string
  /** The page that shows the channel, when the stand-in serves one. */
  webUrl?: string
  botToken: string
  appToken: string
  /** The channel questions go to by default. */
  channel: string
  /** Where the stand-in keeps its workspace between runs; absent: memory only. */
  workspaceFile?: string
  stop(): Promise<void>
}

/** How to start the stand-in: `LocalSlackOptions` from `standInFiles()` and the config. */
export interface LocalSlackOptions {
  /** Port on 127.0.0.1 (0: any free one). */
  port: number
  /** Keep the workspace in this file; absent: memory only. */
  workspaceFile?: string
  /** Start with an empty workspace, replacing the kept one. */
  fresh?: boolean
}

export type StartLocalSlack = (options: LocalSlackOptions) => Promise<LocalSlack>
