/**
 * What a tool approval asks to run, for the approval card: a shell tool's
 * command on its own, any other arguments as indented JSON, shown literally
 * in code blocks (rich_text preformatted text is never parsed: no mention,
 * no link, no formatting can come out of it). The code blocks sit in a
 * collapsible `container` (decision 0068): long arguments start folded, with
 * their first line as the container's subtitle, so the verdict buttons under
 * it stay on a phone's first screen. Long arguments are also shortened inside
 * the fold at a line break, with the whole text in the card's thread, or in
 * an attached file when the thread would run long. Nothing is cut silently.
 */
import type { ContainerBlock, KnownBlock, RichTextBlock, RichTextPreformatted } from '@slack/types'
import { commandAsLines } from './command-lines.js'
import { wordsFor, type Words } from './i18n.js'
import { contextLine, type FileAttachment, type MessagePayload } from './layout.js'
import { LIMIT } from './limits.js'
import { chunkText, escapeMrkdwn, fitText, plain, showInvisibles, wellFormed } from './text.js'
import type { ApprovalView } from './view.js'

/** One labelled code block of the arguments. */
export interface ArgumentsSection {
  label: 'command' | 'arguments' | 'otherArguments'
  text: string
}

/**
 * The arguments as a person reads them: `{ "command": "…" }` (a shell tool)
 * gives the command itself, then any other keys as JSON; other JSON is
 * indented; text that is not JSON is shown as written. An empty argument
 * string is an empty object, as the harness treats it. Invisible characters
 * (controls, bidi, zero-width) are shown by code point: the card, its thread
 * and the attached file all show what will run.
 */
export function argumentsSections(text: string): ArgumentsSection[] {
  return parsedSections(wellFormed(text)).map((section) => ({ ...section, text: showInvisibles(section.text) }))
}

/** The sections before invisible characters are shown (argumentsSections). */
function parsedSections(raw: string): ArgumentsSection[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw.trim() === '' ? '{}' : raw)
  } catch {
    return [{ label: 'arguments', text: raw }]
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const { command, ...rest } = parsed as Record<string, unknown>
    if (typeof command === 'string' && command.trim() !== '') {
      const sections: ArgumentsSection[] = [{ label: 'command', text: command }]
      if (Object.keys(rest).length > 0) sections.push({ label: 'otherArguments', text: JSON.stringify(rest, null, 2) })
      return sections
    }
  }
  return [{ label: 'arguments', text: JSON.stringify(parsed, null, 2) }]
}

/** Where the whole text of shortened arguments goes. */
type Overflow = 'none' | 'thread' | 'file'

/** The start of `text` within `lines` lines and `max` characters, cut at a line break when one is near. */
function excerpt(text: string, lines: number, max: number): string {
  // Only the start matters: find the end of line `lines` without splitting the whole text.
  let end = -1
  for (let line = 0; line < lines; line++) {
    end = text.indexOf('\n', end + 1)
    if (end === -1) break
  }
  const byLines = end === -1 ? text : text.slice(0, end)
  const limited = byLines.length < text.length ? `${byLines}\n…` : byLines
  if (limited.length <= max) return limited
  const cut = fitText(byLines, max)
  const lastBreak = cut.lastIndexOf('\n')
  // Cut at a line break when it keeps at least half the room; else mid-line (fitText marks it with …).
  return lastBreak > max / 2 ? `${cut.slice(0, lastBreak)}\n…` : cut
}

/** Lines of a tool's arguments shown where there is little room (the Home tab). */
const GLIMPSE_LINES = 3

/**
 * The start of what a tool approval would run, for a place with little
 * room (the Home tab, where it can be allowed too): its first section (a
 * shell tool's command itself), a few lines of it within `max` characters,
 * invisible characters shown. What is cut is marked with …; the whole text
 * is on the card.
 */
export function argumentsGlimpse(text: string, max: number): string {
  const [first] = argumentsSections(text)
  return excerpt(first?.text ?? '', GLIMPSE_LINES, max)
}

function labelOf(words: Words, label: ArgumentsSection['label']): string {
  return label === 'command' ? words.command : label === 'otherArguments' ? words.otherArguments : words.arguments
}

/** A code block of one section, under its bold label unless `labelled` is false (the container's title already says it). */
function codeBlock(words: Words, section: ArgumentsSection, text: string, suffix = '', labelled = true): RichTextBlock {
  // A code block never shows an empty element; a blank command is shown as a space.
  const code: RichTextPreformatted = { type: 'rich_text_preformatted', elements: [{ type: 'text', text: text === '' ? ' ' : text }] }
  if (!labelled) return { type: 'rich_text', elements: [code] }
  return {
    type: 'rich_text',
    elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: `${labelOf(words, section.label)}${suffix}`, style: { bold: true } }] }, code],
  }
}

/** A one-line command as a phone shows it best: across lines continued with ` \\`, when that fits the card's line budget (else as written). */
function narrowScreenCommand(text: string): string {
  const laidOut = commandAsLines(text, LIMIT.approvalCommandLineWidth)
  return laidOut.split('\n').length <= LIMIT.approvalArgumentsLines ? laidOut : text
}

/** The thread parts of the whole arguments: each part one code block within a block's text budget. */
function threadChunks(sections: ArgumentsSection[]): { section: ArgumentsSection; text: string; index: number; count: number }[] {
  return sections.flatMap((section) => {
    const chunks = chunkText(section.text, LIMIT.approvalArgumentsPart)
    return chunks.map((text, index) => ({ section, text, index, count: chunks.length }))
  })
}

