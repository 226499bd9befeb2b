/**
 * Code channels and their plan canvases, as the stand-in keeps them
 * (decision 0073): a code channel is an ordinary channel of the workspace
 * plus what `agents.conversations.*` sets on it (session, origin, views,
 * context bar); a canvas is markdown cut into sections, and people's
 * comment threads are anchored to a section, so a rewrite that leaves a
 * section's text alone leaves its threads on it. Memory only: not kept
 * between runs (the workspace file does not hold them).
 */
import { SlackRefusal } from './errors.js'
import type { Workspace } from './workspace.js'

export interface CodeChannelView {
  viewId: string
  viewKey: string
  type: 'canvas' | 'html' | 'diff' | 'block_kit' | 'pull_request'
  label: string
  canvasId?: string
  accessLevel?: 'comment' | 'write'
  dateAdded: number
  contentVersion: number
}

export interface ContextBarItem {
  key: string
  label: string
  icon?: string
  url?: string
  item_type?: string
}

export interface CodeChannel {
  /** The workspace channel it is. */
  id: string
  sessionId?: string
  origin?: { channel: string; ts: string }
  views: CodeChannelView[]
  contextBar: ContextBarItem[]
  /** Archived: readable (views, canvas, history), refusing every write with `is_archived`. */
  archived: boolean
  /** The `summary_message` property `archive` (or setProperties) recorded. */
  summaryMessage?: { messageTs: string; threadTs?: string }
}

export interface CanvasSection {
  id: string
  markdown: string
}

export interface CanvasReply {
  text: string
  ts: string
  user_id: string
}

export interface CanvasComment {
  id: string
  sectionId: string
  quotedText: string
  text: string
  userId: string
  ts: string
  replies: CanvasReply[]
  resolved: boolean
}

export interface SandboxCanvas {
  id: string
  title: string
  /** The code channel whose view shows it (set by setView). */
  channel?: string
  sections: CanvasSection[]
  comments: CanvasComment[]
}

/**
 * A canvas's sections: each heading line, each list item (with the lines
 * indented under it) and each paragraph is one. The rule Slack applies is
 * not documented (decision 0073); this one keeps a comment on step 3 of a
 * numbered plan on step 3 when another step changes.
 */
export function sectionsOf(markdown: string): string[] {
  const sections: string[] = []
  let current: string[] = []
  const flush = () => {
    if (current.length > 0) sections.push(current.join('\n'))
    current = []
  }
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') flush()
    else if (/^\s{0,3}(#{1,6}\s|[-*+]\s|\d+[.)]\s)/.test(line)) {
      flush()
      current.push(line)
      if (/^\s{0,3}#/.test(line)) flush()
    } else current.push(line)
  }
  flush()
  return sections
}

/** What identifies a section across a rewrite: its text, an ordered list item's number left out (renumbering is no edit). */
function sectionKey(markdown: string): string {
  return markdown.replace(/^\s{0,3}\d+([.)])\s/, '#$1 ')
}

export class CodeChannels {
  readonly bySession = new Map<string, string>()
  readonly channels = new Map<string, CodeChannel>()
  readonly canvases = new Map<string, SandboxCanvas>()

  constructor(private readonly workspace: Workspace) {}

  /** Tells whoever follows the workspace (the page, a test's wait) that a code channel or its canvas changed. */
  changed(channelId: string): void {
    this.workspace.emit('change', { type: 'code_channel_changed', channel: channelId })
  }

  /** The code channel with this id, not archived (Slack's codes otherwise). */
  open(channelId: string): CodeChannel {
    const channel = this.channels.get(channelId)
    if (!channel) throw new SlackRefusal('channel_not_found')
    if (channel.archived) throw new SlackRefusal('is_archived')
    return channel
  }

  /** Whether this channel is an archived code channel (chat.postMessage answers `is_archived` there). */
  isArchived(channelId: string): boolean {
    return this.channels.get(channelId)?.archived === true
  }

