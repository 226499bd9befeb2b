/** Markdown → Slack rich_text: parse with micromark (CommonMark + GFM), render from the AST. */
import { LIMIT } from '../limits.js'
import { markdownUnits, packUnits, type ProseBlock } from './rich-text.js'

export { parseMarkdown } from './parse.js'
export { markdownUnits, packUnits, textUnits, plainText } from './rich-text.js'
export type { ProseBlock, RichUnit, Inline } from './rich-text.js'

/** Markdown as rich_text (and divider) blocks of at most `budget` characters each. */
export function markdownBlocks(markdown: string, budget: number = LIMIT.richTextElementText): ProseBlock[] {
  return packUnits(markdownUnits(markdown, budget), budget).map(({ block }) => block)
}
