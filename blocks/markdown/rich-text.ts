/**
 * Markdown → `rich_text` blocks. Why rich_text and not the `markdown` block or
 * mrkdwn: see blocks/README.md. In short: it renders the same on desktop and
 * phone, and its `text` elements are literal (mentions are separate element
 * types: `user`, `usergroup`, `broadcast`), so agent text cannot ping anyone.
 *
 * This file renders the block level (paragraphs, headings, lists, quotes,
 * code, definitions) into units; inline.ts renders what is inside a line,
 * table-block.ts tables as table blocks and table.ts as monospace text, and
 * units.ts keeps every unit within one block's text budget and packs units
 * into blocks.
 */
import type { Blockquote, Definition, Heading, List, ListItem, Nodes, Paragraph, Root, RootContent } from 'mdast'
import type { RichTextList, RichTextSection } from '@slack/types'
import { LIMIT } from '../limits.js'
import { shownText } from '../text.js'
import { type Inline, type InlineCtx, inlines, isClickable, nonEmpty, plainText, pushLink, pushText, sizeOf, splitInline, type Style } from './inline.js'
import { parseMarkdown } from './parse.js'
import { pushTable, tableText } from './table.js'
import { tableBlock } from './table-block.js'
import { pushPreformatted, pushSection, type RichUnit, section } from './units.js'

/**
 * How tables render: `block` as a `table` block where one fits (messages),
 * `text` always as aligned monospace text (modals, which take no table block).
 */
export type TableMode = 'block' | 'text'

interface Ctx extends InlineCtx {
  /** The most text one block-level element may carry. */
  budget: number
  /** Whether a table here may become a table block: not in a modal, not inside a list. */
  tableBlocks: boolean
}

/** A paragraph's or heading's inline elements: a heading is a bold line (rich_text has no heading). */
function phrasing(out: Inline[], node: Paragraph | Heading, ctx: Ctx): void {
  inlines(out, node.children, node.type === 'heading' ? { bold: true } : {}, ctx)
}

/** Flow content as inline elements, for places that hold only inline content (quotes). */
function flatten(out: Inline[], nodes: RootContent[], ctx: Ctx, prefix = ''): void {
  nodes.forEach((node, i) => {
    if (i > 0) pushText(out, '\n', {})
    if (prefix !== '') pushText(out, prefix, {})
    switch (node.type) {
      case 'paragraph':
      case 'heading':
        return phrasing(out, node, ctx)
      case 'list':
        return node.children.forEach((item, n) => {
          if (n > 0) pushText(out, '\n', {})
          pushText(out, `${prefix}${node.ordered ? `${(node.start ?? 1) + n}.` : '•'} ${taskMark(item)}`, {})
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
      case 'definition':
        return pushDefinition(out, node)
      default:
        return pushText(out, plainText(node as Nodes), {})
    }
  })
}

/** A link reference definition, shown, not hidden, wherever it stands: the reader sees every url a reference points at. */
function pushDefinition(out: Inline[], node: Definition): void {
  pushText(out, `[${node.label ?? node.identifier}]: `, {})
  if (isClickable(node.url)) pushLink(out, node.url, node.url, {})
  else pushText(out, node.url, {})
}

function quote(out: RichUnit[], node: Blockquote, ctx: Ctx): void {
  const elements: Inline[] = []
  flatten(elements, node.children, ctx)
  const kept = nonEmpty(elements)
  if (kept.length === 0) return
  for (const run of splitInline(kept, ctx.budget)) {
    out.push({ kind: 'element', element: { type: 'rich_text_quote', elements: run }, size: sizeOf(run) })
  }
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
    const kept = nonEmpty(elements)
    const content = kept.length === 0 ? [{ type: 'text', text: ' ' } as Inline] : kept
    const n = sizeOf(content)
    if (n > ctx.budget) {
      // One item longer than a block: the list breaks, the item's text follows as paragraphs.
      flush()
      pushSection(out, content, ctx.budget)
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
        phrasing(current, child, ctx)
        pending = true
        continue
      }
      if (pending || !emitted) emit(current)
      emitted = true
      current = []
      pending = false
      flush()
      if (child.type === 'list') list(out, child, indent + 1, ctx)
      // A table block would break the list in two: inside a list a table is monospace text.
      else block(out, child, { ...ctx, tableBlocks: false })
      first = next
    }
    if (pending || !emitted) emit(current)
  }
  flush()
}

function block(out: RichUnit[], node: RootContent, ctx: Ctx): void {
  switch (node.type) {
    case 'paragraph':
    case 'heading': {
      const elements: Inline[] = []
      phrasing(elements, node, ctx)
      return pushSection(out, elements, ctx.budget)
    }
    case 'code':
      return pushPreformatted(out, node.value, ctx.budget)
    case 'blockquote':
      return quote(out, node, ctx)
    case 'list':
      return list(out, node, 0, ctx)
    case 'table': {
      const fallback: RichUnit[] = []
      pushTable(fallback, node, ctx, ctx.budget)
      const table = ctx.tableBlocks ? tableBlock(node, ctx) : undefined
      if (table === undefined) out.push(...fallback)
      else out.push({ kind: 'table', block: table.block, size: table.size, fallback })
      return
    }
    case 'thematicBreak':
      out.push({ kind: 'divider' })
      return
    case 'html':
      return pushSection(out, [{ type: 'text', text: node.value }], ctx.budget)
    case 'definition': {
      const elements: Inline[] = []
      pushDefinition(elements, node)
      return pushSection(out, elements, ctx.budget)
    }
    case 'footnoteDefinition': {
      const elements: Inline[] = [{ type: 'text', text: `[^${node.label ?? node.identifier}]: ` }]
      flatten(elements, node.children, ctx)
      return pushSection(out, elements, ctx.budget)
    }
    default:
      return pushSection(out, [{ type: 'text', text: plainText(node as Nodes) }], ctx.budget)
  }
}

/** Where a definition can stand: flow content, so paragraphs, headings and tables (phrasing inside) are not searched. */
const HOLDS_FLOW = new Set(['root', 'blockquote', 'list', 'listItem', 'footnoteDefinition'])

function collectDefinitions(root: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>()
  const visit = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node)
    if (HOLDS_FLOW.has(node.type) && 'children' in node) for (const child of node.children) visit(child as Nodes)
  }
  visit(root)
  return definitions
}

/** How markdownUnits renders. */
export interface MarkdownOptions {
  /** The most text one block-level element may carry (default LIMIT.richTextElementText). */
  budget?: number
  /** Tables as table blocks where they fit, or always as monospace text (the default: any surface takes it). */
  tables?: TableMode
}

/** A parsed Markdown tree as block-level rich text units, each within the budget. */
export function treeUnits(root: Root, options: MarkdownOptions = {}): RichUnit[] {
  const ctx: Ctx = { definitions: collectDefinitions(root), budget: options.budget ?? LIMIT.richTextElementText, tableBlocks: (options.tables ?? 'text') === 'block' }
  const out: RichUnit[] = []
  for (const node of root.children) block(out, node, ctx)
  return out
}

/** Markdown as block-level rich text units, each within the budget. */
export function markdownUnits(markdown: string, options: MarkdownOptions = {}): RichUnit[] {
  return treeUnits(parseMarkdown(shownText(markdown)), options)
}

/** Literal text (no Markdown) as rich text units, optionally styled (a question in bold). */
export function textUnits(text: string, style: Style = {}, budget: number = LIMIT.richTextElementText): RichUnit[] {
  const out: RichUnit[] = []
  const elements: Inline[] = []
  pushText(elements, shownText(text), style)
  pushSection(out, elements, budget)
  return out
}

