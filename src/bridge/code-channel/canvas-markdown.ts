/**
 * The agent's plan as canvas markdown that cannot ping, mention or disguise
 * (pure). The plan is parsed with the project's Markdown parser (markdown-it
 * into mdast, blocks/markdown/) and written back out from the tree, so each
 * rule applies to what a construct is, not to what a pattern guesses:
 * - text, code and raw HTML: Slack's `<…>` tokens shown with ‹ › (so
 *   `<!channel>`, `<@U…>`, `<https://evil|bank>` are text), and `@here`,
 *   `@channel`, `@everyone` broken with a zero-width joiner, and bidi
 *   controls and other invisible characters shown by code point;
 * - an image whose target is `@U…` or `#C…` (a canvas mention) is its text;
 * - a link whose label does not show its target (or whose target is not a
 *   safe URL) is its label with the target beside it, as text.
 * Canvas markdown is CommonMark-like; what is written is escaped so that it
 * parses back to the same text (a `*` the agent wrote stays a `*`).
 */
import type { Nodes, Parents, Root, RootContent } from 'mdast'

import { parseMarkdown, plainText } from '../../../blocks/markdown/index.js'
import { isSafeUrl, labelShowsTarget, shownText } from '../../../blocks/text.js'

/**
 * Slack's angle brackets shown as look-alikes, broadcasts broken, and
 * invisible characters shown by code point as on every card (decision
 * 0092; before the joiner that breaks a broadcast is added): safe in text,
 * code and raw HTML alike.
 */
export function neutralised(text: string): string {
  return shownText(text)
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/@(here|channel|everyone)\b/gi, '@\u200D$1')
}

/** Text as markdown that reads back as this text: the characters that would start a construct are escaped. */
function escaped(text: string): string {
  return neutralised(text)
    .replace(/[\\`*[\]~|]/g, '\\$&')
    // An underscore inside a word never starts emphasis: left alone, so `snake_case` reads as written.
    .replace(/_/g, (mark, at: number, all: string) => (/[\p{L}\p{N}]/u.test(all[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(all[at + 1] ?? '') ? mark : '\\_'))
    .replace(/&(?=#?[a-z0-9]+;)/gi, '\\&')
    .replace(/!(?=\\\[)/g, '\\!')
}

/** Escapes what would make a text line a block of its own (a heading, a list item, a quote, a rule). */
function escapedLineStarts(markdown: string): string {
  return markdown.replace(/^([ \t]*)(#|=+\s*$|[-+](?=\s|$)|\d+(?=[.)](\s|$)))/gm, (_all, indent: string, start: string) => `${indent}${/^\d/.test(start) ? `${start}\\` : `\\${start}`}`)
}

function fenceFor(value: string, min: number): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((run) => run[0].length))
  return '`'.repeat(Math.max(min, longest + 1))
}

/** A link's target as a destination: parentheses and backslashes escaped (a safe URL has no space or angle bracket). */
function destination(url: string): string {
  return url.replace(/[()\\]/g, '\\$&')
}

function inline(nodes: readonly RootContent[]): string {
  return nodes.map(inlineNode).join('')
}

function inlineNode(node: RootContent): string {
  switch (node.type) {
    case 'text':
      return escaped(node.value)
    case 'inlineCode': {
      const fence = fenceFor(node.value, 1)
      const pad = /^`|`$/.test(node.value) ? ' ' : ''
      return `${fence}${pad}${neutralised(node.value)}${pad}${fence}`
    }
    case 'emphasis':
      return `*${inline(node.children)}*`
    case 'strong':
      return `**${inline(node.children)}**`
    case 'delete':
      return `~~${inline(node.children)}~~`
    case 'break':
      return '\\\n'
    case 'html':
      return escaped(node.value)
    case 'image':
      // `![](@U…)` / `![](#C…)` is a canvas mention: shown as its text.
      if (/^[@#]/.test(node.url)) return escaped(node.alt || node.url.slice(1))
      return isSafeUrl(node.url) ? `![${escaped(node.alt ?? '')}](${destination(node.url)})` : escaped(`${node.alt ?? ''} (${node.url})`)
    case 'link': {
      const label = inline(node.children)
      if (isSafeUrl(node.url) && labelShowsTarget(plainText(node), node.url)) return `[${label}](${destination(node.url)})`
      return `${label} (${escaped(node.url)})`
    }
    case 'footnoteReference':
      return `[^${node.label ?? node.identifier}]`
    default:
      // A block where inline content was expected (mdast allows none): its text.
      return escaped(plainText(node as Nodes))
  }
}

function indented(markdown: string, by: string): string {
  return markdown.replace(/\n(?=.)/g, `\n${by}`)
}

function blocks(nodes: readonly RootContent[]): string {
  return nodes.map(block).join('\n\n')
}

function block(node: RootContent): string {
  switch (node.type) {
    case 'paragraph':
      return escapedLineStarts(inline(node.children))
    case 'heading':
      return `${'#'.repeat(node.depth)} ${inline(node.children)}`
    case 'thematicBreak':
      return '---'
    case 'blockquote':
      return blocks(node.children).replace(/^/gm, '> ')
    case 'code': {
      const fence = fenceFor(node.value, 3)
      return `${fence}${node.lang ? neutralised(node.lang) : ''}\n${neutralised(node.value)}\n${fence}`
    }
    case 'html':
      return escapedLineStarts(escaped(node.value))
    case 'list': {
      let number = node.start ?? 1
      // Items one per line: a tight list, so each step stays one section of the canvas.
      return node.children
        .map((item) => {
          const marker = node.ordered ? `${number++}. ` : '- '
          const check = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : ''
          // A nested list follows its item's text on the next line, as written.
          const body = item.children.map((child, i) => (i === 0 ? '' : child.type === 'list' ? '\n' : '\n\n') + block(child)).join('')
          return marker + check + indented(body, ' '.repeat(marker.length))
        })
        .join('\n')
    }
    case 'table': {
      const rows = node.children.map((row) => `| ${row.children.map((cell) => inline(cell.children)).join(' | ')} |`)
      const align = (node.align ?? []).map((a) => (a === 'center' ? ':---:' : a === 'right' ? '---:' : a === 'left' ? ':---' : '---'))
      return [rows[0] ?? '', `| ${align.join(' | ')} |`, ...rows.slice(1)].join('\n')
    }
    case 'definition':
      // A reference definition is invisible markdown; the canvas shows where it points, as text.
      return escaped(`[${node.label ?? node.identifier}]: ${node.url}`)
    case 'footnoteDefinition':
      return `[^${node.label ?? node.identifier}]: ${indented(blocks(node.children), '    ')}`
    default:
      return escapedLineStarts(inlineNode(node))
  }
}

/** The plan, parsed and written back as canvas markdown that cannot ping or disguise a link. */
export function canvasMarkdown(plan: string): string {
  const root: Root = parseMarkdown(plan)
  return blocks((root as Parents).children as RootContent[])
}
