/**
 * markdown-it's token stream → mdast, the tree the renderers read. The tree
 * is the one mdast-util-from-markdown builds with GFM for the same text
 * (test/blocks/parse-equivalence.test.ts compares them), without positions
 * and without what the renderers never read (list spread). References are
 * resolved by the tokenizer, so links and images carry their urls and there
 * are no linkReference or imageReference nodes; definitions stay in the tree.
 */
import type {
  AlignType,
  Code,
  Definition,
  FootnoteDefinition,
  Heading,
  Link,
  List,
  ListItem,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  Table,
  TableCell,
  TableRow,
  Text,
} from 'mdast'
import type Token from 'markdown-it/lib/token.mjs'
import { type DefinitionMeta, unescapeAll } from './markdown-it.js'
import type { TaskItemMeta } from './task-items.js'

/** A node that takes children, as the builder sees it (mdast's types are stricter than a stack can be). */
interface Container {
  type: string
  children: Nodes[]
}

/** An identifier as mdast normalises a label: whitespace collapsed, case folded. */
function identifierOf(label: string): string {
  let out = ''
  let space = false
  for (const ch of label.trim()) {
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      space = true
      continue
    }
    if (space && out !== '') out += ' '
    space = false
    out += ch
  }
  return out.toUpperCase().toLowerCase()
}

/** Text without its last line ending: mdast's code and html values end before it, markdown-it's contents after. */
function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text
}

function appendText(children: PhrasingContent[], value: string): void {
  if (value === '') return
  const last = children[children.length - 1]
  if (last !== undefined && last.type === 'text') last.value += value
  else children.push({ type: 'text', value })
}

/** The plain text of inline tokens, as mdast's image `alt` reads (breaks count as nothing, soft line endings as one, inline HTML as written). */
function altText(tokens: Token[] | null): string {
  let out = ''
  for (const token of tokens ?? []) {
    // Inline HTML too: the words an agent wrote in an image's description stay on the card.
    if (token.type === 'text' || token.type === 'text_special' || token.type === 'code_inline' || token.type === 'html_inline') out += token.content
    else if (token.type === 'softbreak') out += '\n'
    else if (token.type === 'image') out += altText(token.children)
  }
  return out
}

/** Inline tokens → phrasing content. */
function phrasing(tokens: Token[]): PhrasingContent[] {
  const root: PhrasingContent[] = []
  const stack: PhrasingContent[][] = [root]
  const open = (node: PhrasingContent & { children: PhrasingContent[] }) => {
    stack[stack.length - 1]!.push(node)
    stack.push(node.children)
  }
  for (const token of tokens) {
    const out = stack[stack.length - 1]!
    switch (token.type) {
      case 'text':
      case 'text_special':
        appendText(out, token.content)
        break
      case 'softbreak':
        appendText(out, '\n')
        break
      case 'hardbreak':
        out.push({ type: 'break' })
        break
      case 'code_inline':
        out.push({ type: 'inlineCode', value: token.content })
        break
      case 'em_open':
        open({ type: 'emphasis', children: [] })
        break
      case 'strong_open':
        open({ type: 'strong', children: [] })
        break
      case 's_open':
        open({ type: 'delete', children: [] })
        break
      case 'link_open': {
        const link: Link = { type: 'link', url: token.attrGet('href') ?? '', title: token.attrGet('title'), children: [] }
        open(link)
        break
      }
      case 'em_close':
      case 'strong_close':
      case 's_close':
      case 'link_close':
        if (stack.length > 1) stack.pop()
        break
      case 'image':
        out.push({ type: 'image', url: token.attrGet('src') ?? '', title: token.attrGet('title'), alt: altText(token.children) })
        break
      case 'html_inline':
        out.push({ type: 'html', value: token.content })
        break
      case 'footnote_ref': {
        const label = String((token.meta as { label?: unknown } | null)?.label ?? '')
        out.push({ type: 'footnoteReference', identifier: identifierOf(label), label })
        break
      }
      default:
        // A token type we do not load an extension for: keep its text.
        appendText(out, token.content)
    }
  }
  return root
}

