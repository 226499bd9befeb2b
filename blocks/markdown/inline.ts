/**
 * Markdown phrasing content → rich_text inline elements: text with styles,
 * code spans, and links under the safe-link rule (README.md, "Safe text").
 * Block-level rendering is in rich-text.ts; this file knows nothing of budgets
 * except how to split a run of inline elements to fit one.
 */
import type { Definition, Nodes, PhrasingContent } from 'mdast'
import type { RichTextLink, RichTextText } from '@slack/types'
import { LIMIT } from '../limits.js'
import { chunkText, isSafeUrl, labelShowsTarget } from '../text.js'

/** The inline elements we emit: literal text and links (http, https, mailto only). */
export type Inline = RichTextText | RichTextLink
export type Style = NonNullable<RichTextText['style']>

/** What inline rendering needs from the document: its link reference definitions. */
export interface InlineCtx {
  definitions: Map<string, Definition>
}

/** A url this long is shown as text instead of a link: it would crowd out the text it belongs to. */
const LONGEST_LINK = LIMIT.richTextElementText / 2

/** The safe-link rule: only short http, https and mailto urls become clickable; others stay visible text. */
export function isClickable(url: string): boolean {
  return isSafeUrl(url) && url.length <= LONGEST_LINK
}

function styled(style: Style): Style | undefined {
  return Object.keys(style).length === 0 ? undefined : style
}

function sameStyle(a: Style | undefined, b: Style | undefined): boolean {
  return (a?.bold ?? false) === (b?.bold ?? false) && (a?.italic ?? false) === (b?.italic ?? false) && (a?.strike ?? false) === (b?.strike ?? false) && (a?.code ?? false) === (b?.code ?? false)
}

export function pushText(out: Inline[], text: string, style: Style): void {
  if (text === '') return
  const s = styled(style)
  const last = out[out.length - 1]
  if (last !== undefined && last.type === 'text' && sameStyle(last.style, s)) {
    last.text += text
    return
  }
  out.push(s === undefined ? { type: 'text', text } : { type: 'text', text, style: { ...s } })
}

export function pushLink(out: Inline[], url: string, text: string, style: Style): void {
  const s = styled(style)
  out.push(s === undefined ? { type: 'link', url, text } : { type: 'link', url, text, style: { ...s } })
}

/** `lead(url)`, the url a link only when the safe-link rule allows it. */
function pushTarget(out: Inline[], url: string, style: Style, lead: string): void {
  if (!isClickable(url)) return pushText(out, `${lead}(${url})`, style)
  pushText(out, `${lead}(`, style)
  pushLink(out, url, url, style)
  pushText(out, ')', style)
}

/** The elements that carry text: Slack refuses an empty text element. */
export function nonEmpty(elements: Inline[]): Inline[] {
  return elements.filter((el) => el.type !== 'text' || el.text !== '')
}

/** The plain text of a node, as a reader would say it. */
export function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? ''
  if (node.type === 'break') return '\n'
  if ('children' in node) {
    let out = ''
    for (const child of node.children) out += plainText(child as Nodes)
    return out
  }
  return ''
}

/**
 * A link shows where it goes. A label that is not its own url is followed by
 * the url, so `[bank.com](https://evil)` reads "bank.com (https://evil)".
 */
function link(out: Inline[], url: string, children: PhrasingContent[], style: Style, ctx: InlineCtx): void {
  const label = plainText({ type: 'paragraph', children })
  if (isClickable(url) && (label.trim() === '' || labelShowsTarget(label, url))) {
    pushLink(out, url, label.trim() === '' ? url : label, style)
    return
  }
  inlines(out, children, style, ctx)
  if (url === '' || url === label) return
  pushTarget(out, url, style, ' ')
}

function image(out: Inline[], url: string, alt: string, style: Style): void {
  // Images are never inlined (Slack would fetch them); they are links, labelled by their alt text.
  pushText(out, alt.trim() === '' ? '🖼 ' : `🖼 ${alt} `, style)
  if (url !== '') pushTarget(out, url, style, '')
}

function inline(out: Inline[], node: PhrasingContent, style: Style, ctx: InlineCtx): void {
  switch (node.type) {
    case 'text':
      return pushText(out, node.value, style)
    case 'emphasis':
      return inlines(out, node.children, { ...style, italic: true }, ctx)
    case 'strong':
      return inlines(out, node.children, { ...style, bold: true }, ctx)
    case 'delete':
      return inlines(out, node.children, { ...style, strike: true }, ctx)
    case 'inlineCode':
      return pushText(out, node.value, { ...style, code: true })
    case 'break':
      return pushText(out, '\n', style)
    case 'link':
      return link(out, node.url, node.children, style, ctx)
    case 'linkReference': {
      const definition = ctx.definitions.get(node.identifier)
      if (definition !== undefined) return link(out, definition.url, node.children, style, ctx)
      return inlines(out, node.children, style, ctx)
    }
    case 'image':
      return image(out, node.url, node.alt ?? '', style)
    case 'imageReference': {
      const definition = ctx.definitions.get(node.identifier)
      return image(out, definition?.url ?? '', node.alt ?? '', style)
    }
    case 'footnoteReference':
      return pushText(out, `[^${node.label ?? node.identifier}]`, style)
    case 'html':
      return pushText(out, node.value, style)
    default:
      // Node types from extensions we do not load: keep their words.
      return pushText(out, plainText(node as Nodes), style)
  }
}

/** Appends the inline elements of `nodes` to `out`, merging neighbouring texts of the same style. */
export function inlines(out: Inline[], nodes: PhrasingContent[], style: Style, ctx: InlineCtx): void {
  for (const node of nodes) inline(out, node, style, ctx)
}

function inlineSize(el: Inline): number {
  return el.type === 'text' ? el.text.length : el.url.length + (el.text?.length ?? 0)
}

/** The characters inline elements count against a block's budget (a link counts its url and its label). */
export function sizeOf(elements: Inline[]): number {
  let n = 0
  for (const el of elements) n += inlineSize(el)
  return n
}

/** Splits inline elements into runs of at most `budget` characters, splitting long texts between graphemes. */
export function splitInline(elements: Inline[], budget: number): Inline[][] {
  const runs: Inline[][] = []
  let run: Inline[] = []
  let size = 0
  const close = () => {
    if (run.length > 0) runs.push(run)
    run = []
    size = 0
  }
  for (const el of elements) {
    const pieces: Inline[] =
      el.type === 'text' && el.text.length > budget ? chunkText(el.text, budget).map((text) => ({ ...el, text })) : [el]
    for (const piece of pieces) {
      const n = inlineSize(piece)
      if (size + n > budget) close()
      run.push(piece)
      size += n
    }
  }
  close()
  return runs
}
