/**
 * Markdown → `rich_text` blocks. Why rich_text and not the `markdown` block or
 * mrkdwn: see blocks/README.md. In short: it renders the same on desktop and
 * phone, and its `text` elements are literal (mentions are separate element
 * types: `user`, `usergroup`, `broadcast`), so agent text cannot ping anyone.
 *
 * Every block-level element produced here stays within one block's text
 * budget: long paragraphs, lists, code blocks and tables are split at element
 * boundaries (lines, items, rows) into several elements, never cut.
 */
import type {
  Blockquote,
  Definition,
  List,
  ListItem,
  Nodes,
  PhrasingContent,
  Root,
  RootContent,
  Table,
} from 'mdast'
import type {
  DividerBlock,
  RichTextBlock,
  RichTextBlockElement,
  RichTextLink,
  RichTextList,
  RichTextSection,
  RichTextText,
} from '@slack/types'
import { LIMIT } from '../limits.js'
import { chunkText, isSafeUrl, labelShowsTarget, wellFormed } from '../text.js'
import { parseMarkdown } from './parse.js'
import { tableLines } from './table.js'

/** The inline elements we emit: literal text and links (http, https, mailto only). */
export type Inline = RichTextText | RichTextLink
type Style = NonNullable<RichTextText['style']>

/** One block-level piece of rendered Markdown, within the block budget. */
export type RichUnit = { kind: 'element'; element: RichTextBlockElement; size: number } | { kind: 'divider' }

/** A block rendered from Markdown: a rich_text block or a divider (thematic break). */
export type ProseBlock = RichTextBlock | DividerBlock

interface Ctx {
  definitions: Map<string, Definition>
  /** The most text one block-level element may carry. */
  budget: number
}

/** A url this long is shown as text instead of a link: it would crowd out the text it belongs to. */
const LONGEST_LINK = LIMIT.richTextElementText / 2

// ---------------------------------------------------------------- inline

function styled(style: Style): Style | undefined {
  return Object.keys(style).length === 0 ? undefined : style
}

function sameStyle(a: Style | undefined, b: Style | undefined): boolean {
  return (a?.bold ?? false) === (b?.bold ?? false) && (a?.italic ?? false) === (b?.italic ?? false) && (a?.strike ?? false) === (b?.strike ?? false) && (a?.code ?? false) === (b?.code ?? false)
}

function pushText(out: Inline[], text: string, style: Style): void {
  if (text === '') return
  const s = styled(style)
  const last = out[out.length - 1]
  if (last !== undefined && last.type === 'text' && sameStyle(last.style, s)) {
    last.text += text
    return
  }
  out.push(s === undefined ? { type: 'text', text } : { type: 'text', text, style: { ...s } })
}

function pushLink(out: Inline[], url: string, text: string, style: Style): void {
  const s = styled(style)
  out.push(s === undefined ? { type: 'link', url, text } : { type: 'link', url, text, style: { ...s } })
}

/** The plain text of a node, as a reader would say it. */
export function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.type === 'html' ? node.value : node.value
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? ''
  if (node.type === 'break') return '\n'
  if ('children' in node) {
    let out = ''
    for (const child of node.children) out += plainText(child as Nodes)
    return out
  }
  return ''
}

/**
 * A link shows where it goes. A label that is not its own url is followed by
 * the url, so `[bank.com](https://evil)` reads "bank.com (https://evil)".
 * Only http, https and mailto urls become clickable; others stay text.
 */
function link(out: Inline[], url: string, children: PhrasingContent[], style: Style, ctx: Ctx): void {
  const label = plainText({ type: 'paragraph', children })
  const clickable = isSafeUrl(url) && url.length <= LONGEST_LINK
  if (clickable && (label.trim() === '' || labelShowsTarget(label, url))) {
    pushLink(out, url, label.trim() === '' ? url : label, style)
    return
  }
  inlines(out, children, style, ctx)
  if (url === '' || url === label) return
  if (clickable) {
    pushText(out, ' (', style)
    pushLink(out, url, url, style)
    pushText(out, ')', style)
  } else {
    pushText(out, ` (${url})`, style)
  }
}

function image(out: Inline[], url: string, alt: string, style: Style): void {
  // Images are never inlined (Slack would fetch them); they are links, labelled by their alt text.
  const clickable = isSafeUrl(url) && url.length <= LONGEST_LINK
  pushText(out, alt.trim() === '' ? '🖼 ' : `🖼 ${alt} `, style)
  if (clickable) {
    pushText(out, '(', style)
    pushLink(out, url, url, style)
    pushText(out, ')', style)
  } else if (url !== '') {
    pushText(out, `(${url})`, style)
  }
}

