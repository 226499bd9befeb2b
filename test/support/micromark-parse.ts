/**
 * The parser blocks/ used before markdown-it: micromark with its GFM
 * extensions. Kept as the oracle of the parse equivalence tests only (it
 * is a dev dependency): about a second per 100 KB plan is too slow to serve.
 */
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'
import type { Nodes, Root } from 'mdast'

export function micromarkParse(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })
}

/**
 * The oracle's tree, or undefined where micromark cannot be the oracle:
 * - its GFM task-list extension misreads a task marker on the line after an
 *   empty list item (`*\n[ ] word`). The development build tests load fails
 *   its own assertion there; the production build returns a wrong tree.
 * - it reads some lists as paragraphs, as if they interrupted one: an
 *   ordered list starting past 1 right after indented code
 *   (`    code\n\n2. word`) or opening a new list item or block quote right
 *   after a paragraph (`word\n* 2) item`). CommonMark and markdown-it make
 *   them lists, and the words shown differ where the list item holds a task
 *   marker (text on one side, a checkbox on the other) or a fence's info
 *   string (text on one side, never shown on the other).
 */
export function micromarkParseIfSound(markdown: string): Root | undefined {
  let root: Root
  try {
    root = micromarkParse(markdown)
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_ASSERTION') return undefined
    throw error
  }
  return opensParagraphWithListMarker(root, markdown) ? undefined : root
}

/** A list marker: up to three spaces, `-`, `*`, `+` or one to nine digits with `.` or `)`, then a space, a tab or the line's end. */
const LIST_MARKER = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/

/**
 * Whether micromark's tree has a paragraph whose first line opens with a
 * list marker. CommonMark never has one: such a line starts a list, unless it
 * would interrupt a paragraph, and then it is not a paragraph's first line.
 */
function opensParagraphWithListMarker(root: Root, markdown: string): boolean {
  const visit = (node: Nodes): boolean => {
    if (node.type === 'paragraph') {
      const firstLine = markdown.slice(node.position?.start.offset ?? 0).split('\n', 1)[0]!
      if (LIST_MARKER.test(firstLine)) return true
    }
    return 'children' in node && (node.children as Nodes[]).some(visit)
  }
  return visit(root)
}
