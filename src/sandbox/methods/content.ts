/**
 * What chat.postMessage, chat.update and chat.postEphemeral share: finding the
 * channel the bot may post in, and checking the content against Slack's
 * Block Kit rules (blocks/check.ts, the one checker the renderers' tests use too).
 */
import { z } from 'zod'

import { checkMessagePayload } from '../../../blocks/check.js'
import { BAD_JSON } from '../args.js'
import type { SandboxCore } from '../core.js'
import { SlackRefusal } from '../errors.js'
import { fillIds } from '../fill-ids.js'
import type { SandboxChannel, StoredMessage } from '../model.js'

/** Refuses with `invalid_blocks` (Slack's errors and response_metadata.messages) or `msg_blocks_too_long`. */
export function refuseProblems(problems: { code: string; message: string }[]): void {
  const first = problems[0]
  if (!first) return
  if (first.code === 'msg_blocks_too_long') throw new SlackRefusal('msg_blocks_too_long')
  throw new SlackRefusal(first.code, {
    errors: problems.map((p) => p.message.replace(/^\[ERROR\] /, '')),
    response_metadata: { messages: problems.map((p) => p.message) },
  })
}

/**
 * The checked content of a message: `blocks` with Slack's ids filled in.
 * `requireContent`: refuse `no_text` when there is neither text nor blocks.
 */
export function messageContent(core: SandboxCore, text: string | undefined, rawBlocks: unknown, requireContent: boolean): { text: string | undefined; blocks: Record<string, unknown>[] | undefined } {
  if (rawBlocks === BAD_JSON) throw new SlackRefusal('invalid_blocks_format')
  const blocks = rawBlocks === undefined || rawBlocks === '' ? undefined : rawBlocks
  if (requireContent && (text === undefined || text === '') && (blocks === undefined || (Array.isArray(blocks) && blocks.length === 0))) {
    throw new SlackRefusal('no_text')
  }
  if (blocks !== undefined && !Array.isArray(blocks)) throw new SlackRefusal('invalid_blocks_format')
  refuseProblems(checkMessagePayload({ text, blocks }))
  return { text, blocks: blocks === undefined ? undefined : fillIds(blocks as Record<string, unknown>[], core.workspace.ids) }
}

/** Finds a conversation by id (or `#name`), as the bot sees it: private ones it is not in do not exist. */
export function findChannel(core: SandboxCore, idOrName: string | undefined): SandboxChannel {
  if (!idOrName) throw new SlackRefusal('channel_not_found')
  const name = idOrName.replace(/^#/, '')
  const channel = core.workspace.channels.get(idOrName) ?? [...core.workspace.channels.values()].find((c) => !c.isIm && c.name === name)
  if (!channel || (channel.isPrivate && !channel.botIsMember)) throw new SlackRefusal('channel_not_found')
  return channel
}

/**
 * Where the bot may post: a channel it is in, a public one with
 * `chat:write.public`, or a user id (Slack posts to the bot's DM with them).
 */
export function postableChannel(core: SandboxCore, idOrName: string | undefined): SandboxChannel {
  if (idOrName && /^[UW]/.test(idOrName)) {
    if (!core.workspace.users.has(idOrName)) throw new SlackRefusal('channel_not_found')
    return core.workspace.openIm(idOrName).channel
  }
  const channel = findChannel(core, idOrName)
  if (!channel.botIsMember && !core.scopes.has('chat:write.public')) throw new SlackRefusal('not_in_channel')
  // chat.postMessage's documented `is_archived`: an archived (code) channel takes no new messages.
  if (core.codeChannels.isArchived(channel.id)) throw new SlackRefusal('is_archived')
  return channel
}

/**
 * A stored message as Slack returns it (without the stand-in's bookkeeping).
 * Its metadata only where asked for (conversations.history's
 * `include_all_metadata`): what the app relies on must be asked for.
 */
export function publicMessage(message: StoredMessage, options: { withMetadata?: boolean } = {}): Record<string, unknown> {
  const { channel: _channel, history: _history, metadata, ...rest } = message
  return structuredClone({ ...rest, ...(options.withMetadata && metadata ? { metadata } : {}) })
}

/** Slack's message metadata: a snake_case `event_type` and an object `event_payload`; anything else is `invalid_metadata_format`. */
const metadataShape = z.object({ event_type: z.string().regex(/^[a-z0-9_]{1,255}$/), event_payload: z.record(z.string(), z.unknown()) }).strict()

export function messageMetadata(raw: unknown): NonNullable<StoredMessage['metadata']> {
  const parsed = metadataShape.safeParse(raw)
  if (!parsed.success) throw new SlackRefusal('invalid_metadata_format')
  return parsed.data
}
