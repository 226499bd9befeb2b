/**
 * GFM tables as aligned monospace text: the fallback of the `table` block
 * (table-block.ts) wherever one cannot go (past its limits, inside a list or
 * a quote, in a modal, a second table in a message). rich_text has no table
 * element, and the `markdown` block's table rendering on phones is
 * unverified (README.md).
 */
import type { AlignType, PhrasingContent, Table } from 'mdast'
import { type InlineCtx, inlines, type Inline } from './inline.js'
import { pushPreformatted, type RichUnit } from './units.js'

// East Asian wide and fullwidth ranges (and emoji) take two cells in a monospace font.
const WIDE = /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{1F300}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u
const ZERO_WIDTH = /\p{Mn}|\p{Me}|\u200B|\u200D|\uFE0F/u

/** Display width of text in a monospace font: wide characters count twice, combining marks not at all. */
export function displayWidth(text: string): number {
  let width = 0
  for (const ch of text) width += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1
  return width
}

function pad(text: string, width: number, align: AlignType): string {
  const gap = Math.max(0, width - displayWidth(text))
  if (align === 'right') return ' '.repeat(gap) + text
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(gap - Math.floor(gap / 2))
  return text + ' '.repeat(gap)
}

/**
 * Rows of cell texts (the first row is the header) as lines of aligned text:
 * `| a | b |` with a rule under the header. Newlines in cells become spaces.
 */
export function tableLines(rows: string[][], align: AlignType[]): string[] {
  const clean = rows.map((row) => row.map((cell) => cell.replace(/\s*\n\s*/g, ' ')))
  // Loops, not Math.max(...rows): a table of 100k rows would overflow the argument list.
  let columns = 0
  for (const row of clean) columns = Math.max(columns, row.length)
  const widths: number[] = Array.from({ length: columns }, () => 1)
  for (const row of clean) row.forEach((cell, c) => (widths[c] = Math.max(widths[c] ?? 1, displayWidth(cell))))
  const line = (row: string[]) => `| ${widths.map((w, c) => pad(row[c] ?? '', w, align[c] ?? null)).join(' | ')} |`
  const rule = `|${widths.map((w, c) => (align[c] === 'center' ? `:${'-'.repeat(w)}:` : align[c] === 'right' ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`
  const [header, ...body] = clean
  return header === undefined ? [] : [line(header), rule, ...body.map(line)]
}

/** A table cell's text: links keep their urls visible (a cell is shown as plain monospace text). */
function cellText(children: PhrasingContent[], ctx: InlineCtx): string {
  const elements: Inline[] = []
  inlines(elements, children, {}, ctx)
  return elements.map((el) => (el.type === 'text' ? el.text : el.text === el.url ? el.url : `${el.text} (${el.url})`)).join('')
}

/** A GFM table as lines of aligned text, header and rule first. */
export function tableText(node: Table, ctx: InlineCtx): string[] {
  const rows = node.children.map((row) => row.children.map((cell) => cellText(cell.children, ctx)))
  return tableLines(rows, node.align ?? [])
}

/** A GFM table as preformatted boxes within `budget`, split between rows. */
export function pushTable(out: RichUnit[], node: Table, ctx: InlineCtx, budget: number): void {
  const lines = tableText(node, ctx)
  const head = lines.slice(0, 2).join('\n')
  const body = lines.slice(2)
  // Each part of a long table repeats the header, so every part reads on its own.
  const room = budget - head.length - 1
  if (room < budget / 4) return pushPreformatted(out, lines.join('\n'), budget)
  let rows: string[] = []
  let size = 0
  const flush = () => {
    pushPreformatted(out, rows.length === 0 ? head : `${head}\n${rows.join('\n')}`, budget)
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
