/**
 * The code-channel methods dsh-slack uses (decision 0073), over the official
 * Web API client: every answer parsed with zod, every failure a
 * `SlackCallError` like the rest of the port.
 */
import type { WebClient } from '@slack/web-api'
import { z } from 'zod'

import { callSlack, type SlackCallObserver } from './slack-call-error.js'

/** An open comment thread on a canvas: the passage it is on, and what people wrote. */
export interface CanvasThread {
  quotedText: string
  comments: { userId: string; text: string }[]
}

export interface ContextItem {
  key: string
  label: string
  icon: 'folder' | 'branch' | 'terminal' | 'hierarchy'
}

export interface CodeChannelPort {
  /** The session's code channel (Slack returns the existing one for a known session id). */
  create(input: { sessionId: string; name: string; origin: { channel: string; ts: string } }): Promise<string>
  /** The canvas id behind a channel's view with this key, if there is one. */
  canvasOfView(channel: string, viewKey: string): Promise<string | undefined>
  createCanvas(title: string, markdown: string): Promise<string>
  /** Shows a canvas as a tab people may comment on but not edit. */
  showCanvas(channel: string, input: { viewKey: string; canvasId: string; name: string }): Promise<void>
  /** Replaces a canvas's markdown; Slack keeps unchanged sections (and their threads). */
  setCanvasContent(channel: string, canvasId: string, markdown: string): Promise<void>
  openThreads(channel: string, canvasId: string): Promise<CanvasThread[]>
  setContextBar(channel: string, items: ContextItem[]): Promise<void>
  /**
   * Archives the code channel; `summaryTs`, a message in it, is shared back
   * as a reply in the origin message's thread and kept as the channel's
   * summary (Slack: `already_archived` when it is archived).
   */
  archive(channel: string, summaryTs?: string): Promise<void>
  /** A person's display name (users.info), for the agent to read who commented. */
  userName(userId: string): Promise<string | undefined>
}

const userResult = z.object({ user: z.object({ name: z.string().optional(), real_name: z.string().optional(), profile: z.object({ display_name: z.string().optional() }).optional() }).optional() })
// The id goes into our own mrkdwn (`<#C…>`): a channel id, nothing else.
const createResult = z.object({ channel_id: z.string().regex(/^[CG][A-Z0-9]{2,30}$/) })
const canvasResult = z.object({ canvas_id: z.string() })
const viewsResult = z.object({ views: z.array(z.object({ view_key: z.string().optional(), file_id: z.string().optional() })).default([]) })
const canvasComments = z.object({
  comments: z
    .array(
      z.object({
        quoted_text: z.string().default(''),
        text: z.string().default(''),
        user_id: z.string().default(''),
        is_resolved: z.boolean().optional(),
        replies: z.array(z.object({ text: z.string().default(''), user_id: z.string().default('') })).default([]),
      }),
    )
    .default([]),
})

export function codeChannelPort(client: WebClient, observe?: SlackCallObserver): CodeChannelPort {
  const call = <T>(method: string, run: () => Promise<T>) => callSlack(method, run, observe)
  return {
    create: ({ sessionId, name, origin }) =>
      call('agents.conversations.create', async () => createResult.parse(await client.agents.conversations.create({ session_id: sessionId, name, origin_channel_id: origin.channel, origin_message_ts: origin.ts })).channel_id),

    canvasOfView: (channel, viewKey) =>
      call('agents.conversations.listViews', async () => viewsResult.parse(await client.agents.conversations.listViews({ channel_id: channel })).views.find((view) => view.view_key === viewKey)?.file_id),

    createCanvas: (title, markdown) => call('canvases.create', async () => canvasResult.parse(await client.canvases.create({ title, document_content: { type: 'markdown', markdown } })).canvas_id),

    showCanvas: (channel, { viewKey, canvasId, name }) =>
      call('agents.conversations.setView', async () => {
        // Comment access: reviewers point at a passage; the agent stays the canvas's only author.
        await client.agents.conversations.setView({ channel_id: channel, type: 'canvas', view_key: viewKey, canvas_id: canvasId, access_level: 'comment', name })
      }),

    setCanvasContent: (channel, canvasId, markdown) =>
      call('agents.conversations.setCanvasContent', async () => {
        await client.agents.conversations.setCanvasContent({ channel, canvas_id: canvasId, content: markdown })
      }),

    openThreads: (channel, canvasId) =>
      call('agents.conversations.getCanvas', async () => {
        const { comments } = canvasComments.parse(await client.agents.conversations.getCanvas({ channel, canvas_id: canvasId }))
        return comments
          .filter((comment) => comment.is_resolved !== true)
          .map((comment) => ({ quotedText: comment.quoted_text, comments: [{ userId: comment.user_id, text: comment.text }, ...comment.replies.map((reply) => ({ userId: reply.user_id, text: reply.text }))] }))
      }),

    setContextBar: (channel, items) =>
      call('agents.conversations.setProperties', async () => {
        await client.agents.conversations.setProperties({ channel_id: channel, code_channel: { context_bar_items: items } })
      }),

    archive: (channel, summaryTs) =>
      call('agents.conversations.archive', async () => {
        await client.agents.conversations.archive({ channel_id: channel, ...(summaryTs !== undefined ? { summary_message_ts: summaryTs } : {}) })
      }),

    userName: (userId) =>
      call('users.info', async () => {
        const { user } = userResult.parse(await client.users.info({ user: userId }))
        return user?.profile?.display_name || user?.real_name || user?.name || undefined
      }),
  }
}
