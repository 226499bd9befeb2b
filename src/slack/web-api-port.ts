import type { WebClient } from '@slack/web-api'
import { z } from 'zod'
import type { MessageContent, MessageMetadata, SlackPort } from './slack-port.js'
import { callSlack, type SlackCallObserver } from './slack-call-error.js'

const postResult = z.object({ channel: z.string(), ts: z.string() })
const authResult = z.object({ user_id: z.string(), bot_id: z.string().optional(), team_id: z.string().optional(), team: z.string().optional(), user: z.string().optional(), url: z.string().optional() })
const openResult = z.object({ channel: z.object({ id: z.string() }) })
const permalinkResult = z.object({ permalink: z.string().optional() })
const usersResult = z.object({ users: z.array(z.string()).optional() })
const userInfoResult = z.object({ user: z.object({ name: z.string().optional() }).optional() })
const historyResult = z.object({
  messages: z.array(z.object({ ts: z.string(), metadata: z.object({ event_type: z.string(), event_payload: z.record(z.string(), z.unknown()).optional() }).optional() })).optional(),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
})
const membersResult = z.object({ members: z.array(z.string()).optional(), response_metadata: z.object({ next_cursor: z.string().optional() }).optional() })

/** Members asked for per page of conversations.members (Slack's documented maximum is 1000). */
const MEMBERS_PAGE = 1000
/** Pages read at most: 50,000 members; a bigger channel is read in part rather than for minutes. */
const MEMBERS_MAX_PAGES = 50

/** Messages asked for per page of conversations.history (Slack recommends no more than 200). */
const HISTORY_PAGE = 200
/** Pages read at most when looking for a card: 1,000 messages since the ask was made; a busier channel is posted to as if none was found. */
const HISTORY_MAX_PAGES = 5

/** Whether a message's metadata is `wanted`: its event type, and every field of its payload. */
function carries(metadata: { event_type: string; event_payload?: Record<string, unknown> } | undefined, wanted: MessageMetadata): boolean {
  return metadata?.event_type === wanted.eventType && Object.entries(wanted.payload).every(([key, value]) => metadata.event_payload?.[key] === value)
}

/**
 * Block Kit (a message's blocks, a view) and a card's metadata as the JSON text Slack receives.
 * The Web API client form-encodes every request and would stringify it the
 * same way, but first it copies the whole tree and stringifies the copy for a
 * debug line it builds even when debug is off (`redact` in
 * `WebClient.makeRequest`): for a card, about a quarter of its work before fetch. A
 * string passes through both untouched, so the bytes Slack gets are the same
 * and that walk is gone. The client's types want the tree; it never reads it.
 */
function asJsonText<T extends object>(value: T): T {
  return JSON.stringify(value) as unknown as T
}

/** The port over the official Web API client. Responses are parsed, never trusted; `observe` sees every call (metrics). */
export function webApiPort(client: WebClient, observe?: SlackCallObserver): SlackPort {
  const call = <T>(method: string, run: () => Promise<T>) => callSlack(method, run, observe)
  return {
    authTest: () =>
      call('auth.test', async () => {
        const result = authResult.parse(await client.auth.test())
        return { userId: result.user_id, botId: result.bot_id, teamId: result.team_id, team: result.team, user: result.user, url: result.url }
      }),

    postMessage: (channel, content: MessageContent, threadTs, metadata) =>
      call('chat.postMessage', async () => {
        // Agent text may contain @channel or names: never let Slack link them.
        const result = await client.chat.postMessage({
          channel,
          text: content.text,
          blocks: asJsonText(content.blocks),
          link_names: false,
          unfurl_links: false,
          unfurl_media: false,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          // As JSON text too, for the same reason: Slack gets the same form field, and the client copies nothing.
          ...(metadata ? { metadata: asJsonText({ event_type: metadata.eventType, event_payload: metadata.payload }) } : {}),
        })
        return postResult.parse(result)
      }),

    findMessageByMetadata: (channel, metadata, sinceMs) =>
      call('conversations.history', async () => {
        // Slack's ts is seconds; a second before the ask was made, for clocks a little apart.
        const oldest = (Math.floor(sinceMs / 1000) - 1).toFixed(6)
        let cursor: string | undefined
        for (let page = 0; page < HISTORY_MAX_PAGES; page++) {
          const result = historyResult.parse(await client.conversations.history({ channel, oldest, limit: HISTORY_PAGE, include_all_metadata: true, ...(cursor ? { cursor } : {}) }))
          const found = result.messages?.find((message) => carries(message.metadata, metadata))
          if (found) return { channel, ts: found.ts }
          cursor = result.response_metadata?.next_cursor
          if (!cursor) break
        }
        return undefined
      }),

    updateMessage: (channel, ts, content) =>
      call('chat.update', async () => {
        await client.chat.update({ channel, ts, text: content.text, blocks: asJsonText(content.blocks), link_names: false })
      }),

    postEphemeral: (channel, user, text, threadTs) =>
      call('chat.postEphemeral', async () => {
        await client.chat.postEphemeral({ channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) })
      }),

    openView: (triggerId, view) =>
      call('views.open', async () => {
        await client.views.open({ trigger_id: triggerId, view: asJsonText(view) })
      }),

    openDirectMessage: (user) =>
      call('conversations.open', async () => openResult.parse(await client.conversations.open({ users: user })).channel.id),

    permalink: (channel, ts) =>
      call('chat.getPermalink', async () => permalinkResult.parse(await client.chat.getPermalink({ channel, message_ts: ts })).permalink),

    uploadFile: (channel, threadTs, file) =>
      call('files.uploadV2', async () => {
        await client.filesUploadV2({ channel_id: channel, thread_ts: threadTs, filename: file.filename, title: file.title, content: file.content })
      }),

    userGroupMembers: (userGroup) =>
      call('usergroups.users.list', async () => usersResult.parse(await client.usergroups.users.list({ usergroup: userGroup })).users ?? []),

    userName: (user) => call('users.info', async () => userInfoResult.parse(await client.users.info({ user })).user?.name || undefined),

    publishHome: (user, view) =>
      call('views.publish', async () => {
        await client.views.publish({ user_id: user, view: asJsonText(view) })
      }),

    conversationMembers: (channel) =>
      call('conversations.members', async () => {
        const members: string[] = []
        let cursor: string | undefined
        for (let page = 0; page < MEMBERS_MAX_PAGES; page++) {
          const result = membersResult.parse(await client.conversations.members({ channel, limit: MEMBERS_PAGE, ...(cursor ? { cursor } : {}) }))
          members.push(...(result.members ?? []))
          cursor = result.response_metadata?.next_cursor
          if (!cursor) break
        }
        return members
      }),
  }
}
