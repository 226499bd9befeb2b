/**
 * The parser blocks/ used before markdown-it: micromark with its GFM
 * extensions. Kept as the oracle of the parse equivalence tests only (it
 * is a dev dependency): about a second per 100 KB plan is too slow to serve.
 */
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'
import type { Root } from 'mdast'

export function micromarkParse(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
}
