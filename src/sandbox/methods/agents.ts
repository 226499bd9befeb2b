/**
 * Code channels (`agents.conversations.*`, scope `code_channels:manage`)
 * and the canvas a plan view shows (`canvases.create`, scope
 * `canvases:write`), as @slack/web-api 8.2.0's typings and Slack's method
 * pages describe them; what they leave open is assumed in decision 0073.
 */
import { z } from 'zod'

import { flag, json, text } from '../args.js'
import type { CodeChannelView } from '../code-channels.js'
import type { SandboxCore } from '../core.js'
import { SlackRefusal } from '../errors.js'
import { findChannel } from './content.js'
import { method, type MethodTable } from './method.js'

const SCOPE = 'code_channels:manage'
/** setView's cap on `html` and `diff` content, answered as `content_too_large` (not a schema error). */
export const VIEW_CONTENT_MAX_BYTES = 1_000_000
const CONTEXT_ITEMS_MAX = 5
const ICONS = ['branch', 'folder', 'hierarchy', 'life-ring', 'link', 'globe', 'terminal', 'code', 'search', 'lock'] as const

const contextBarItem = z.object({
  key: z.string().min(1).max(64),
  label: z.string().min(1).max(128),
  icon: z.enum(ICONS).optional(),
  url: z.string().max(2048).optional(),
  item_type: z.enum(['info', 'action']).optional(),
})

const codeChannelProperties = z.object({
  context_bar_items: z.array(contextBarItem).max(CONTEXT_ITEMS_MAX).optional(),
  summary_message: z.object({ message_ts: text, thread_ts: text.optional() }).optional(),
})

const documentContent = z.object({ type: z.literal('markdown'), markdown: z.string() })

function refuseArguments(message: string): never {
  throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: [`[ERROR] ${message}`] } })
}

