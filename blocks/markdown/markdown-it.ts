/**
 * The Markdown tokenizer: markdown-it, set up to read CommonMark plus GFM the
 * way micromark's GFM extensions do (the parser we used before; it took
 * about a second per 100 KB plan, markdown-it some tens of milliseconds).
 * Only parsing happens here, never HTML rendering: mdast-from-tokens.ts turns
 * the token stream into the mdast the renderers read.
 *
 * What differs from plain markdown-it, and why:
 * - links are neither percent-encoded nor refused: the renderers show the url
 *   as the agent wrote it and apply their own safe-link rule (README.md);
 * - link reference definitions leave a `definition` token where they stand,
 *   because the card shows every url a reference points at;
 * - footnote definitions stay where they stand (markdown-it-footnote would
 *   move them to the end and drop unreferenced ones: nothing is dropped);
 * - autolink literals follow GFM: `http(s)://…`, `www.…` and emails, not
 *   bare domains (`example.com`), `ftp:` or `//`;
 * - strikethrough is GFM's: `~one~` too, runs of equal length (strikethrough.ts);
 * - table rows keep the cells they have (table-rows.ts);
 * - a task item's check is read before inline content (task-items.ts);
 * - `[text](` whose link does not close is a shortcut reference, as in
 *   CommonMark (unclosed-links.ts);
 * - past markdown-it's nesting cap, markdown-it skips the rest of the
 *   container; here it is kept, verbatim (a plan must never hide its tail).
 * Deliberate differences from micromark are listed in blocks/README.md.
 */
import MarkdownIt from 'markdown-it'
import footnote from 'markdown-it-footnote'
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs'
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs'
import type Token from 'markdown-it/lib/token.mjs'
import { type BlockRule, wrapBlockRule } from './wrap-rules.js'
import { gfmStrikethrough } from './strikethrough.js'
import { keepTableRows } from './table-rows.js'
import { gfmTaskItems } from './task-items.js'
import { shortcutAfterUnclosedLinks } from './unclosed-links.js'

/** What a `definition` token carries in its `meta`. */
export interface DefinitionMeta {
  /** The label as written (escapes kept), as mdast's `label`. */
  label: string
  url: string
  title: string | null
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
}

/** Whether `src` has a declaration opener at `pos`: `<!` and an ASCII letter of either case (CommonMark 0.31). */
function declarationAt(src: string, pos: number): boolean {
  return src.charCodeAt(pos) === 0x3c /* < */ && src.charCodeAt(pos + 1) === 0x21 /* ! */ && isAsciiLetter(src.charCodeAt(pos + 2))
}

/**
 * HTML block type 4 (`<!` and a letter, up to the line with `>`) for
 * lowercase letters too: markdown-it 14 follows CommonMark 0.30 (uppercase
 * only), micromark 0.31. So `<!channel> **x**` at a line start is literal, as before.
 */
const declarationBlock: BlockRule = (state, startLine, endLine, silent) => {
  const pos = state.bMarks[startLine]! + state.tShift[startLine]!
  if (state.sCount[startLine]! - state.blkIndent >= 4 || !declarationAt(state.src, pos)) return false
  if (silent) return true
  let nextLine = startLine + 1
  if (!state.src.slice(pos, state.eMarks[startLine]).includes('>')) {
    for (; nextLine < endLine; nextLine++) {
      if (state.sCount[nextLine]! < state.blkIndent) break
      if (state.src.slice(state.bMarks[nextLine]! + state.tShift[nextLine]!, state.eMarks[nextLine]).includes('>')) {
        nextLine++
        break
      }
    }
  }
  state.line = nextLine
  const token = state.push('html_block', '', 0)
  token.map = [startLine, nextLine]
  token.content = state.getLines(startLine, nextLine, state.blkIndent, true)
  return true
}

/** Inline HTML declarations (`<!` and a letter, up to `>`) for lowercase letters too, as the block rule above. */
const declarationInline = (state: StateInline, silent: boolean): boolean => {
  if (!declarationAt(state.src, state.pos)) return false
  const end = state.src.indexOf('>', state.pos + 3)
  if (end < 0 || end >= state.posMax) return false
  if (!silent) state.push('html_inline', '', 0).content = state.src.slice(state.pos, end + 1)
  state.pos = end + 1
  return true
}

/** The source of lines `from`..`to` (exclusive), each without its container prefix and indent. */
function linesOf(state: StateBlock, from: number, to: number): string {
  const lines: string[] = []
  for (let line = from; line < to; line++) lines.push(state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]))
  return lines.join('\n')
}

/** The label of a definition starting at `source[0] === '['`: up to the first unescaped `]`, as markdown-it's reference rule reads it. */
function labelOf(source: string): string {
  let i = 1
  while (i < source.length) {
    const c = source.charCodeAt(i)
    if (c === 0x5c /* \ */) i += 2
    else if (c === 0x5d /* ] */) break
    else i++
  }
  return source.slice(1, i)
}