  canvas(canvasId: string): SandboxCanvas {
    const canvas = this.canvases.get(canvasId)
    if (!canvas) throw new SlackRefusal('canvas_not_found')
    return canvas
  }

  createCanvas(title: string, markdown: string): SandboxCanvas {
    const ids = this.workspace.ids
    const canvas: SandboxCanvas = { id: ids.next('F'), title, sections: sectionsOf(markdown).map((text) => ({ id: ids.next('temp:C:'), markdown: text })), comments: [] }
    this.canvases.set(canvas.id, canvas)
    return canvas
  }

  /**
   * Replaces a canvas's markdown: a section whose text is unchanged (an
   * ordered item's number aside) keeps its id, and so its comment threads,
   * matched in order; every other section is new. Threads whose section is
   * gone stay open, with the text they quoted.
   */
  rewrite(canvas: SandboxCanvas, markdown: string): { kept: number; replaced: number } {
    const unused = [...canvas.sections]
    let kept = 0
    canvas.sections = sectionsOf(markdown).map((text) => {
      const at = unused.findIndex((section) => sectionKey(section.markdown) === sectionKey(text))
      if (at >= 0) {
        const [same] = unused.splice(0, at + 1).slice(-1)
        kept++
        return { id: same!.id, markdown: text }
      }
      return { id: this.workspace.ids.next('temp:C:'), markdown: text }
    })
    return { kept, replaced: canvas.sections.length - kept }
  }

  /**
   * A person's comment on a passage of a canvas view: they must be in the
   * code channel, the view must give them comment access, and the passage
   * must lie within one section.
   */
  comment(input: { canvasId: string; userId: string; quotedText: string; text: string }): CanvasComment {
    const canvas = this.canvas(input.canvasId)
    const channel = canvas.channel === undefined ? undefined : this.channels.get(canvas.channel)
    const view = channel?.views.find((v) => v.canvasId === canvas.id)
    if (!channel || !view) throw new SlackRefusal('canvas_not_found')
    if (channel.archived) throw new SlackRefusal('is_archived')
    if (!this.workspace.channels.get(channel.id)?.members.has(input.userId)) throw new SlackRefusal('not_in_channel')
    if (view.accessLevel !== 'comment' && view.accessLevel !== 'write') throw new SlackRefusal('access_denied')
    const section = canvas.sections.find((s) => s.markdown.includes(input.quotedText))
    if (input.quotedText.trim() === '' || !section) throw new SlackRefusal('passage_not_found')
    if (input.text.trim() === '') throw new SlackRefusal('no_text')
    const comment: CanvasComment = { id: this.workspace.ids.next('Fc'), sectionId: section.id, quotedText: input.quotedText, text: input.text, userId: input.userId, ts: this.workspace.ids.ts(), replies: [], resolved: false }
    canvas.comments.push(comment)
    this.changed(channel.id)
    return comment
  }

  /** A person's reply in a canvas comment's thread: the same checks as a comment (in the channel, comment access). */
  reply(input: { commentId: string; userId: string; text: string }): CanvasReply {
    const canvas = [...this.canvases.values()].find((c) => c.comments.some((comment) => comment.id === input.commentId))
    const comment = canvas?.comments.find((c) => c.id === input.commentId)
    const channel = canvas?.channel === undefined ? undefined : this.channels.get(canvas.channel)
    const view = channel?.views.find((v) => v.canvasId === canvas!.id)
    if (!comment || !channel || !view) throw new SlackRefusal('comment_not_found')
    if (channel.archived) throw new SlackRefusal('is_archived')
    if (!this.workspace.channels.get(channel.id)?.members.has(input.userId)) throw new SlackRefusal('not_in_channel')
    if (view.accessLevel !== 'comment' && view.accessLevel !== 'write') throw new SlackRefusal('access_denied')
    if (input.text.trim() === '') throw new SlackRefusal('no_text')
    const reply: CanvasReply = { text: input.text, ts: this.workspace.ids.ts(), user_id: input.userId }
    comment.replies.push(reply)
    this.changed(channel.id)
    return reply
  }
}
