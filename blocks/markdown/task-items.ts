/**
 * GFM task list items: a list item whose first paragraph starts with `[ ]`,
 * `[x]` or `[X]` followed by a line ending, or by spaces and more text, is
 * checked or not, and the check (with the one character after it) leaves the
 * text. GFM reads the check before inline content, so `[x]` is a check even
 * where a link reference `x` is defined: the marker is taken off each such
 * paragraph before markdown-it parses its inline content.
 */
import type MarkdownIt from 'markdown-it'

/** What a `list_item_open` token of a task item carries in its `meta`. */
export interface TaskItemMeta {
  checked: boolean
}

/** Whether a paragraph's source starts with a task marker, and which. */
function taskMarker(source: string): boolean | undefined {
  if (source.length < 4 || source.charCodeAt(0) !== 0x5b /* [ */ || source.charCodeAt(2) !== 0x5d /* ] */) return undefined
  const value = source[1]
  if (value !== ' ' && value !== '\t' && value !== '\n' && value !== 'x' && value !== 'X') return undefined
  const after = source[3]
  if (after !== '\n' && after !== ' ' && after !== '\t') return undefined
  if (after !== '\n' && source.slice(3).trim() === '') return undefined
  return value === 'x' || value === 'X'
}

export function gfmTaskItems(md: MarkdownIt): void {
  md.core.ruler.before('inline', 'gfm_task_items', (state) => {
    const tokens = state.tokens
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i]!
      const item = tokens[i - 2]!
      if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || item.type !== 'list_item_open') continue
      const checked = taskMarker(inline.content)
      if (checked === undefined) continue
      item.meta = { checked } satisfies TaskItemMeta
      inline.content = inline.content.slice(4)
    }
  })
}
