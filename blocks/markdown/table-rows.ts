/**
 * GFM table rows as written: markdown-it pads a body row that has fewer
 * cells than the header and drops the cells past the header's count (as
 * GFM's HTML does). The tree keeps the row as written, as micromark's does,
 * so the renderers can show every cell: a cell of agent text is never dropped.
 */
import type MarkdownIt from 'markdown-it'
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs'
import type Token from 'markdown-it/lib/token.mjs'
import { wrapBlockRule } from './wrap-rules.js'

/** A table row's cell sources: split at pipes not escaped with `\` (an escaped pipe loses its backslash), as markdown-it splits them. */
export function rowCells(line: string): string[] {
  const cells: string[] = []
  let current = ''
  let from = 0
  let escaped = false
  for (let pos = 0; pos < line.length; pos++) {
    const ch = line.charCodeAt(pos)
    if (ch === 0x7c /* | */) {
      if (escaped) {
        current += line.slice(from, pos - 1)
        from = pos
      } else {
        cells.push(current + line.slice(from, pos))
        current = ''
        from = pos + 1
      }
    }
    escaped = ch === 0x5c /* \ */
  }
  cells.push(current + line.slice(from))
  if (cells.length > 0 && cells[0] === '') cells.shift()
  if (cells.length > 0 && cells[cells.length - 1] === '') cells.pop()
  return cells
}

function cell(state: StateBlock, content: string): Token[] {
  const open = new state.Token('td_open', 'td', 1)
  const inline = new state.Token('inline', '', 0)
  inline.content = content.trim()
  inline.children = []
  return [open, inline, new state.Token('td_close', 'td', -1)]
}

/** Body rows' cells as written, after markdown-it's table rule made `columns` of each. */
function rewriteRows(state: StateBlock, from: number): void {
  const out: Token[] = []
  let inBody = false
  const tokens = state.tokens.slice(from)
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.type === 'tbody_open') inBody = true
    if (!inBody || token.type !== 'tr_open' || token.map === null) {
      out.push(token)
      continue
    }
    const line = token.map[0]
    const cells = rowCells(state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]).trim())
    out.push(token)
    let kept = 0
    i++
    // markdown-it's cells come as td_open, inline, td_close triples; keep as many as the row has.
    while (tokens[i]?.type === 'td_open') {
      if (kept < cells.length) out.push(tokens[i]!, tokens[i + 1]!, tokens[i + 2]!)
      kept++
      i += 3
    }
    for (let c = kept; c < cells.length; c++) out.push(...cell(state, cells[c]!))
    out.push(tokens[i]!)
  }
  // In place: the array is the core parser's too.
  state.tokens.length = from
  for (const token of out) state.tokens.push(token)
}

/** markdown-it's table rule, keeping each body row's cells as written. */
export function keepTableRows(md: MarkdownIt): void {
  wrapBlockRule(md, 'table', (table) => (state, startLine, endLine, silent) => {
    const from = state.tokens.length
    const found = table(state, startLine, endLine, silent)
    if (found && !silent) rewriteRows(state, from)
    return found
  })
}
