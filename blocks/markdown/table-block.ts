/**
 * GFM tables as Slack's `table` block: a real grid on desktop and phone,
 * when the table fits the block's limits. Otherwise (and wherever a block
 * cannot go: inside a list or a quote, in a modal) table.ts draws it as
 * aligned monospace text, which is also kept here as the block's fallback:
 * the layout uses it for a second table in the same message, which Slack
 * refuses (LIMIT.tablesPerMessage).
 *
 * A table with one row more than a `table` block holds, but within a
 * `data_table`'s limits, is a `data_table` (decision 0077): Slack pages it
 * (LIMIT.dataTablePageSize rows a page) and it has no column alignment or
 * wrapping, so the `table` block stays wherever it fits.
 *
 * The block goes in the message's `blocks`, in place among the plan's other
 * blocks. The reference describes posting tables in `attachments`, which
 * Slack draws after every block (a table would leave its plan); Slack
 * validates tables in `blocks` too (its errors point at
 * `/blocks/N/rows/…`), and other Slack apps post them there.
 */
import type { AlignType, Table } from 'mdast'
import type { DataTableBlock, RichTextBlock, TableBlock } from '@slack/types'
import { LIMIT } from '../limits.js'
import { type Inline, type InlineCtx, inlines, nonEmpty, sizeOf } from './inline.js'
import { displayWidth } from './table.js'

type ColumnSetting = NonNullable<TableBlock['column_settings']>[number]

/** A cell's inline elements; Slack refuses an empty text, so an empty cell holds one space. */
function cellElements(cell: Table['children'][number]['children'][number] | undefined, header: boolean, ctx: InlineCtx): Inline[] {
  const elements: Inline[] = []
  // The header row in bold: it reads as a header whether or not a client styles the first row.
  if (cell !== undefined) inlines(elements, cell.children, header ? { bold: true } : {}, ctx)
  const kept = nonEmpty(elements)
  return kept.length === 0 ? [{ type: 'text', text: ' ' }] : kept
}

/** Display width of a cell's text on one line (links count their label). */
function cellWidth(elements: Inline[]): number {
  let width = 0
  for (const el of elements) width += displayWidth(el.type === 'text' ? el.text : (el.text ?? el.url))
  return width
}

function richCell(elements: Inline[]): RichTextBlock {
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] }
}

/**
 * One setting per column, up to the last column that needs one: its
 * alignment and, for a wide column, wrapping. Every entry is an object with
 * an `align`: the reference says `null` skips a column, but Slack refuses
 * a `null` there ("must provide an object").
 */
function columnSettings(align: AlignType[], widths: number[]): ColumnSetting[] | undefined {
  const settings: ColumnSetting[] = widths.map((width, c) => {
    const setting: ColumnSetting = { align: align[c] ?? 'left' }
    if (width > LIMIT.tableWrapWidth) setting.is_wrapped = true
    return setting
  })
  while (settings.length > 0 && settings[settings.length - 1]!.align === 'left' && settings[settings.length - 1]!.is_wrapped !== true) settings.pop()
  return settings.length === 0 ? undefined : settings
}

/** Plain text of a cell's inline elements (a data_table's header takes no rich_text). */
function plainOf(elements: Inline[]): string {
  return elements.map((el) => (el.type === 'text' ? el.text : (el.text ?? el.url))).join('')
}

/**
 * The rows as a `data_table`: a raw_text header (the reference allows no
 * rich_text there; not bold, since raw_text has no style), rich_text cells
 * below, LIMIT.dataTablePageSize rows a page, the header row's text as its
 * caption (required; screen readers read it as the table's name).
 */
function dataTable(cells: Inline[][][], locale: { caption: string }): DataTableBlock {
  const [header = [], ...body] = cells
  return {
    type: 'data_table',
    caption: locale.caption,
    page_size: Math.min(LIMIT.dataTablePageSize, body.length),
    rows: [header.map((elements) => ({ type: 'raw_text', text: plainOf(elements).trim() === '' ? ' ' : plainOf(elements) })), ...body.map((line) => line.map(richCell))],
  }
}

/** A data_table's caption: its header cells, joined, within a section's text. */
function captionOf(header: Inline[][]): string {
  const text = header.map(plainOf).map((t) => t.trim()).filter((t) => t !== '').join(' · ')
  return text === '' ? 'Table' : text.length > LIMIT.contextField ? `${text.slice(0, LIMIT.contextField - 1)}…` : text
}

/**
 * A GFM table as a `table` block with rich_text cells (so bold, code and
 * links show as they do in the rest of the plan), or, with one row more
 * than a `table` block takes, a `data_table`; `undefined` when it fits
 * neither: more than LIMIT.dataTableRows rows, LIMIT.tableCells columns or
 * LIMIT.tableText characters (the data_table's caps are the same), or a cell
 * longer than LIMIT.richTextElementText. Short rows are filled with empty
 * cells, so every row has as many cells as the widest (nothing is dropped).
 */
export function tableBlock(node: Table, ctx: InlineCtx): { block: TableBlock | DataTableBlock; size: number } | undefined {
  const rows = node.children
  if (rows.length === 0 || rows.length > Math.max(LIMIT.tableRows, LIMIT.dataTableRows)) return undefined
  let columns = 0
  for (const row of rows) columns = Math.max(columns, row.children.length)
  if (columns === 0 || columns > Math.min(LIMIT.tableCells, LIMIT.dataTableColumns)) return undefined
  const widths: number[] = Array.from({ length: columns }, () => 0)
  let size = 0
  const cells: Inline[][][] = []
  for (const [r, row] of rows.entries()) {
    const line: Inline[][] = []
    for (let c = 0; c < columns; c++) {
      const elements = cellElements(row.children[c], r === 0 && rows.length <= LIMIT.tableRows, ctx)
      const n = sizeOf(elements)
      size += n
      // A cell is one rich_text section: no longer than one (an absurd cell makes the table monospace).
      if (size > Math.min(LIMIT.tableText, LIMIT.dataTableText) || n > LIMIT.richTextElementText) return undefined
      widths[c] = Math.max(widths[c]!, cellWidth(elements))
      line.push(elements)
    }
    cells.push(line)
  }
  if (rows.length > LIMIT.tableRows) return { block: dataTable(cells, { caption: captionOf(cells[0]!) }), size: size + captionOf(cells[0]!).length }
  const block: TableBlock = { type: 'table', rows: cells.map((line) => line.map(richCell)) }
  const settings = columnSettings(node.align ?? [], widths)
  if (settings !== undefined) block.column_settings = settings
  return { block, size }
}
