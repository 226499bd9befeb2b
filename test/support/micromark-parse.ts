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

/**
 * The oracle's tree, or undefined where micromark cannot be the oracle:
 * its GFM task-list extension misreads a task marker on the line after an
 * empty list item (`*\n[ ] word`). The development build tests load fails
 * its own assertion there; the production build returns a wrong tree.
 */
export function micromarkParseIfSound(markdown: string): Root | undefined {
  try {
    return micromarkParse(markdown)
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_ASSERTION') return undefined
    throw error
  }
}
