/**
 * Fitting content into messages: a card (head, as much body as fits, a note,
 * controls) and, for what does not fit, continuation messages for the card's
 * thread, plus a `.md` file when there are many. Nothing is dropped: the card
 * says how many parts follow, and every part says which one it is.
 */
import type { ContextBlock, KnownBlock } from '@slack/types'
import { wordsFor } from './i18n.js'
import { LIMIT } from './limits.js'
import type { Locale } from './view.js'
import { escapeMrkdwn, fitEscaped, fitMrkdwn } from './text.js'

/** A message as chat.postMessage / chat.update take it. */
export interface MessagePayload {
  /** Notification / fallback text (mrkdwn-escaped). */
  text: string
  blocks: KnownBlock[]
}

/** A file to upload into the card's thread (files.uploadV2 / completeUploadExternal). */
export interface FileAttachment {
  filename: string
  title: string
  /** The whole text, exactly as the agent wrote it. */
  content: string
}

/** A card, its thread continuation, and the whole text as a file when it is long. */
export interface RenderedMessage {
  message: MessagePayload
  /** Post these, in order, as replies in the card's thread. Empty when everything fits on the card. */
  thread: MessagePayload[]
  file?: FileAttachment
}

/** A block with the text it carries, as Slack counts it toward a message's total. */
export interface SizedBlock {
  block: KnownBlock
  size: number
  /** Which question the block belongs to (batch listings count questions left for the thread). */
  question?: number
  /**
   * For a table block: what replaces it in a message that holds
   * LIMIT.tablesPerMessage tables already (the table as monospace text).
   */
  fallback?: SizedBlock[]
}

/**
 * Whether a message holding `tables` table blocks can take `piece`: any
 * piece but a table past LIMIT.tablesPerMessage, which its caller replaces
 * by its fallback (the table as monospace text) in place.
 */
function takes(piece: SizedBlock, tables: number): boolean {
  return !isTable(piece) || tables < LIMIT.tablesPerMessage
}

/** A `table` or a `data_table` block: one of either per message (LIMIT.tablesPerMessage). */
function isTable(piece: SizedBlock): boolean {
  return piece.block.type === 'table' || piece.block.type === 'data_table'
}

/** Characters of text in a payload, counted the way the total-size limit counts (and urls, to be safe). */
export function textSize(value: unknown): number {
  if (Array.isArray(value)) {
    let n = 0
    for (const item of value) n += textSize(item)
    return n
  }
  if (typeof value !== 'object' || value === null) return 0
  let n = 0
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') {
      if (key === 'text' || key === 'url') n += item.length
    } else {
      n += textSize(item)
    }
  }
  return n
}

export function sized(block: KnownBlock, question?: number): SizedBlock {
  return question === undefined ? { block, size: textSize(block) } : { block, size: textSize(block), question }
}

/** A context line of mrkdwn (ours, already escaped). */
export function contextLine(mrkdwn: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: mrkdwn }] }
}

/** The most text the note between body and controls can carry. */
const NOTE_RESERVE = 400

export interface CardParts {
  locale: Locale
  head: KnownBlock[]
  body: SizedBlock[]
  /** What goes under the body: controls on an open card, a status on a settled one. */
  tail: KnownBlock[]
  /**
   * Room kept for the tail whatever it holds now, so the open card and its
   * settled form split the body at the same place (the thread was posted once).
   */
  reserve: { text: number; blocks: number }
  /** Notification text of the card. */
  text: string
  /** Notification text of each thread part (`Part i of n` is added), already escaped. */
  threadText: string
  /**
   * The whole text, offered as a file when the thread runs long. Made only
   * when needed: for a short ask it is never built.
   */
  file?: { filename: string; make: () => FileAttachment }
  /** The body was cut at BODY_CAP: the card and thread show the start, the file holds everything. */
  truncated?: boolean
  /** Said after the body when some questions of a batch are left for the thread. */
  moreQuestions?: (count: number) => string
}

/**
 * Lays out a card and its thread. The head, the tail and the note are bounded
 * by their renderers; the body goes on the card while it fits, the rest into
 * thread parts of at most a message each.
 */
