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
 * where it fails its own assertion, or where one of `MICROMARK_QUIRKS`
 * holds and the words shown would differ for micromark's sake.
 */
export function micromarkParseIfSound(markdown: string): Root | undefined {
  let root: Root
  try {
    root = micromarkParse(markdown)
  } catch (error) {
    // Its GFM task-list extension misreads a task marker on the line after an
    // empty list item (`*\n[ ] word`): the development build tests load fails
    // its own assertion there, the production build returns a wrong tree.
    if ((error as { code?: unknown }).code === 'ERR_ASSERTION') return undefined
    throw error
  }
  return Object.values(MICROMARK_QUIRKS).some((quirk) => quirk(root, markdown)) ? undefined : root
}

type Quirk = (root: Root, markdown: string) => boolean

/** Every node of a tree, depth first. */
function* nodesOf(node: Nodes): Generator<Nodes> {
  yield node
  if ('children' in node) for (const child of node.children as Nodes[]) yield* nodesOf(child)
}

/** The source from a node's start to the end of its first line. */
function firstLine(node: Nodes, markdown: string): string {
  return markdown.slice(node.position?.start.offset ?? 0).split('\n', 1)[0]!
}

/** A list marker: up to three spaces, `-`, `*`, `+` or one to nine digits with `.` or `)`, then a space, a tab or the line's end. */
const LIST_MARKER = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/

/** A GFM task marker and what must follow it: spaces and more text, or the line's end. */
const TASK_MARKER = /^\[[ \txX]\](?:[ \t]+\S|[ \t]*$)/

/** A label as mdast's `identifier` holds it. */
function identifierOf(label: string): string {
  return label.replace(/[\t\n\r ]+/g, ' ').trim().toLowerCase()
}

/**
 * Where micromark reads Markdown otherwise than CommonMark, GFM or their
 * reference implementations, in ways that change the words shown. Each has
 * a test in parse-equivalence.test.ts ("where micromark cannot be the oracle").
 */
export const MICROMARK_QUIRKS: Record<string, Quirk> = {
  /**
   * Some lists read as paragraphs, as if they interrupted one: an ordered
   * list starting past 1 right after indented code (`    code\n\n2. word`),
   * or opening a new list item or block quote right after a paragraph
   * (`word\n* 2) item`). A task marker or a fence's info string in them
   * shows as text. CommonMark never opens a paragraph with a list marker:
   * such a line starts a list, unless it would interrupt a paragraph, and
   * then it is not a paragraph's first line.
   */
  listReadAsParagraph: (root, markdown) => [...nodesOf(root)].some((node) => node.type === 'paragraph' && LIST_MARKER.test(firstLine(node, markdown))),

  /**
   * A task marker at the start of a list item's first paragraph is text
   * when the item's first line is empty (`- \n  [x] word`). GFM makes any
   * list item whose first block is a paragraph starting with one a task item.
   */
  taskMarkerAfterEmptyFirstLine: (root, markdown) =>
    [...nodesOf(root)].some((node) => {
      if (node.type !== 'listItem' || node.checked !== null) return false
      const [first] = node.children
      return first?.type === 'paragraph' && TASK_MARKER.test(firstLine(first, markdown))
    }),

  /**
   * A defined `[x]` followed by a `[` that opens no label (`[x][`) is text.
   * CommonMark's shortcut reference (commonmark.js, markdown-it) makes it a
   * link: only `[]` or a whole label after it would make it another kind.
   */
  shortcutBeforeUnclosedBracket: (root, markdown) => {
    const defined = new Set([...nodesOf(root)].flatMap((node) => (node.type === 'definition' ? [node.identifier] : [])))
    for (const found of markdown.matchAll(/\[((?:[^[\]\\]|\\.)+)\]\[/g)) {
      const after = markdown.slice(found.index + found[0].length)
      if (defined.has(identifierOf(found[1]!)) && !/^(?:[^[\]\\]|\\.)*\]/.test(after)) return true
    }
    return false
  },

  /**
   * A footnote definition whose content starts four or more columns after
   * its colon (`[^1]:     [x]: url`) holds that content as paragraphs or
   * definitions. markdown-it-footnote reads it as indented code, as a list
   * item would; GFM's spec does not define footnotes, and showing the text
   * verbatim hides nothing.
   */
  indentedFootnoteContent: (_, markdown) => /\[\^[^\]]+\]:(?: {4,}|[ ]{0,3}\t)\S/.test(markdown),
}
