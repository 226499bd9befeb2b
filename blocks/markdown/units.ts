/**
 * Rich text units: block-level elements that each fit one block's text
 * budget, and the packing of units into as few `rich_text` blocks as fit.
 * Whatever is too long for one element is split here at element boundaries
 * (inline runs, code lines), never cut.
 */
import type { DataTableBlock, DividerBlock, RichTextBlock, RichTextBlockElement, RichTextSection, TableBlock } from '@slack/types'
import { LIMIT } from '../limits.js'
import { chunkText } from '../text.js'
import { type Inline, nonEmpty, sizeOf, splitInline } from './inline.js'

/**
 * One block-level piece of rendered Markdown, within the block budget: a
 * rich text element, a divider, or a table block with its monospace
 * rendering as the fallback (for a message that holds a table already).
 */
export type RichUnit =
  | { kind: 'element'; element: RichTextBlockElement; size: number }
  | { kind: 'divider' }
  | { kind: 'table'; block: TableBlock | DataTableBlock; size: number; fallback: RichUnit[] }

/** A block rendered from Markdown: a rich_text block, a divider (thematic break) or a table (`table`, or `data_table` past its rows). */
export type ProseBlock = RichTextBlock | DividerBlock | TableBlock | DataTableBlock

/** A packed block, its text size, and for a table the blocks that replace it where a table cannot go. */
export interface PackedBlock {
  block: ProseBlock
  size: number
  fallback?: PackedBlock[]
}

export function section(elements: Inline[]): RichTextSection {
  return { type: 'rich_text_section', elements }
}

/** Inline elements as one section, or as several when they exceed `budget`. */
export function pushSection(out: RichUnit[], elements: Inline[], budget: number): void {
  const kept = nonEmpty(elements)
  if (kept.length === 0) return
  const size = sizeOf(kept)
  if (size <= budget) {
    out.push({ kind: 'element', element: section(kept), size })
    return
  }
  for (const run of splitInline(kept, budget)) out.push({ kind: 'element', element: section(run), size: sizeOf(run) })
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

/** Verbatim text as preformatted boxes, each within `budget` (each part its own box, so no fence is left open). */
export function pushPreformatted(out: RichUnit[], value: string, budget: number): void {
  for (const chunk of codeChunks(value, budget)) {
    out.push({ kind: 'element', element: { type: 'rich_text_preformatted', elements: [{ type: 'text', text: chunk }] }, size: chunk.length })
  }
}

/** Inline elements as rich text units (for callers that build their own lines). */
export function inlineUnits(elements: Inline[], budget: number = LIMIT.richTextElementText): RichUnit[] {
  const out: RichUnit[] = []
  pushSection(out, elements, budget)
  return out
}

/**
 * Packs units into as few blocks as fit `budget` characters each: consecutive
 * elements share a rich_text block, a thematic break is a divider block, a
 * table is a block of its own (carrying its packed fallback).
 * Adjacent sections are separated by a line break so paragraphs never run together.
 */
export function packUnits(units: RichUnit[], budget: number = LIMIT.richTextElementText): PackedBlock[] {
  const blocks: PackedBlock[] = []
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
    if (unit.kind === 'table') {
      close()
      blocks.push({ block: unit.block, size: unit.size, fallback: packUnits(unit.fallback, budget) })
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
