/**
 * The two table blocks of a message, as the Block Kit checker (check.ts)
 * reads them: `table` (decision 0005) and `data_table` (decision 0077).
 * Both are messages only and count towards one table per message and one
 * 10,000-character budget for every table cell of the message.
 */
import { LIMIT } from './limits.js'
import { chars, fail, isObj, list, str, type Ctx, type Obj } from './check-core.js'

/** Checks one rich_text element (a section, list, quote or preformatted box) of a cell. */
export type RichCheck = (element: Obj, path: string) => void

const TABLE_ALIGN = new Set(['left', 'center', 'right'])

/** Messages only, and at most LIMIT.tablesPerMessage tables of either kind. */
function countTable(ctx: Ctx, path: string, kind: 'table' | 'data_table'): boolean {
  if (ctx.surface !== 'message') {
    fail(ctx, `${path}/type`, `unsupported type: ${kind} (${kind} blocks are only allowed in messages)`)
    return false
  }
  ctx.tables += 1
  if (ctx.tables > LIMIT.tablesPerMessage) fail(ctx, `${path}/type`, `no more than ${LIMIT.tablesPerMessage} table block allowed per message`)
  return true
}

/** A rich_text cell: its elements, its characters counted as cell text. */
function richCell(ctx: Ctx, cell: Obj, at: string, rich: RichCheck): void {
  for (const [el, elAt] of list(ctx, cell, 'elements', at, Number.MAX_SAFE_INTEGER)) rich(el, elAt)
}

/** The cells' characters, against the table's own cap and the message's. */
function cellBudget(ctx: Ctx, path: string, cellText: number, max: number): void {
  if (cellText > max) fail(ctx, `${path}/rows`, `table cells must be less than ${max + 1} characters in total`)
  ctx.tableText += cellText
  if (ctx.tableText > max && cellText <= max) fail(ctx, `${path}/rows`, `table cells of one message must be less than ${max + 1} characters in total`)
}

/**
 * A `table` block: rows of raw_text or rich_text cells (Block Kit
 * reference), at most LIMIT.tableText characters of cell text.
 */
export function table(ctx: Ctx, b: Obj, path: string, rich: RichCheck): void {
  if (!countTable(ctx, path, 'table')) return
  const rows = b.rows
  if (!Array.isArray(rows)) return fail(ctx, rows === undefined ? path : `${path}/rows`, rows === undefined ? 'missing required field: rows' : 'must be an array')
  if (rows.length === 0) fail(ctx, `${path}/rows`, 'must have at least 1 item')
  if (rows.length > LIMIT.tableRows) fail(ctx, `${path}/rows`, `no more than ${LIMIT.tableRows} items allowed`)
  const textBefore = ctx.textTotal
  rows.forEach((row, r) => {
    const at = `${path}/rows/${r}`
    if (!Array.isArray(row)) return fail(ctx, at, 'must be an array')
    if (row.length === 0) fail(ctx, at, 'must have at least 1 item')
    if (row.length > LIMIT.tableCells) fail(ctx, at, `no more than ${LIMIT.tableCells} items allowed`)
    row.forEach((cell, c) => {
      const cellAt = `${at}/${c}`
      if (!isObj(cell)) return fail(ctx, cellAt, 'must be an object')
      if (cell.type === 'raw_text') {
        const s = str(ctx, cell, 'text', cellAt, Number.MAX_SAFE_INTEGER)
        if (s !== undefined) ctx.textTotal += chars(s)
      } else if (cell.type === 'rich_text') richCell(ctx, cell, cellAt, rich)
      else fail(ctx, `${cellAt}/type`, 'must be one of: raw_text, rich_text')
    })
  })
  cellBudget(ctx, path, ctx.textTotal - textBefore, LIMIT.tableText)
  for (const [setting, at] of list(ctx, b, 'column_settings', path, LIMIT.tableColumnSettings, true)) {
    if (setting.align !== undefined && !TABLE_ALIGN.has(String(setting.align))) fail(ctx, `${at}/align`, 'must be one of: left, center, right')
    if (setting.is_wrapped !== undefined && typeof setting.is_wrapped !== 'boolean') fail(ctx, `${at}/is_wrapped`, 'must be a boolean')
  }
}