function overflowOf(sections: ArgumentsSection[], shortened: boolean): Overflow {
  if (!shortened) return 'none'
  return threadChunks(sections).length > LIMIT.fileAfterThreadParts ? 'file' : 'thread'
}

/** The file name of the whole arguments, from the tool's name (kept to safe characters). */
export function argumentsFileName(view: ApprovalView): string {
  const tool = view.toolName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 40)
  return `${tool === '' ? 'tool' : tool}-arguments.txt`
}

/** The arguments as the card shows them: each section's excerpt, and whether any was shortened. */
function shownSections(sections: ArgumentsSection[]): { shown: { section: ArgumentsSection; text: string }[]; shortened: boolean } {
  let room = LIMIT.approvalArgumentsCard
  let lines = LIMIT.approvalArgumentsLines
  const shown = sections.map((section) => {
    const text = room > 0 && lines > 0 ? excerpt(section.text, lines, room) : '…'
    room -= text.length
    lines -= text.split('\n').length
    return { section, text }
  })
  return { shown, shortened: shown.some(({ section, text }) => text !== section.text) }
}

/**
 * Whether the arguments start folded: more than LIMIT.approvalUnfoldedLines
 * lines or LIMIT.approvalUnfoldedChars characters in all. A short command
 * stays open (one glance, no tap), since it cannot push the buttons away.
 */
export function argumentsFolded(sections: ArgumentsSection[]): boolean {
  const chars = sections.reduce((n, section) => n + section.text.length, 0)
  const lines = sections.reduce((n, section) => n + section.text.split('\n').length, 0)
  return chars > LIMIT.approvalUnfoldedChars || lines > LIMIT.approvalUnfoldedLines
}

/**
 * A folded container's subtitle: the first line of what it would run and how
 * many lines follow, as plain text (never parsed, like the code blocks), so
 * the collapsed card still says what a tap on Allow once allows.
 */
function foldedSubtitle(words: Words, sections: ArgumentsSection[]): string {
  const first = sections[0]?.text ?? ''
  const lineBreak = first.indexOf('\n')
  const firstLine = (lineBreak === -1 ? first : first.slice(0, lineBreak)).trim()
  // The first section's own lines (a command's), not the other arguments' JSON after it.
  const more = first.split('\n').length - 1
  const tail = more > 0 ? ` ${words.moreLines(more)}` : ''
  return `${fitText(firstLine === '' ? '…' : firstLine, LIMIT.containerSubtitle - tail.length)}${tail}`
}

/**
 * The card's blocks for the arguments: one collapsible container holding the
 * code block(s), shortened within LIMIT.approvalArgumentsCard characters and
 * LIMIT.approvalArgumentsLines lines, and a note saying where the rest is; or
 * a note that the relay never saw them, so nobody allows a command they
 * cannot see without being told.
 */
export function approvalArgumentsBlocks(view: ApprovalView): KnownBlock[] {
  const words = wordsFor(view.locale)
  if (view.arguments === undefined) return [contextLine(escapeMrkdwn(words.argumentsNotSeen))]
  const sections = argumentsSections(view.arguments)
  const { shown, shortened } = shownSections(sections)
  // The container's title names the first section, so its own label is not repeated inside.
  const children: ContainerBlock['child_blocks'] = shown.map(({ section, text }, i) => codeBlock(words, section, section.label === 'command' ? narrowScreenCommand(text) : text, '', i > 0))
  const overflow = overflowOf(sections, shortened)
  if (overflow === 'thread') children.push(contextLine(escapeMrkdwn(words.argumentsInThread)))
  if (overflow === 'file') children.push(contextLine(escapeMrkdwn(words.argumentsInFile(argumentsFileName(view)))))
  const folded = argumentsFolded(sections)
  const container: ContainerBlock = {
    type: 'container',
    title: plain(labelOf(words, sections[0]?.label ?? 'arguments'), LIMIT.containerTitle),
    ...(folded ? { subtitle: plain(foldedSubtitle(words, sections), LIMIT.containerSubtitle) } : {}),
    child_blocks: children,
    is_collapsible: true,
    default_collapsed: folded,
  }
  return [container]
}

/** What goes into the card's thread when the arguments were shortened: the whole text, in parts or as a file. */
export function approvalOverflow(view: ApprovalView): { thread: MessagePayload[]; file?: FileAttachment } {
  if (view.arguments === undefined) return { thread: [] }
  const sections = argumentsSections(view.arguments)
  const overflow = overflowOf(sections, shownSections(sections).shortened)
  const words = wordsFor(view.locale)
  if (overflow === 'none') return { thread: [] }
  if (overflow === 'file') {
    const content = sections.map((section) => `# ${labelOf(words, section.label)}\n${section.text}`).join('\n\n')
    return { thread: [], file: { filename: argumentsFileName(view), title: words.argumentsFileTitle, content } }
  }
  const chunks = threadChunks(sections)
  const thread = chunks.map((chunk, n) => {
    const suffix = chunk.count > 1 ? ` (${chunk.index + 1}/${chunk.count})` : ''
    return { text: escapeMrkdwn(words.part(n + 1, chunks.length)), blocks: [codeBlock(words, chunk.section, chunk.text, suffix) as KnownBlock] }
  })
  return { thread }
}