function inline(out: Inline[], node: PhrasingContent, style: Style, ctx: Ctx): void {
  switch (node.type) {
    case 'text':
      return pushText(out, node.value, style)
    case 'emphasis':
      return inlines(out, node.children, { ...style, italic: true }, ctx)
    case 'strong':
      return inlines(out, node.children, { ...style, bold: true }, ctx)
    case 'delete':
      return inlines(out, node.children, { ...style, strike: true }, ctx)
    case 'inlineCode':
      return pushText(out, node.value, { ...style, code: true })
    case 'break':
      return pushText(out, '\n', style)
    case 'link':
      return link(out, node.url, node.children, style, ctx)
    case 'linkReference': {
      const definition = ctx.definitions.get(node.identifier)
      if (definition !== undefined) return link(out, definition.url, node.children, style, ctx)
      return inlines(out, node.children, style, ctx)
    }
    case 'image':
      return image(out, node.url, node.alt ?? '', style)
    case 'imageReference': {
      const definition = ctx.definitions.get(node.identifier)
      return image(out, definition?.url ?? '', node.alt ?? '', style)
    }
    case 'footnoteReference':
      return pushText(out, `[^${node.label ?? node.identifier}]`, style)
    case 'html':
      return pushText(out, node.value, style)
    default:
      // Node types from extensions we do not load: keep their words.
      return pushText(out, plainText(node as Nodes), style)
  }
}

function inlines(out: Inline[], nodes: PhrasingContent[], style: Style, ctx: Ctx): void {
  for (const node of nodes) inline(out, node, style, ctx)
}

function inlineSize(el: Inline): number {
  return el.type === 'text' ? el.text.length : el.url.length + (el.text?.length ?? 0)
}

function sizeOf(elements: Inline[]): number {
  let n = 0
  for (const el of elements) n += inlineSize(el)
  return n
}

/** Splits inline elements into runs of at most `budget` characters, splitting long texts between graphemes. */
export function splitInline(elements: Inline[], budget: number): Inline[][] {
  const runs: Inline[][] = []
  let run: Inline[] = []
  let size = 0
  const close = () => {
    if (run.length > 0) runs.push(run)
    run = []
    size = 0
  }
  for (const el of elements) {
    const pieces: Inline[] =
      el.type === 'text' && el.text.length > budget ? chunkText(el.text, budget).map((text) => ({ ...el, text })) : [el]
    for (const piece of pieces) {
      const n = inlineSize(piece)
      if (size + n > budget) close()
      run.push(piece)
      size += n
    }
  }
  close()
  return runs
}

// ---------------------------------------------------------------- blocks

function section(elements: Inline[]): RichTextSection {
  return { type: 'rich_text_section', elements }
}

function pushSection(out: RichUnit[], elements: Inline[], ctx: Ctx): void {
  const kept = elements.filter((el) => el.type !== 'text' || el.text !== '')
  if (kept.length === 0) return
  const size = sizeOf(kept)
  if (size <= ctx.budget) {
    out.push({ kind: 'element', element: section(kept), size })
    return
  }
  for (const run of splitInline(kept, ctx.budget)) out.push({ kind: 'element', element: section(run), size: sizeOf(run) })
}

/** Verbatim text in a preformatted box, split at line ends when too long for one element. */
export function codeChunks(value: string, budget: number): string[] {
  if (value.length <= budget) return [value === '' ? ' ' : value]
  const chunks: string[] = []
  let current: string | null = null
  for (const line of value.split('\n')) {
    if (line.length > budget) {
      if (current !== null) chunks.push(current)
      current = null
      chunks.push(...chunkText(line, budget))
      continue
    }
    const next: string = current === null ? line : `${current}\n${line}`
    if (next.length > budget) {
      chunks.push(current ?? '')
      current = line
    } else {
      current = next
    }
  }
  if (current !== null) chunks.push(current)
  // An empty text element is refused; a chunk of only blank lines keeps one space.
  return chunks.map((chunk) => (chunk.trim() === '' ? ' ' : chunk))
}

function preformatted(out: RichUnit[], value: string, ctx: Ctx): void {
  for (const chunk of codeChunks(value, ctx.budget)) {
    out.push({ kind: 'element', element: { type: 'rich_text_preformatted', elements: [{ type: 'text', text: chunk }] }, size: chunk.length })
  }
}

