/**
 * The `markdown` block: standard Markdown as Slack renders it (headings,
 * lists, quotes, fenced code, tables, links, emphasis). A line-based reader
 * is enough here: the text comes from our own renderer or from an app
 * under test, and every piece still goes in as text.
 */
import { el, link, str } from './dom.js'

const LIST = /^\s*([-*+]|\d+[.)])\s+/
const FENCE = /^\s*```/
const HEADING = /^(#{1,6})\s+(.*)$/
const TABLE_ROW = /^\s*\|/
const TABLE_RULE = /^\s*\|?\s*:?-{2,}/
const PARAGRAPH_END = /^(#{1,6}\s|>|\s*\|)/

export function markdownBlock(text: unknown): HTMLElement {
  const root = el('div', 'md')
  const lines = str(text).split('\n')
  let i = 0
  const at = (index: number): string => lines[index] ?? ''
  while (i < lines.length) {
    const line = at(i)
    const heading = HEADING.exec(line)
    const buf: string[] = []
    if (FENCE.test(line)) {
      for (i++; i < lines.length && !FENCE.test(at(i)); i++) buf.push(at(i))
      i++
      root.appendChild(el('pre', 'code', buf.join('\n')))
    } else if (heading) {
      const level = Math.min(4, heading[1]!.length) as 1 | 2 | 3 | 4
      const node = el(`h${level}`)
      mdInline(heading[2]!, node)
      root.appendChild(node)
      i++
    } else if (TABLE_ROW.test(line)) {
      for (; i < lines.length && TABLE_ROW.test(at(i)); i++) buf.push(at(i))
      root.appendChild(mdTable(buf))
    } else if (LIST.test(line)) {
      const list = /^\s*\d/.test(line) ? el('ol') : el('ul')
      for (; i < lines.length && LIST.test(at(i)); i++) {
        const li = el('li')
        mdInline(at(i).replace(LIST, ''), li)
        list.appendChild(li)
      }
      root.appendChild(list)
    } else if (line.startsWith('>')) {
      for (; i < lines.length && at(i).startsWith('>'); i++) buf.push(at(i).replace(/^>\s?/, ''))
      const quote = el('blockquote')
      mdInline(buf.join('\n'), quote)
      root.appendChild(quote)
    } else if (line.trim() === '') {
      i++
    } else {
      buf.push(line)
      for (i++; i < lines.length && at(i).trim() !== '' && !PARAGRAPH_END.test(at(i)) && !FENCE.test(at(i)) && !LIST.test(at(i)); i++) buf.push(at(i))
      const p = el('p')
      mdInline(buf.join('\n'), p)
      root.appendChild(p)
    }
  }
  return root
}

const INLINE = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)|([*_])([^*_\n]+)\5|~~([^~\n]+)~~/g

function mdInline(text: string, parent: HTMLElement): void {
  const re = new RegExp(INLINE.source, 'g')
  let last = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    const [, code, bold, label, url, , emphasis, strike] = m
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)))
    if (code !== undefined) parent.appendChild(el('code', null, code))
    else if (bold !== undefined) {
      const b = el('strong')
      mdInline(bold, b)
      parent.appendChild(b)
    } else if (label !== undefined) parent.appendChild(link(url ?? '', label))
    else if (emphasis !== undefined) {
      const em = el('em')
      mdInline(emphasis, em)
      parent.appendChild(em)
    } else parent.appendChild(el('span', 'strike', strike ?? ''))
    last = re.lastIndex
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)))
}

function mdTable(rows: string[]): HTMLElement {
  const table = el('table')
  const cells = (row: string): string[] => row.trim().replace(/^\||\|$/g, '').split('|')
  rows.forEach((row, index) => {
    if (TABLE_RULE.test(row)) return
    const tr = el('tr')
    for (const cell of cells(row)) {
      const td = el(index === 0 ? 'th' : 'td')
      mdInline(cell.trim(), td)
      tr.appendChild(td)
    }
    table.appendChild(tr)
  })
  return table
}
