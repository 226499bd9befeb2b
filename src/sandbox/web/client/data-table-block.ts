/**
 * Block Kit's `data_table` block: its caption, the header row, and the rows
 * a page at a time (`page_size`, 5 when absent, as Slack's default) with
 * Previous and Next, as Slack pages it. Sorting and filtering, which Slack
 * offers, are left out: the stand-in shows what the app sent.
 */
import { arr, el, isObj, str, type Obj } from './dom.js'
import { richText } from './rich-text.js'

function cellContent(cell: unknown): Node {
  if (!isObj(cell)) return document.createTextNode('')
  if (cell.type === 'rich_text') return richText(cell)
  if (cell.type === 'raw_number') return document.createTextNode(str(cell.text) || String(cell.value))
  return document.createTextNode(str(cell.text))
}

function row(cells: unknown, tag: 'th' | 'td'): HTMLElement {
  const tr = el('tr')
  for (const cell of arr(cells)) {
    const td = el(tag)
    td.appendChild(cellContent(cell))
    tr.appendChild(td)
  }
  return tr
}

export function dataTableBlock(b: Obj): HTMLElement {
  const wrap = el('div', 'b-table-wrap b-data-table')
  const rows = arr(b.rows)
  const size = typeof b.page_size === 'number' && b.page_size > 0 ? b.page_size : 5
  const body = rows.slice(1)
  const pages = Math.max(1, Math.ceil(body.length / size))
  const table = el('table', 'b-table')
  const caption = el('caption', 'b-data-table-caption', str(b.caption))
  const pager = el('div', 'b-data-table-pager')
  const previous = el('button', 'btn', '‹')
  const next = el('button', 'btn', '›')
  const where = el('span', 'b-data-table-page')
  let page = 0
  const draw = (): void => {
    table.replaceChildren(caption, row(rows[0], 'th'))
    for (const cells of body.slice(page * size, (page + 1) * size)) table.appendChild(row(cells, 'td'))
    where.textContent = `${page * size + 1}–${Math.min(body.length, (page + 1) * size)} of ${body.length}`
    previous.disabled = page === 0
    next.disabled = page >= pages - 1
  }
  previous.type = next.type = 'button'
  previous.addEventListener('click', () => ((page = Math.max(0, page - 1)), draw()))
  next.addEventListener('click', () => ((page = Math.min(pages - 1, page + 1)), draw()))
  draw()
  wrap.appendChild(table)
  if (pages > 1) {
    pager.append(previous, where, next)
    wrap.appendChild(pager)
  }
  return wrap
}
