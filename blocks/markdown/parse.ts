/**
 * Markdown in, mdast out: CommonMark plus GFM (tables, strikethrough, task
 * lists, autolinks, footnotes) through micromark, never regexes (STYLE.md §3).
 */
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'
import type { Root } from 'mdast'

export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
}
