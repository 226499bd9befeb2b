/** conversations.history: a channel's messages, newest first, with the scope and membership Slack requires. */
import { z } from 'zod'

import { TIMING } from '../../slack/timing.js'
import { flag, integer, text } from '../args.js'
import { SlackRefusal } from '../errors.js'
import { historyScopeFor } from '../message-events.js'
import { findChannel, publicMessage } from './content.js'
import { method, perMinute, type MethodTable } from './method.js'

/** Slack's default page, and the most it returns at once (it recommends asking for no more than 200). */
const DEFAULT_LIMIT = 100
const MAX_LIMIT = 999

export const historyMethods: MethodTable = {
  'conversations.history': method({
    token: 'bot',
    args: z.object({
      channel: z.string().optional(),
      oldest: text.optional(),
      latest: text.optional(),
      inclusive: flag.optional(),
      limit: integer.optional(),
      cursor: z.string().optional(),
      include_all_metadata: flag.optional(),
    }),
    // Tier 3.
    rate: () => ({ key: 'conversations.history', rule: perMinute(TIMING.tier3CallsPerMinute) }),
    run(args, core) {
      const channel = findChannel(core, args.channel)
      // Each conversation kind needs its own history scope, and a channel's history is read by its members only.
      const needed = historyScopeFor(channel)
      if (!core.scopes.has(needed)) throw new SlackRefusal('missing_scope', { needed, provided: [...core.scopes].join(',') })
      if (!channel.botIsMember) throw new SlackRefusal('not_in_channel')
      const oldest = Number(args.oldest ?? '0')
      const latest = args.latest === undefined ? Infinity : Number(args.latest)
      const inRange = (ts: number) => (args.inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest)
      // The channel's timeline: top-level messages and thread parents, not replies.
      const timeline = core.workspace
        .messages(channel.id)
        .filter((message) => message.thread_ts === undefined || message.thread_ts === message.ts)
        .filter((message) => inRange(Number(message.ts)))
        .reverse()
      const start = args.cursor ? Number(Buffer.from(args.cursor, 'base64').toString('utf8')) : 0
      if (!Number.isInteger(start) || start < 0) throw new SlackRefusal('invalid_cursor')
      const limit = Math.min(args.limit || DEFAULT_LIMIT, MAX_LIMIT)
      const page = timeline.slice(start, start + limit)
      const hasMore = start + limit < timeline.length
      return {
        messages: page.map((message) => publicMessage(message, { withMetadata: args.include_all_metadata === true })),
        has_more: hasMore,
        response_metadata: { next_cursor: hasMore ? Buffer.from(String(start + limit)).toString('base64') : '' },
      }
    },
  }),
}
