/** chat.postMessage, chat.update, chat.postEphemeral, chat.delete, chat.getPermalink. */
import { z } from 'zod'

import { TIMING } from '../../slack/timing.js'
import { json, text } from '../args.js'
import { SlackRefusal } from '../errors.js'
import { findChannel, messageContent, messageMetadata, postableChannel, publicMessage } from './content.js'
import { method, perMinute, type MethodTable } from './method.js'

const content = { text: z.string().optional(), blocks: json.optional(), attachments: json.optional() }

export const chatMethods: MethodTable = {
  'chat.postMessage': method({
    token: 'bot',
    scope: 'chat:write',
    args: z.object({ channel: z.string().optional(), ...content, thread_ts: text.optional(), metadata: json.optional() }),
    // Per channel and workspace-wide: Slack keeps both for chat.postMessage.
    rate: (args, core) => [
      { key: `post:${args.channel ?? ''}`, rule: core.postRate },
      { key: 'post:*', rule: core.workspacePostRate },
    ],
    run(args, core) {
      const channel = postableChannel(core, args.channel)
      const checked = messageContent(core, args.text, args.blocks, true)
      const metadata = args.metadata === undefined ? undefined : messageMetadata(args.metadata)
      const { app } = core.workspace
      const stored = core.workspace.post({
        channel: channel.id,
        user: app.botUserId,
        bot_id: app.botId,
        app_id: app.appId,
        text: checked.text ?? '',
        ...(checked.blocks ? { blocks: checked.blocks } : {}),
        ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}),
        ...(metadata ? { metadata } : {}),
      })
      return { channel: channel.id, ts: stored.ts, message: publicMessage(stored) }
    },
  }),

  'chat.update': method({
    token: 'bot',
    scope: 'chat:write',
    args: z.object({ channel: z.string().optional(), ts: text.optional(), ...content }),
    rate: (_args, core) => ({ key: 'chat.update', rule: core.updateRate }),
    run(args, core) {
      const channel = findChannel(core, args.channel)
      const message = args.ts ? core.workspace.findMessage(channel.id, args.ts) : undefined
      if (!message) throw new SlackRefusal('message_not_found')
      if (message.user !== core.workspace.app.botUserId) throw new SlackRefusal('cant_update_message')
      const checked = messageContent(core, args.text, args.blocks, args.text === undefined && args.blocks === undefined)
      // Slack keeps the old blocks when `blocks` is left out; an empty array removes them.
      const blocks = checked.blocks ?? (args.blocks === undefined ? message.blocks : undefined)
      const updated = core.workspace.update(message, { text: checked.text ?? message.text, ...(blocks && blocks.length > 0 ? { blocks } : {}) }, core.workspace.app.botUserId)
      return { channel: channel.id, ts: updated.ts, text: updated.text, message: publicMessage(updated) }
    },
  }),

  'chat.postEphemeral': method({
    token: 'bot',
    scope: 'chat:write',
    args: z.object({ channel: z.string().optional(), user: z.string().optional(), ...content, thread_ts: text.optional() }),
    rate: () => ({ key: 'chat.postEphemeral', rule: perMinute(TIMING.tier4CallsPerMinute) }),
    run(args, core) {
      const channel = postableChannel(core, args.channel)
      if (!args.user || !core.workspace.users.has(args.user)) throw new SlackRefusal('user_not_found')
      if (!channel.members.has(args.user)) throw new SlackRefusal('user_not_in_channel')
      const checked = messageContent(core, args.text, args.blocks, true)
      const stored = core.workspace.postEphemeral({
        channel: channel.id,
        user: args.user,
        text: checked.text ?? '',
        ...(checked.blocks ? { blocks: checked.blocks } : {}),
        ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}),
      })
      return { message_ts: stored.ts }
    },
  }),

  'chat.delete': method({
    token: 'bot',
    scope: 'chat:write',
    args: z.object({ channel: z.string().optional(), ts: text.optional() }),
    run(args, core) {
      const channel = findChannel(core, args.channel)
      const message = args.ts ? core.workspace.findMessage(channel.id, args.ts) : undefined
      if (!message) throw new SlackRefusal('message_not_found')
      if (message.user !== core.workspace.app.botUserId) throw new SlackRefusal('cant_delete_message')
      core.workspace.delete(channel.id, message.ts)
      return { channel: channel.id, ts: message.ts }
    },
  }),

  'chat.getPermalink': method({
    token: 'bot',
    args: z.object({ channel: z.string().optional(), message_ts: text.optional() }),
    run(args, core) {
      const channel = findChannel(core, args.channel)
      const message = args.message_ts ? core.workspace.findMessage(channel.id, args.message_ts) : undefined
      if (!message) throw new SlackRefusal('message_not_found')
      const thread = message.thread_ts && message.thread_ts !== message.ts ? `?thread_ts=${message.thread_ts}&cid=${channel.id}` : ''
      return { channel: channel.id, permalink: `${core.origin()}/archives/${channel.id}/p${message.ts.replace('.', '')}${thread}` }
    },
  }),
}