/** An integer field within [min, max], when present. */
function integer(ctx: Ctx, b: Obj, key: string, path: string, min: number, max: number): void {
  const n = b[key]
  if (n === undefined) return
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) fail(ctx, `${path}/${key}`, `must be an integer from ${min} to ${max}`)
}

/**
 * A `data_table` block (Block Kit reference, "Data table block"): a required
 * `caption`; 2 to LIMIT.dataTableRows rows (the first is the header), every
 * row the same length, 1 to LIMIT.dataTableColumns cells; cells `raw_text`
 * (a text of at least 1 character), `raw_number` (a numeric `value`, an
 * optional text) or `rich_text`, but no `rich_text` in the header;
 * `page_size` 1 to LIMIT.dataTablePageSizeMax; at most LIMIT.dataTableText
 * characters of cell text. Assumed where the reference is silent: messages
 * only, like `table`; a caption of 1 to LIMIT.sectionText characters;
 * `row_header_column_index` names one of the columns; a raw_number's text
 * counts as cell text.
 */
export function dataTable(ctx: Ctx, b: Obj, path: string, rich: RichCheck): void {
  if (!countTable(ctx, path, 'data_table')) return
  str(ctx, b, 'caption', path, LIMIT.sectionText)
  integer(ctx, b, 'page_size', path, 1, LIMIT.dataTablePageSizeMax)
  const rows = b.rows
  if (!Array.isArray(rows)) return fail(ctx, rows === undefined ? path : `${path}/rows`, rows === undefined ? 'missing required field: rows' : 'must be an array')
  if (rows.length < 2) fail(ctx, `${path}/rows`, 'must have at least 2 items (a header and a row)')
  if (rows.length > LIMIT.dataTableRows) fail(ctx, `${path}/rows`, `no more than ${LIMIT.dataTableRows} items allowed`)
  const width = Array.isArray(rows[0]) ? rows[0].length : 0
  integer(ctx, b, 'row_header_column_index', path, 0, Math.max(0, width - 1))
  const textBefore = ctx.textTotal
  rows.forEach((row, r) => {
    const at = `${path}/rows/${r}`
    if (!Array.isArray(row)) return fail(ctx, at, 'must be an array')
    if (row.length === 0) fail(ctx, at, 'must have at least 1 item')
    if (row.length > LIMIT.dataTableColumns) fail(ctx, at, `no more than ${LIMIT.dataTableColumns} items allowed`)
    if (r > 0 && row.length !== width) fail(ctx, at, `must have as many items as the header row (${width})`)
    row.forEach((cell, c) => {
      const cellAt = `${at}/${c}`
      if (!isObj(cell)) return fail(ctx, cellAt, 'must be an object')
      if (cell.type === 'raw_text') {
        const s = str(ctx, cell, 'text', cellAt, Number.MAX_SAFE_INTEGER)
        if (s !== undefined) ctx.textTotal += chars(s)
      } else if (cell.type === 'raw_number') {
        if (typeof cell.value !== 'number' || !Number.isFinite(cell.value)) fail(ctx, `${cellAt}/value`, 'must be a number')
        const s = str(ctx, cell, 'text', cellAt, Number.MAX_SAFE_INTEGER, true)
        if (s !== undefined) ctx.textTotal += chars(s)
      } else if (cell.type === 'rich_text') {
        if (r === 0) fail(ctx, `${cellAt}/type`, 'rich_text cannot be used in the header row')
        else richCell(ctx, cell, cellAt, rich)
      } else fail(ctx, `${cellAt}/type`, 'must be one of: raw_text, raw_number, rich_text')
    })
  })
  cellBudget(ctx, path, ctx.textTotal - textBefore, LIMIT.dataTableText)
}
