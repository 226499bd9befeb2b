/**
 * A person's message in a channel, as Slack tells an app about it: the
 * Events API's `message` event (no subtype; a thread reply carries
 * `thread_ts` and `parent_user_id`), wrapped in an `event_callback`. Slack
 * sends it only to an app subscribed to `message.channels` (public),
 * `message.groups` (private) or `message.im` (DMs) that holds the matching
 * history scope and is in the conversation; the stand-in's app is
 * subscribed to all three, so the scope and the membership decide.
 */
import type { SandboxCore } from './core.js'
import type { SandboxChannel, StoredMessage } from './model.js'
import { eventCallback } from './payloads.js'

type Obj = Record<string, unknown>

/** The history scope Slack needs before it sends the app a conversation's messages. */
export function historyScopeFor(channel: SandboxChannel): 'channels:history' | 'groups:history' | 'im:history' {
  if (channel.isIm) return 'im:history'
  return channel.isPrivate ? 'groups:history' : 'channels:history'
}

/** `channel_type` of a message event. */
function channelType(channel: SandboxChannel): 'channel' | 'group' | 'im' {
  if (channel.isIm) return 'im'
  return channel.isPrivate ? 'group' : 'channel'
}

/** Whether Slack would send the app this message: the history scope, a member bot, not the bot's own message. */
export function appHearsMessage(core: SandboxCore, channel: SandboxChannel, message: StoredMessage): boolean {
  return core.scopes.has(historyScopeFor(channel)) && channel.botIsMember && message.bot_id === undefined
}

/** Slack escapes these three in a message's `text` (and nothing else). */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * The callback for a person's message: `text` escaped as Slack escapes it,
 * the typed text also as a `rich_text` block, as Slack's clients send it,
 * and for a reply the parent's author.
 */
export function messageEventCallback(core: SandboxCore, channel: SandboxChannel, message: StoredMessage, parent: StoredMessage | undefined): Obj {
  const event: Obj = {
    type: 'message',
    channel: channel.id,
    user: message.user,
    text: escapeText(message.text),
    ts: message.ts,
    event_ts: message.ts,
    channel_type: channelType(channel),
    team: message.team,
    client_msg_id: core.workspace.ids.opaque(),
    blocks: [{ type: 'rich_text', block_id: core.workspace.ids.opaque().slice(0, 5), elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: message.text }] }] }],
    ...(message.thread_ts !== undefined ? { thread_ts: message.thread_ts } : {}),
    ...(parent !== undefined && message.thread_ts !== undefined ? { parent_user_id: parent.user } : {}),
  }
  return eventCallback(core, event)
}
