/**
 * The Slack calls `doctor` makes, as a small port: the real one wraps
 * @slack/web-api (web-api-doctor-port.ts); unit tests pass a fake. Each
 * method resolves with Slack's answer or rejects with a `SlackCallError`.
 */
export interface DoctorSlack {
  /** `auth.test` with the bot token, plus the scopes Slack reported in `x-oauth-scopes` (absent if it sent none). */
  authTest(): Promise<{ team?: string; user?: string; userId?: string; url?: string; scopes?: string[] }>
  /** `conversations.info`. */
  conversationInfo(channel: string): Promise<{ name?: string; isMember: boolean; isPrivate: boolean; isArchived: boolean }>
  /** `conversations.open` of a DM with a user; resolves with the DM's channel id. */
  openDm(user: string): Promise<string>
  /** `apps.connections.open` with the app-level token (Socket Mode). */
  openSocketConnection(): Promise<void>
}