/** Flow content as inline elements, for places that hold only inline content (quotes). */
function flatten(out: Inline[], nodes: RootContent[], ctx: Ctx, prefix = ''): void {
  nodes.forEach((node, i) => {
    if (i > 0) pushText(out, '\n', {})
    if (prefix !== '') pushText(out, prefix, {})
    switch (node.type) {
      case 'paragraph':
        return inlines(out, node.children, {}, ctx)
      case 'heading':
        return inlines(out, node.children, { bold: true }, ctx)
      case 'list':
        return node.children.forEach((item, n) => {
          if (n > 0) pushText(out, '\n', {})
          pushText(out, `${prefix}${node.ordered ? `${(node.start ?? 1) + n}.` : '•'} `, {})
          flatten(out, item.children, ctx)
        })
      case 'code':
        return pushText(out, node.value === '' ? ' ' : node.value, { code: true })
      case 'blockquote':
        return flatten(out, node.children, ctx, '> ')
      case 'table':
        return pushText(out, tableText(node, ctx).join('\n'), { code: true })
      case 'thematicBreak':
        return pushText(out, '———', {})
      default:
        return pushText(out, plainText(node as Nodes), {})
    }
  })
}

function quote(out: RichUnit[], node: Blockquote, ctx: Ctx): void {
  const elements: Inline[] = []
  flatten(elements, node.children, ctx)
  const kept = elements.filter((el) => el.type !== 'text' || el.text !== '')
  if (kept.length === 0) return
  for (const run of splitInline(kept, ctx.budget)) {
    out.push({ kind: 'element', element: { type: 'rich_text_quote', elements: run }, size: sizeOf(run) })
  }
}

/** A table cell's text: links keep their urls visible (a cell is shown as plain monospace text). */
function cellText(children: PhrasingContent[], ctx: Ctx): string {
  const elements: Inline[] = []
  inlines(elements, children, {}, ctx)
  return elements.map((el) => (el.type === 'text' ? el.text : el.text === el.url ? el.url : `${el.text} (${el.url})`)).join('')
}

function tableText(node: Table, ctx: Ctx): string[] {
  const rows = node.children.map((row) => row.children.map((cell) => cellText(cell.children, ctx)))
  return tableLines(rows, node.align ?? [])
}

function table(out: RichUnit[], node: Table, ctx: Ctx): void {
  const lines = tableText(node, ctx)
  const head = lines.slice(0, 2).join('\n')
  const body = lines.slice(2)
  // Each part of a long table repeats the header, so every part reads on its own.
  const room = ctx.budget - head.length - 1
  if (room < ctx.budget / 4) return preformatted(out, lines.join('\n'), ctx)
  let rows: string[] = []
  let size = 0
  const flush = () => {
    preformatted(out, rows.length === 0 ? head : `${head}\n${rows.join('\n')}`, ctx)
    rows = []
    size = 0
  }
  for (const row of body) {
    if (rows.length > 0 && size + row.length + 1 > room) flush()
    rows.push(row)
    size += row.length + 1
  }
  if (rows.length > 0 || body.length === 0) flush()
}

function taskMark(item: ListItem): string {
  return item.checked === true ? '☑ ' : item.checked === false ? '☐ ' : ''
}

function list(out: RichUnit[], node: List, indent: number, ctx: Ctx): void {
  const style = node.ordered ? 'ordered' : 'bullet'
  const level = Math.min(indent, LIMIT.richTextListIndent)
  let items: RichTextSection[] = []
  let size = 0
  let next = node.start ?? 1
  let first = next
  const flush = () => {
    if (items.length > 0) {
      const element: RichTextList & { offset?: number } = { type: 'rich_text_list', style, indent: level, elements: items }
      if (node.ordered && first > 1) element.offset = first - 1
      out.push({ kind: 'element', element, size })
    }
    items = []
    size = 0
    first = next
  }
  const emit = (elements: Inline[]) => {
    const kept = elements.filter((el) => el.type !== 'text' || el.text !== '')
    const content = kept.length === 0 ? [{ type: 'text', text: ' ' } as Inline] : kept
    const n = sizeOf(content)
    if (n > ctx.budget) {
      // One item longer than a block: the list breaks, the item's text follows as paragraphs.
      flush()
      pushSection(out, content, ctx)
      next++
      first = next
      return
    }
    if (size + n > ctx.budget) flush()
    items.push(section(content))
    size += n
    next++
  }
  for (const item of node.children) {
    let current: Inline[] = []
    let pending = false
    const mark = taskMark(item)
    if (mark !== '') pushText(current, mark, {})
    let emitted = false
    for (const child of item.children) {
      if (child.type === 'paragraph' || child.type === 'heading') {
        if (pending) pushText(current, '\n', {})
        inlines(current, child.children, child.type === 'heading' ? { bold: true } : {}, ctx)
        pending = true
        continue
      }
      if (pending || !emitted) emit(current)
      emitted = true
      current = []
      pending = false
      flush()
      if (child.type === 'list') list(out, child, indent + 1, ctx)
      else block(out, child, ctx)
      first = next
    }
    if (pending || !emitted) emit(current)
  }
  flush()
}