/** A name Slack would accept for a channel: lower case, no spaces, at most 80 characters, unique. */
function channelName(core: SandboxCore, wanted: string): string {
  const base = `agent-${wanted.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session'}`
  const taken = new Set([...core.workspace.channels.values()].map((c) => c.name))
  let name = base
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`
  return name
}

function viewObject(view: CodeChannelView): Record<string, unknown> {
  return { view_id: view.viewId, view_key: view.viewKey, label: view.label, date_added: view.dateAdded, content_version: view.contentVersion, ...(view.canvasId ? { file_id: view.canvasId } : {}) }
}

export const agentMethods: MethodTable = {
  'canvases.create': method({
    token: 'bot',
    scope: 'canvases:write',
    args: z.object({ title: z.string().optional(), document_content: json.pipe(documentContent).optional(), channel_id: z.string().optional() }),
    run(args, core) {
      const canvas = core.codeChannels.createCanvas(args.title ?? 'Untitled', args.document_content?.markdown ?? '')
      return { canvas_id: canvas.id }
    },
  }),

  'agents.conversations.create': method({
    token: 'bot',
    scope: SCOPE,
    args: z.object({ name: z.string().optional(), session_id: z.string().min(1).optional(), is_private: flag.optional(), origin_channel_id: z.string().optional(), origin_message_ts: text.optional(), team_id: z.string().optional() }),
    run(args, core) {
      const codeChannels = core.codeChannels
      const existing = args.session_id === undefined ? undefined : codeChannels.bySession.get(args.session_id)
      if (existing) return { channel_id: existing }
      if ((args.origin_channel_id === undefined) !== (args.origin_message_ts === undefined)) refuseArguments('origin_channel_id and origin_message_ts must be given together')
      if (!args.origin_channel_id && !args.name) refuseArguments('name is required when no origin link is given')
      let origin: { channel: string; ts: string } | undefined
      let members: string[] | undefined
      let isPrivate = args.is_private ?? false
      if (args.origin_channel_id && args.origin_message_ts) {
        const originChannel = findChannel(core, args.origin_channel_id)
        const message = core.workspace.messages(originChannel.id).find((m) => m.ts === args.origin_message_ts)
        if (!message) throw new SlackRefusal('message_not_found')
        origin = { channel: originChannel.id, ts: message.ts }
        isPrivate = args.is_private ?? originChannel.isPrivate
        // Who could see the origin can see its code channel (assumed: Slack documents only that the origin's author is invited).
        members = [...originChannel.members, message.user]
      }
      const name = channelName(core, args.name ?? core.workspace.messages(origin!.channel).find((m) => m.ts === origin!.ts)!.text.slice(0, 60))
      const channel = core.workspace.createChannel({ name, isPrivate, ...(members ? { members } : {}) })
      codeChannels.channels.set(channel.id, { id: channel.id, ...(args.session_id ? { sessionId: args.session_id } : {}), ...(origin ? { origin } : {}), views: [], contextBar: [], archived: false })
      if (args.session_id) codeChannels.bySession.set(args.session_id, channel.id)
      codeChannels.changed(channel.id)
      return { channel_id: channel.id }
    },
  }),

  'agents.conversations.setView': method({
    token: 'bot',
    scope: SCOPE,
    args: z.object({
      channel_id: z.string(),
      type: z.enum(['html', 'diff', 'block_kit', 'canvas', 'pull_request']).default('html'),
      view_key: z.string().min(1).optional(),
      content: z.string().optional(),
      blocks: json.pipe(z.array(z.record(z.string(), z.unknown()))).optional(),
      canvas_id: z.string().optional(),
      access_level: z.enum(['write', 'comment']).optional(),
      agent_content_hash: z.string().optional(),
      pr_url: z.string().optional(),
      base_branch: z.string().optional(),
      head_branch: z.string().optional(),
      name: z.string().optional(),
      csp: json.optional(),
    }),
    run(args, core) {
      const channel = core.codeChannels.open(args.channel_id)
      const needs: Record<typeof args.type, unknown> = { html: args.content, diff: args.content, block_kit: args.blocks, canvas: args.canvas_id, pull_request: args.pr_url }
      if (needs[args.type] === undefined) refuseArguments(`${args.type === 'canvas' ? 'canvas_id' : args.type === 'block_kit' ? 'blocks' : args.type === 'pull_request' ? 'pr_url' : 'content'} is required for a ${args.type} view`)
      if (args.type !== 'diff' && args.type !== 'pull_request' && !args.view_key) refuseArguments(`view_key is required for a ${args.type} view`)
      if (args.content !== undefined && Buffer.byteLength(args.content, 'utf8') > VIEW_CONTENT_MAX_BYTES) throw new SlackRefusal('content_too_large')
      if (args.type === 'canvas') {
        const canvas = core.codeChannels.canvas(args.canvas_id!)
        if (canvas.channel !== undefined && canvas.channel !== channel.id) throw new SlackRefusal('canvas_not_found')
        canvas.channel = channel.id
      }
      const key = args.type === 'diff' ? 'diff' : (args.view_key ?? args.pr_url!)
      const label = args.name ?? key.split('/').pop()!.replace(/\.html?$/i, '')
      let view = channel.views.find((v) => v.viewKey === key)
      if (!view) {
        view = { viewId: core.workspace.ids.next('Ct'), viewKey: key, type: args.type, label, dateAdded: Math.floor(core.clock.now() / 1000), contentVersion: 0 }
        channel.views.push(view)
      }
      Object.assign(view, { type: args.type, label, contentVersion: view.contentVersion + 1 })
      if (args.type === 'canvas') Object.assign(view, { canvasId: args.canvas_id, accessLevel: args.access_level ?? 'write' })
      core.codeChannels.changed(channel.id)
      return { view_id: view.viewId }
    },
  }),

  'agents.conversations.listViews': method({
    token: 'bot',
    scope: SCOPE,
    args: z.object({ channel_id: z.string() }),
    run(args, core) {
      const channel = core.codeChannels.channels.get(args.channel_id)
      if (!channel) throw new SlackRefusal('channel_not_found')
      return { views: channel.views.map(viewObject) }
    },
  }),

  'agents.conversations.setCanvasContent': method({
    token: 'bot',
    scope: SCOPE,
    args: z.object({ channel: z.string(), canvas_id: z.string(), content: z.string() }),
    run(args, core) {
      const channel = core.codeChannels.open(args.channel)
      const canvas = core.codeChannels.canvas(args.canvas_id)
      if (canvas.channel !== channel.id) throw new SlackRefusal('canvas_not_found')
      core.codeChannels.rewrite(canvas, args.content)
      const view = channel.views.find((v) => v.canvasId === canvas.id)
      if (view) view.contentVersion += 1
      core.codeChannels.changed(channel.id)
      return {}
    },
  }),

  'agents.conversations.getCanvas': method({
    token: 'bot',
    scope: SCOPE,
    args: z.object({ channel: z.string(), canvas_id: z.string(), content_format: z.enum(['markdown']).optional(), include_resolved: flag.optional() }),
    run(args, core) {
      const channel = core.codeChannels.channels.get(args.channel)
      if (!channel) throw new SlackRefusal('channel_not_found')
      const canvas = core.codeChannels.canvas(args.canvas_id)
      if (canvas.channel !== channel.id) throw new SlackRefusal('canvas_not_found')
      const comments = canvas.comments
        .filter((c) => args.include_resolved === true || !c.resolved)
        .map((c) => ({ id: c.id, quoted_text: c.quotedText, text: c.text, user_id: c.userId, ts: c.ts, is_resolved: c.resolved, replies: c.replies, has_more_replies: false }))
      return { canvas_id: canvas.id, title: canvas.title, content: canvas.sections.map((s) => s.markdown).join('\n\n'), comments, has_more_comments: false }
    },
  }),

  'agents.conversations.setProperties': method({
    token: 'bot',
    scope: SCOPE,
    args: z.object({ channel_id: z.string(), code_channel: json.pipe(codeChannelProperties).optional(), agent_resource: json.optional() }),
    run(args, core) {
      const channel = core.codeChannels.open(args.channel_id)
      if (args.code_channel?.context_bar_items) channel.contextBar = args.code_channel.context_bar_items
      core.codeChannels.changed(channel.id)
      return {}
    },
  }),

  'agents.conversations.archive': method({
    token: 'bot',
    scope: SCOPE,
    args: z.object({ channel_id: z.string(), summary_message_ts: text.optional() }),
    run(args, core) {
      const channel = core.codeChannels.channels.get(args.channel_id)
      if (!channel) throw new SlackRefusal('channel_not_found')
      // The method page's own example error: a second archive is refused, not a no-op.
      if (channel.archived) throw new SlackRefusal('already_archived')
      if (args.summary_message_ts !== undefined) {
        // "Requires the channel to have an origin_link set"; the code for a channel without one is not documented (ours).
        if (!channel.origin) throw new SlackRefusal('no_origin_link')
        const summary = core.workspace.messages(channel.id).find((m) => m.ts === args.summary_message_ts)
        // Documented: a ts that matches no message records no summary, and the archive still succeeds.
        if (summary) {
          channel.summaryMessage = { messageTs: summary.ts }
          const { app } = core.workspace
          // Shared back as a thread reply on the origin message (the SDK's description of the argument).
          core.workspace.post({ channel: channel.origin.channel, thread_ts: channel.origin.ts, user: app.botUserId, bot_id: app.botId, app_id: app.appId, text: summary.text, ...(summary.blocks ? { blocks: summary.blocks } : {}) })
        }
      }
      channel.archived = true
      core.codeChannels.changed(channel.id)
      return {}
    },
  }),
}
