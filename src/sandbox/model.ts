/**
 * What the stand-in's workspace holds, shaped like the objects Slack returns
 * (snake_case fields are Slack's own; camelCase ones are the stand-in's).
 */

/** A person (or the bot) in the workspace. */
export interface SandboxUser {
  id: string
  /** The handle, e.g. `alice`. */
  name: string
  realName: string
  isBot: boolean
}

/** A channel, private channel or DM. */
export interface SandboxChannel {
  id: string
  /** Without `#`; DMs have none. */
  name: string
  isPrivate: boolean
  isIm: boolean
  /** For a DM: the person on the other side. */
  imUser?: string
  /** Whether the bot is a member: posting elsewhere needs `chat:write.public` (public channels only). */
  botIsMember: boolean
  /** Who can see it (and so receive ephemeral messages in it). */
  members: Set<string>
  created: number
}

/** A user group (`S…`) and its members. */
export interface SandboxUserGroup {
  id: string
  handle: string
  users: string[]
}

/** A file uploaded through files.getUploadURLExternal + the upload URL. */
export interface SandboxFile {
  id: string
  name: string
  title: string
  size: number
  /** The declared length at files.getUploadURLExternal. */
  length: number
  bytes?: Buffer
  /** Set once files.completeUploadExternal finished it. */
  completed: boolean
}

/** A message as Slack stores and returns it, plus where it lives. */
export interface StoredMessage {
  type: 'message'
  /** The channel it is in (not part of Slack's message object; stripped in payloads). */
  channel: string
  ts: string
  /** Set on replies (and on a parent once it has replies, as Slack does). */
  thread_ts?: string
  user: string
  bot_id?: string
  app_id?: string
  team: string
  text: string
  blocks?: Record<string, unknown>[]
  files?: Record<string, unknown>[]
  edited?: { user: string; ts: string }
  reply_count?: number
  /** What the app attached for apps (chat.postMessage `metadata`); Slack returns it from conversations.history only with `include_all_metadata`. */
  metadata?: { event_type: string; event_payload: Record<string, unknown> }
  /** Every earlier version of the message, oldest first (chat.update history), for tests. */
  history: { text: string; blocks?: Record<string, unknown>[] }[]
}

/** An ephemeral message: seen by one user only, never stored by Slack for others. */
export interface EphemeralMessage {
  ephemeral: true
  channel: string
  /** Who sees it. */
  user: string
  ts: string
  thread_ts?: string
  text: string
  blocks?: Record<string, unknown>[]
}

/** What every view Slack returns carries, whatever its surface. */
export interface SandboxViewBase {
  id: string
  team_id: string
  blocks: Record<string, unknown>[]
  private_metadata: string
  callback_id: string
  external_id: string
  state: { values: Record<string, Record<string, unknown>> }
  hash: string
  root_view_id: string
  app_id: string
  app_installed_team_id: string
  bot_id: string
}

/** A view as views.open returns it. */
export interface SandboxView extends SandboxViewBase {
  type: 'modal'
  title: Record<string, unknown>
  submit?: Record<string, unknown>
  close?: Record<string, unknown>
  clear_on_close: boolean
  notify_on_close: boolean
  previous_view_id: string | null
}

/**
 * A person's Home tab as views.publish returns it: one per person, replaced
 * whole by each publish (the id stays; the hash changes). Not kept between
 * runs: an app publishes the tab again when the person opens it.
 */
export interface SandboxHomeView extends SandboxViewBase {
  type: 'home'
  previous_view_id: null
}

/** What changed in the workspace: the feed a live page (or a test) follows. */
export type WorkspaceChange =
  | { type: 'message_posted'; message: StoredMessage }
  | { type: 'message_updated'; message: StoredMessage }
  | { type: 'message_deleted'; channel: string; ts: string }
  | { type: 'ephemeral_posted'; message: EphemeralMessage }
  | { type: 'view_opened'; user: string; view: SandboxView }
  | { type: 'view_updated'; user: string; view: SandboxView }
  | { type: 'view_closed'; user: string; viewId: string }
  | { type: 'view_errors'; user: string; viewId: string; errors: Record<string, string> }
  | { type: 'home_published'; user: string; view: SandboxHomeView }
  | { type: 'code_channel_changed'; channel: string }