function alignOf(token: Token): AlignType {
  const style = token.attrGet('style')
  return style === 'text-align:left' ? 'left' : style === 'text-align:right' ? 'right' : style === 'text-align:center' ? 'center' : null
}

function codeOf(token: Token): Code {
  // Trailing whitespace stays in the meta, as micromark keeps it.
  const info = unescapeAll(token.info).trimStart()
  let split = 0
  while (split < info.length && info[split] !== ' ' && info[split] !== '\t') split++
  const lang = info.slice(0, split)
  const meta = info.slice(split).trimStart()
  return { type: 'code', lang: lang === '' ? null : lang, meta: meta === '' ? null : meta, value: withoutFinalNewline(token.content) }
}

/** Block tokens (with their inline children) → an mdast root. */
export function mdastFromTokens(tokens: Token[]): Root {
  const root: Root = { type: 'root', children: [] }
  const stack: Container[] = [root as Container]
  let table: Table | undefined
  const top = () => stack[stack.length - 1]!
  const open = (node: Container) => {
    top().children.push(node as Nodes)
    stack.push(node)
  }
  const close = () => {
    if (stack.length > 1) stack.pop()
  }
  for (const token of tokens) {
    switch (token.type) {
      case 'paragraph_open':
        open({ type: 'paragraph', children: [] })
        break
      case 'heading_open':
        open({ type: 'heading', depth: Number(token.tag.slice(1)) as Heading['depth'], children: [] } as Container)
        break
      case 'inline': {
        const node = top() as Paragraph | Heading | TableCell
        node.children = phrasing(token.children ?? [])
        break
      }
      case 'blockquote_open':
        open({ type: 'blockquote', children: [] })
        break
      case 'bullet_list_open':
        open({ type: 'list', ordered: false, start: null, children: [] } satisfies List as Container)
        break
      case 'ordered_list_open':
        open({ type: 'list', ordered: true, start: Number(token.attrGet('start') ?? 1), children: [] } satisfies List as Container)
        break
      case 'list_item_open':
        open({ type: 'listItem', checked: (token.meta as TaskItemMeta | null)?.checked ?? null, children: [] } satisfies ListItem as Container)
        break
      case 'footnote_reference_open': {
        const label = String((token.meta as { label?: unknown } | null)?.label ?? '')
        open({ type: 'footnoteDefinition', identifier: identifierOf(label), label, children: [] } satisfies FootnoteDefinition as Container)
        break
      }
      case 'table_open':
        table = { type: 'table', align: [], children: [] }
        open(table as Container)
        break
      case 'tr_open':
        open({ type: 'tableRow', children: [] } satisfies TableRow as Container)
        break
      case 'th_open':
      case 'td_open':
        if (table !== undefined && token.type === 'th_open') table.align!.push(alignOf(token))
        open({ type: 'tableCell', children: [] } satisfies TableCell as Container)
        break
      case 'paragraph_close':
      case 'heading_close':
      case 'blockquote_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'list_item_close':
      case 'footnote_reference_close':
      case 'tr_close':
      case 'th_close':
      case 'td_close':
        close()
        break
      case 'table_close':
        close()
        table = undefined
        break
      case 'thead_open':
      case 'thead_close':
      case 'tbody_open':
      case 'tbody_close':
        break
      case 'hr':
        top().children.push({ type: 'thematicBreak' })
        break
      case 'code_block':
      case 'fence':
        top().children.push(codeOf(token))
        break
      case 'html_block':
        top().children.push({ type: 'html', value: withoutFinalNewline(token.content) })
        break
      case 'definition': {
        const meta = token.meta as DefinitionMeta
        const node: Definition = { type: 'definition', identifier: identifierOf(meta.label), label: meta.label, url: meta.url, title: meta.title }
        top().children.push(node)
        break
      }
      default:
        // A block token we do not load an extension for: keep its text as a paragraph.
        if (token.content !== '') top().children.push({ type: 'paragraph', children: [{ type: 'text', value: token.content } satisfies Text] })
    }
  }
  return root
}