/**
 * markdown-it's reference rule, leaving a `definition` token behind. The rule
 * records the definition in `env.references` (first one wins); it is run
 * against an empty record so this definition's url is known even when an
 * earlier one with the same label wins the lookups.
 */
function keepDefinitions(md: MarkdownIt): void {
  wrapBlockRule(md, 'reference', (reference) => (state, startLine, endLine, silent) => {
    if (silent) return reference(state, startLine, endLine, silent)
    const env = state.env as { references?: Record<string, { href: string; title: string }> }
    const known = env.references ?? {}
    const mine: Record<string, { href: string; title: string }> = {}
    env.references = mine
    let found = false
    try {
      found = reference(state, startLine, endLine, silent)
    } finally {
      env.references = known
      for (const [key, value] of Object.entries(mine)) if (known[key] === undefined) known[key] = value
    }
    const [entry] = Object.values(mine)
    if (found && entry !== undefined) {
      const token = state.push('definition', '', 0)
      token.map = [startLine, state.line]
      token.meta = { label: labelOf(linesOf(state, startLine, state.line)), url: entry.href, title: entry.title === '' ? null : entry.title } satisfies DefinitionMeta
    }
    return found
  })
}

/**
 * Containers nested past markdown-it's `maxNesting` (100): markdown-it skips
 * their content (inline content past it stays text, which loses nothing).
 * Here the content is kept as a verbatim code block, so nothing is hidden
 * and no recursion runs deeper than the cap (a cap the stack bounds anyway).
 */
function keepTooDeep(md: MarkdownIt): void {
  const tokenize = md.block.tokenize.bind(md.block)
  const cap = (md.options as { maxNesting?: number }).maxNesting ?? 100
  md.block.tokenize = (state, startLine, endLine) => {
    if (state.level < cap) return tokenize(state, startLine, endLine)
    const token = state.push('code_block', 'code', 0)
    token.map = [startLine, endLine]
    token.content = state.getLines(startLine, endLine, state.blkIndent, true)
    state.line = endLine
  }
}

/**
 * GFM autolink literals: links with a scheme (http, https, mailto), `www.`
 * names and emails. linkify-it also finds bare domains (`example.com`),
 * `ftp:` and `//` links, which GFM leaves as text.
 */
function gfmAutolinks(md: MarkdownIt): void {
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: true, fuzzyIP: false })
  // `www.` names with any top-level domain (GFM), where linkify-it's fuzzy links know a list of them.
  md.linkify.add('ftp:', null).add('//', null).add('www.', {
    validate(text, pos, self) {
      const re = self.re as Record<string, string | RegExp>
      re.www ??= new RegExp(`^${String(re.src_host_port_strict)}${String(re.src_path)}`, 'i')
      const found = (re.www as RegExp).exec(text.slice(pos))
      return found === null ? 0 : found[0].length
    },
  })
  const match = md.linkify.match.bind(md.linkify)
  // A `www.` match goes to markdown-it as a fuzzy one, so its text stays as written and its url gets `http://`.
  md.linkify.match = (text: string) => match(text)?.map((link) => (link.schema.toLowerCase() === 'www.' ? Object.assign(link, { schema: '', url: `http://${link.text}` }) : link)) ?? null
}

function create(): MarkdownIt {
  const md = new MarkdownIt('default', { html: true, linkify: true, typographer: false, breaks: false })
  // The url as written: the renderers decide what may become a link and show the rest as text.
  md.normalizeLink = (url) => url
  md.normalizeLinkText = (text) => text
  md.validateLink = () => true
  md.use(footnote)
  // GFM has no inline footnotes (`^[…]`), and definitions stay where they stand.
  md.inline.ruler.disable('footnote_inline')
  md.core.ruler.disable('footnote_tail')
  // A footnote definition ends a block quote's lazy paragraph, as in micromark.
  wrapBlockRule(md, 'footnote_def', (rule) => rule, ['blockquote'])
  keepDefinitions(md)
  keepTooDeep(md)
  keepTableRows(md)
  gfmStrikethrough(md)
  md.block.ruler.before('html_block', 'html_declaration', declarationBlock, { alt: ['paragraph', 'reference', 'blockquote'] })
  md.inline.ruler.before('html_inline', 'html_declaration', declarationInline)
  gfmAutolinks(md)
  gfmTaskItems(md)
  shortcutAfterUnclosedLinks(md)
  return md
}

const parser = create()

/** Backslash escapes and character references decoded, as in a fence's info string. */
export function unescapeAll(text: string): string {
  return parser.utils.unescapeAll(text)
}

/** Markdown as markdown-it's block tokens (inline content parsed into each `inline` token's children). */
export function markdownTokens(markdown: string): Token[] {
  return parser.parse(markdown, {})
}