export function layoutCard(parts: CardParts): RenderedMessage {
  const words = wordsFor(parts.locale)
  const tailText = Math.max(textSize(parts.tail), parts.reserve.text)
  const tailBlocks = Math.max(parts.tail.length, parts.reserve.blocks)
  let room = LIMIT.messageTextBudget - textSize(parts.head) - tailText - NOTE_RESERVE
  let slots = LIMIT.messageBlocks - parts.head.length - tailBlocks - 1
  const card: KnownBlock[] = []
  // A copy: a second table on the card is replaced by its fallback in place.
  const body = [...parts.body]
  let tables = 0
  let i = 0
  while (i < body.length) {
    const piece = body[i]!
    if (piece.size > room || slots < 1) break
    if (!takes(piece, tables)) {
      body.splice(i, 1, ...(piece.fallback ?? []))
      continue
    }
    if (isTable(piece)) tables++
    card.push(piece.block)
    room -= piece.size
    slots -= 1
    i++
  }
  const rest = body.slice(i)
  const thread = threadParts(rest, parts, words)
  const notes: string[] = []
  if (parts.moreQuestions !== undefined && rest.length > 0) {
    const shown = new Set(body.slice(0, i).map((p) => p.question))
    const left = new Set(rest.map((p) => p.question).filter((q) => q !== undefined && !shown.has(q)))
    if (left.size > 0) notes.push(parts.moreQuestions(left.size))
  }
  if (thread.payloads.length > 0) notes.push(words.continuedInThread(thread.payloads.length))
  const withFile = parts.file !== undefined && (parts.truncated === true || thread.payloads.length > LIMIT.fileAfterThreadParts)
  if (withFile && thread.cut) notes.push(words.restInFile(escapeMrkdwn(parts.file!.filename)))
  const blocks = [...parts.head, ...card]
  if (notes.length > 0) blocks.push(contextLine(fitMrkdwn(notes.join(' '), NOTE_RESERVE)))
  blocks.push(...parts.tail)
  const rendered: RenderedMessage = { message: { text: parts.text, blocks }, thread: thread.payloads }
  if (withFile) rendered.file = parts.file!.make()
  return rendered
}

/** The most body text an ask renders: what the card and LIMIT.threadParts thread parts can show. The file holds the rest. */
export const BODY_CAP = (LIMIT.threadParts + 1) * LIMIT.messageTextBudget

function threadParts(rest: SizedBlock[], parts: CardParts, words: ReturnType<typeof wordsFor>): { payloads: MessagePayload[]; cut: boolean } {
  // Each part starts with a context line naming it; a part never exceeds one message.
  const groups: KnownBlock[][] = []
  let group: KnownBlock[] = []
  let room = LIMIT.messageTextBudget - NOTE_RESERVE
  let cut = parts.truncated === true
  let tables = 0
  const pieces = [...rest]
  let i = 0
  while (i < pieces.length) {
    const piece = pieces[i]!
    if (group.length > 0 && (piece.size > room || group.length >= LIMIT.messageBlocks - 2)) {
      groups.push(group)
      group = []
      tables = 0
      room = LIMIT.messageTextBudget - NOTE_RESERVE
      // With a file to hold the rest, the thread stops at LIMIT.threadParts and says where the rest is.
      if (groups.length === LIMIT.threadParts && parts.file !== undefined) {
        cut = true
        break
      }
    }
    // A second table in this part: its fallback takes its place, and is placed like any piece.
    if (!takes(piece, tables)) {
      pieces.splice(i, 1, ...(piece.fallback ?? []))
      continue
    }
    if (isTable(piece)) tables++
    group.push(piece.block)
    room -= piece.size
    i++
  }
  if (group.length > 0 && groups.length < LIMIT.threadParts) groups.push(group)
  else if (group.length > 0 && parts.file === undefined) groups.push(group)
  const total = groups.length
  const payloads = groups.map((blocks, n) => {
    const label = words.part(n + 1, total)
    const tail = n === total - 1 && cut && parts.file !== undefined ? [contextLine(fitMrkdwn(words.restInFile(parts.file.filename), NOTE_RESERVE))] : []
    // threadText is escaped already: escaping the whole again showed `R&D` as `R&amp;amp;D`.
    return { text: fitEscaped(`${escapeMrkdwn(label)} · ${parts.threadText}`, LIMIT.notificationText), blocks: [contextLine(label), ...blocks, ...tail] }
  })
  return { payloads, cut }
}
