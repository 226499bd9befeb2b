/** Markdown → Slack rich_text: parse with micromark (CommonMark + GFM), render from the AST. */
import { LIMIT } from '../limits.js'
import { markdownUnits } from './rich-text.js'
import { packUnits, type ProseBlock } from './units.js'

export { parseMarkdown } from './parse.js'
export { markdownUnits, textUnits } from './rich-text.js'
export { plainText } from './inline.js'
export { packUnits } from './units.js'
export type { Inline } from './inline.js'
export type { ProseBlock, RichUnit } from './units.js'

/** Markdown as rich_text (and divider) blocks of at most `budget` characters each. */
export function markdownBlocks(markdown: string, budget: number = LIMIT.richTextElementText): ProseBlock[] {
  return packUnits(markdownUnits(markdown, budget), budget).map(({ block }) => block)
}
