import type { KnownBlock, View } from '@slack/types'

/** A message as the renderers produce it. */
export interface MessageContent {
  text: string
  blocks: KnownBlock[]
}

/**
 * Message metadata (Slack's `event_type` and `event_payload`): what a card
 * carries so the app can find it again in a channel's history.
 */
export interface MessageMetadata {
  eventType: string
  payload: Record<string, string>
}

/**
 * The Slack calls the bridge makes, and nothing else: handlers and the ask
 * lifecycle depend on this port, so unit tests pass a fake and end-to-end
 * tests pass the real Web API client. Every method rejects with a
 * `SlackCallError`.
 */
export interface SlackPort {
  /** Checks the token; gives the bot's identity and the workspace URL (`https://team.slack.com/`), which permalinks are built on. */
  authTest(): Promise<{ userId: string; botId?: string; teamId?: string; team?: string; user?: string; url?: string }>
  postMessage(channel: string, content: MessageContent, threadTs?: string, metadata?: MessageMetadata): Promise<{ channel: string; ts: string }>
  /**
   * The newest message in a channel's history since `sinceMs` whose metadata
   * is `metadata` (conversations.history with include_all_metadata, a bounded
   * number of pages). Needs the channel kind's history scope; rejects when
   * Slack refuses (missing_scope, not_in_channel).
   */
  findMessageByMetadata(channel: string, metadata: MessageMetadata, sinceMs: number): Promise<{ channel: string; ts: string } | undefined>
  updateMessage(channel: string, ts: string, content: MessageContent): Promise<void>
  postEphemeral(channel: string, user: string, text: string, threadTs?: string): Promise<void>
  openView(triggerId: string, view: View): Promise<void>
  /** Opens (or finds) the DM with a user and returns its channel id. */
  openDirectMessage(user: string): Promise<string>
  permalink(channel: string, ts: string): Promise<string | undefined>
  uploadFile(channel: string, threadTs: string, file: { filename: string; title: string; content: string }): Promise<void>
  userGroupMembers(userGroup: string): Promise<string[]>
  /** Replaces one person's Home tab with `view` (views.publish). */
  publishHome(user: string, view: { type: 'home'; blocks: KnownBlock[] }): Promise<void>
  /** Who is in a conversation (conversations.members, every page): whom the Home tab shows an ask when anyone who sees it may answer. */
  conversationMembers(channel: string): Promise<string[]>
  /**
   * A person's username (users.info `name`), as a click's payload names
   * them: a thread reply's message event carries only the id. Optional, so
   * a port without it leaves the name out, as before.
   */
  userName?(user: string): Promise<string | undefined>
}
