/**
 * Slack's mrkdwn as DOM nodes: bold, italic, strike, code, code blocks,
 * quotes, `<url|label>`, `<@U…>`, `<#C…>`, `<!subteam^…>`, `<!date^…>`.
 * Every piece of text becomes a text node, so agent text never becomes
 * markup, and only real (unescaped) angle brackets are read as links or
 * mentions, so escaped agent text never pings anyone.
 */
import { slackDate } from './dates.js'
import { decode, el, link } from './dom.js'
import { textWithEmoji } from './emoji.js'
import { S } from './state.js'

export type MentionKind = 'user' | 'group' | 'channel'

/** A mention as Slack draws it: `@alice`, `@team`, `#agents`; your own name highlighted. */
export function mention(kind: MentionKind, id: string, label: string): HTMLElement {
  const snap = S.snap
  if (kind === 'user') {
    const user = snap?.users.find((u) => u.id === id)
    return el('span', `mention${id === S.user ? ' me' : ''}`, `@${label || (user ? user.name : id)}`)
  }
  if (kind === 'group') {
    const group = snap?.userGroups.find((g) => g.id === id)
    return el('span', 'mention', label || `@${group ? group.handle : id}`)
  }
  const channel = snap?.channels.find((c) => c.id === id)
  return el('span', 'mention', `#${label || (channel ? channel.name : id)}`)
}

const FENCE = '```'

export function mrkdwn(text: string, parent: HTMLElement): void {
  const parts = text.split(FENCE)
  parts.forEach((part, i) => {
    if (i % 2 === 1 && i < parts.length - 1) parent.appendChild(el('pre', 'code', decode(part.replace(/^\n/, ''))))
    else mrkdwnLines(i % 2 === 1 ? FENCE + part : part, parent)
  })
}

const QUOTE = /^(&gt;|>) ?/

function mrkdwnLines(text: string, parent: HTMLElement): void {
  const lines = text.split('\n')
  let quote: HTMLElement | null = null
  lines.forEach((line, i) => {
    const q = QUOTE.exec(line)
    if (q) {
      if (quote) quote.appendChild(document.createTextNode('\n'))
      else parent.appendChild((quote = el('blockquote')))
      inline(line.slice(q[0].length), quote)
      return
    }
    quote = null
    inline(line, parent)
    const next = lines[i + 1]
    if (next !== undefined && !/^(&gt;|>)/.test(next)) parent.appendChild(document.createTextNode('\n'))
  })
}

const INLINE = /<([^<>\n]+)>|`([^`\n]+)`|([*_~])([^\n]+?)\3/g
const BEFORE = /[\s(\[{"'.,;:!?/-]/
const AFTER = /[\s)\]}"'.,;:!?/-]/

function inline(text: string, parent: HTMLElement): void {
  const re = new RegExp(INLINE.source, 'g')
  let last = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    const start = m.index
    const end = re.lastIndex
    const [, angled, code, mark, inner] = m
    // Slack styles *x* only between word boundaries, and never around spaces: 2 * 3 * 4 stays as typed.
    if (
      mark !== undefined &&
      ((start > 0 && !BEFORE.test(text.charAt(start - 1))) || (end < text.length && !AFTER.test(text.charAt(end))) || /^\s|\s$/.test(inner ?? ''))
    ) {
      re.lastIndex = start + 1
      continue
    }
    if (start > last) textWithEmoji(decode(text.slice(last, start)), parent)
    if (angled !== undefined) parent.appendChild(angle(angled))
    else if (code !== undefined) parent.appendChild(el('code', null, decode(code)))
    else {
      const span = mark === '*' ? el('strong') : mark === '_' ? el('em') : el('span', 'strike')
      inline(inner ?? '', span)
      parent.appendChild(span)
    }
    last = end
  }
  if (last < text.length) textWithEmoji(decode(text.slice(last)), parent)
}

/** What sits between < and >. */
function angle(inner: string): Node {
  const bar = inner.indexOf('|')
  const head = bar < 0 ? inner : inner.slice(0, bar)
  const label = bar < 0 ? '' : decode(inner.slice(bar + 1))
  if (head.startsWith('@')) return mention('user', head.slice(1), label.replace(/^@/, ''))
  if (head.startsWith('#')) return mention('channel', head.slice(1), label.replace(/^#/, ''))
  if (head.startsWith('!')) {
    const command = head.slice(1)
    if (command === 'here' || command === 'channel' || command === 'everyone') return el('span', 'mention broadcast', `@${command}`)
    if (command.startsWith('subteam^')) return mention('group', command.slice('subteam^'.length), label)
    if (command.startsWith('date^')) {
      const [, seconds, format, url] = command.split('^')
      const shown = slackDate(Number(seconds), decode(format || '{date}'))
      const text = shown === null ? label : shown
      return url ? link(decode(url), text) : el('span', 'date', text)
    }
    return document.createTextNode(label)
  }
  return link(decode(head), label || decode(head))
}
