/**
 * Block Kit's `table` block: rows of `raw_text` or `rich_text` cells, the
 * first row drawn as the header (as Slack does), each column aligned and
 * wrapped (or not) by `column_settings`. A wide table scrolls sideways inside
 * its own box, as in Slack's phone app, instead of widening the page.
 */
import { arr, el, isObj, str, type Obj } from './dom.js'
import { richText } from './rich-text.js'

function cellContent(cell: unknown): Node {
  if (!isObj(cell)) return document.createTextNode('')
  if (cell.type === 'rich_text') return richText(cell)
  return document.createTextNode(str(cell.text))
}

export function tableBlock(b: Obj): HTMLElement {
  const wrap = el('div', 'b-table-wrap')
  const table = el('table', 'b-table')
  const settings = arr(b.column_settings)
  arr(b.rows).forEach((row, rowIndex) => {
    const tr = el('tr')
    arr(row).forEach((cell, column) => {
      const td = el(rowIndex === 0 ? 'th' : 'td')
      const setting = settings[column]
      if (isObj(setting)) {
        if (setting.align === 'center' || setting.align === 'right') td.classList.add(`align-${setting.align}`)
        if (setting.is_wrapped === true) td.classList.add('wrap')
      }
      td.appendChild(cellContent(cell))
      tr.appendChild(td)
    })
    table.appendChild(tr)
  })
  wrap.appendChild(table)
  return wrap
}
