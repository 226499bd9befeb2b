/** Block Kit `rich_text` blocks: sections, lists, quotes, preformatted text and their inline elements. */
import { slackDate } from './dates.js'
import { arr, el, isObj, link, str, type Obj } from './dom.js'
import { emojiText } from './emoji.js'
import { mention } from './mrkdwn.js'

export function richText(block: Obj): HTMLElement {
  const root = el('div', 'rt')
  for (const element of arr(block.elements)) root.appendChild(richElement(element))
  return root
}

function richElement(e: unknown): Node {
  if (!isObj(e)) return document.createTextNode('')
  switch (e.type) {
    case 'rich_text_section':
      return inlines(e.elements, el('div', 'rt-section'))
    case 'rich_text_preformatted':
      return inlines(e.elements, el('pre', 'code'))
    case 'rich_text_quote':
      return inlines(e.elements, el('blockquote'))
    case 'rich_text_list': {
      const list = e.style === 'ordered' ? el('ol', `indent-${Math.min(3, Number(e.indent) || 0)}`) : el('ul', `indent-${Math.min(3, Number(e.indent) || 0)}`)
      if (list instanceof HTMLOListElement && Number(e.offset) > 0) list.start = Number(e.offset) + 1
      for (const item of arr(e.elements)) {
        const li = el('li')
        if (isObj(item) && item.type === 'rich_text_section') inlines(item.elements, li)
        else li.appendChild(richElement(item))
        list.appendChild(li)
      }
      return list
    }
  }
  return el('div', 'b-unknown', `[${str(e.type)}]`)
}

function inlines(list: unknown, parent: HTMLElement): HTMLElement {
  for (const x of arr(list)) parent.appendChild(richInline(x))
  return parent
}

function styled(node: Node, style: unknown): Node {
  if (!isObj(style)) return node
  let wrapped = node
  const wrap = (outer: HTMLElement): void => {
    outer.appendChild(wrapped)
    wrapped = outer
  }
  if (style.code) wrap(el('code'))
  if (style.strike) wrap(el('span', 'strike'))
  if (style.italic) wrap(el('em'))
  if (style.bold) wrap(el('strong'))
  return wrapped
}

function richInline(x: unknown): Node {
  if (!isObj(x)) return document.createTextNode('')
  switch (x.type) {
    case 'text':
      return styled(document.createTextNode(str(x.text)), x.style)
    case 'link':
      return styled(link(str(x.url), str(x.text) || str(x.url)), x.style)
    case 'user':
      return styled(mention('user', str(x.user_id), ''), x.style)
    case 'usergroup':
      return mention('group', str(x.usergroup_id), '')
    case 'channel':
      return mention('channel', str(x.channel_id), '')
    case 'broadcast':
      return el('span', 'mention broadcast', `@${str(x.range)}`)
    case 'emoji':
      return emojiText(str(x.name), x.unicode)
    case 'color':
      return document.createTextNode(str(x.value))
    case 'date': {
      const shown = slackDate(Number(x.timestamp), str(x.format) || '{date}')
      const text = shown === null ? str(x.fallback) : shown
      return x.url ? link(str(x.url), text) : el('span', 'date', text)
    }
  }
  return document.createTextNode('')
}