function block(out: RichUnit[], node: RootContent, ctx: Ctx): void {
  switch (node.type) {
    case 'paragraph': {
      const elements: Inline[] = []
      inlines(elements, node.children, {}, ctx)
      return pushSection(out, elements, ctx)
    }
    case 'heading': {
      const elements: Inline[] = []
      inlines(elements, node.children, { bold: true }, ctx)
      return pushSection(out, elements, ctx)
    }
    case 'code':
      return preformatted(out, node.value, ctx)
    case 'blockquote':
      return quote(out, node, ctx)
    case 'list':
      return list(out, node, 0, ctx)
    case 'table':
      return table(out, node, ctx)
    case 'thematicBreak':
      out.push({ kind: 'divider' })
      return
    case 'html':
      return pushSection(out, [{ type: 'text', text: node.value }], ctx)
    case 'definition': {
      // Shown, not hidden: the reader sees every url a reference points at.
      const elements: Inline[] = [{ type: 'text', text: `[${node.label ?? node.identifier}]: ` }]
      if (isSafeUrl(node.url) && node.url.length <= LONGEST_LINK) pushLink(elements, node.url, node.url, {})
      else pushText(elements, node.url, {})
      return pushSection(out, elements, ctx)
    }
    case 'footnoteDefinition': {
      const elements: Inline[] = [{ type: 'text', text: `[^${node.label ?? node.identifier}]: ` }]
      flatten(elements, node.children, ctx)
      return pushSection(out, elements, ctx)
    }
    default:
      return pushSection(out, [{ type: 'text', text: plainText(node as Nodes) }], ctx)
  }
}

function collectDefinitions(root: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>()
  const visit = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node)
    if ('children' in node) for (const child of node.children) visit(child as Nodes)
  }
  visit(root)
  return definitions
}

/**
 * The last few Markdown texts rendered, and their units. Parsing is the slow
 * part (micromark takes about a second per 100 KB of list-heavy Markdown on a
 * small machine), and one plan is rendered again for its settled state, its
 * form and its feedback modal. Callers get copies, so the cache stays pure.
 */
const recent = new Map<string, RichUnit[]>()
const RECENT_SIZE = 4

/** Markdown as block-level rich text units, each within `budget` characters. */
export function markdownUnits(markdown: string, budget: number = LIMIT.richTextElementText): RichUnit[] {
  const key = `${budget}:${markdown}`
  const hit = recent.get(key)
  if (hit !== undefined) {
    recent.delete(key)
    recent.set(key, hit)
    return structuredClone(hit)
  }
  const root = parseMarkdown(wellFormed(markdown))
  const ctx: Ctx = { definitions: collectDefinitions(root), budget }
  const out: RichUnit[] = []
  for (const node of root.children) block(out, node, ctx)
  recent.set(key, structuredClone(out))
  if (recent.size > RECENT_SIZE) recent.delete(recent.keys().next().value!)
  return out
}

/** Literal text (no Markdown) as rich text units, optionally styled (a question in bold). */
export function textUnits(text: string, style: Style = {}, budget: number = LIMIT.richTextElementText): RichUnit[] {
  const out: RichUnit[] = []
  const elements: Inline[] = []
  pushText(elements, wellFormed(text), style)
  pushSection(out, elements, { definitions: new Map(), budget })
  return out
}

/** Inline elements as rich text units (for callers that build their own lines). */
export function inlineUnits(elements: Inline[], budget: number = LIMIT.richTextElementText): RichUnit[] {
  const out: RichUnit[] = []
  pushSection(out, elements, { definitions: new Map(), budget })
  return out
}

/**
 * Packs units into as few blocks as fit `budget` characters each: consecutive
 * elements share a rich_text block, a thematic break is a divider block.
 * Adjacent sections are separated by a line break so paragraphs never run together.
 */
export function packUnits(units: RichUnit[], budget: number = LIMIT.richTextElementText): { block: ProseBlock; size: number }[] {
  const blocks: { block: ProseBlock; size: number }[] = []
  let elements: RichTextBlockElement[] = []
  let size = 0
  const close = () => {
    if (elements.length > 0) blocks.push({ block: { type: 'rich_text', elements }, size })
    elements = []
    size = 0
  }
  for (const unit of units) {
    if (unit.kind === 'divider') {
      close()
      blocks.push({ block: { type: 'divider' }, size: 0 })
      continue
    }
    const previous = elements[elements.length - 1]
    const joins = previous?.type === 'rich_text_section' && unit.element.type === 'rich_text_section'
    if (size + unit.size + (joins ? 1 : 0) > budget) {
      close()
      elements.push(unit.element)
      size = unit.size
      continue
    }
    // A fresh section, so the units passed in are never changed.
    if (joins) elements[elements.length - 1] = { ...previous, elements: [...previous.elements, { type: 'text', text: '\n' }] }
    elements.push(unit.element)
    size += unit.size + (joins ? 1 : 0)
  }
  close()
  return blocks
}
