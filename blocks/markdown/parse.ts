/**
 * Markdown in, mdast out: CommonMark plus GFM (tables, strikethrough, task
 * lists, autolinks, footnotes) through markdown-it's tokenizer, never regexes
 * (STYLE.md §3). markdown-it.ts says how it is set up to read as GFM does.
 */
import type { Root } from 'mdast'
import { markdownTokens } from './markdown-it.js'
import { mdastFromTokens } from './mdast-from-tokens.js'

export function parseMarkdown(markdown: string): Root {
  return mdastFromTokens(markdownTokens(markdown))
}
