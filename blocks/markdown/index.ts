/** Markdown → Slack rich_text: parse with markdown-it (CommonMark + GFM) into mdast, render from the AST. */
import { LIMIT } from '../limits.js'
import { markdownUnits, type TableMode } from './rich-text.js'
import { packUnits, type ProseBlock } from './units.js'

export { parseMarkdown } from './parse.js'
export { markdownUnits, textUnits, treeUnits } from './rich-text.js'
export { plainText } from './inline.js'
export { packUnits } from './units.js'
export type { Inline } from './inline.js'
export type { MarkdownOptions, TableMode } from './rich-text.js'
export type { PackedBlock, ProseBlock, RichUnit } from './units.js'

/**
 * Markdown as the blocks of one message: rich_text and divider blocks of at
 * most `budget` characters each, and (with `tables: 'block'`) table blocks,
 * at most LIMIT.tablesPerMessage of them: later tables are monospace text.
 */
export function markdownBlocks(markdown: string, options: { budget?: number; tables?: TableMode } = {}): ProseBlock[] {
  const budget = options.budget ?? LIMIT.richTextElementText
  const blocks: ProseBlock[] = []
  let tables = 0
  for (const packed of packUnits(markdownUnits(markdown, options), budget)) {
    if (packed.block.type === 'table' && ++tables > LIMIT.tablesPerMessage) blocks.push(...(packed.fallback ?? []).map(({ block }) => block))
    else blocks.push(packed.block)
  }
  return blocks
}
