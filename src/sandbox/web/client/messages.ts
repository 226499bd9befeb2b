/**
 * Messages as Slack draws them: avatar, name, APP badge, time, blocks (or
 * the text when there are none), "(edited)", file cards and the replies link.
 */
import type { PageMessage, PageSnapshot } from '../wire.js'
import { renderBlocks } from './blocks.js'
import { clockTime } from './dates.js'
import { arr, el, isObj, safeUrl, str, type Obj } from './dom.js'
import { showError } from './live.js'
import { mrkdwn } from './mrkdwn.js'

function tsDate(ts: string): Date {
  return new Date(Number(String(ts).split('.')[0]) * 1000)
}

function initials(name: string): string {
  return (name.replace(/[^A-Za-z0-9]/g, '').slice(0, 2) || '?').toUpperCase()
}

function formatSize(size: unknown): string {
  const n = Number(size) || 0
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`
}

/** Longest text file preview shown inline. */
const PREVIEW_CHARS = 20000

function fileCard(f: Obj): HTMLElement {
  const card = el('div', 'file')
  const info = el('div')
  let url = str(f.url_private)
  const ext = (str(f.name).split('.').pop() || 'file').slice(0, 4).toUpperCase()
  // Files live on the stand-in; fetch them by path so the page works under either loopback name.
  try {
    const parsed = new URL(url)
    if (parsed.pathname.startsWith('/files/')) url = parsed.pathname
  } catch {
    // Not absolute: keep as given.
  }
  card.appendChild(el('div', 'file-icon', ext))
  const name = el('a', 'file-name', str(f.title) || str(f.name))
  name.href = url.startsWith('/') ? url : safeUrl(url) || '#'
  name.rel = 'noopener noreferrer'
  name.target = '_blank'
  info.appendChild(name)
  info.appendChild(el('div', 'muted', formatSize(f.size) + (f.mimetype ? ` \u00b7 ${str(f.mimetype)}` : '')))
  if (/^text\//.test(str(f.mimetype)) && url.startsWith('/')) {
    const preview = el('button', 'btn small', 'Preview')
    preview.type = 'button'
    preview.addEventListener('click', () => {
      fetch(url)
        .then((r) => r.text())
        .then((t) => {
          info.appendChild(el('pre', 'code file-preview', t.length > PREVIEW_CHARS ? `${t.slice(0, PREVIEW_CHARS)}\n\u2026` : t))
          preview.remove()
        }, showError)
    })
    info.appendChild(preview)
  }
  card.appendChild(info)
  return card
}

export function buildMessage(m: PageMessage, snap: PageSnapshot, inThread: boolean, openThread: (ts: string) => void): HTMLElement {
  const row = el('div', `msg${m.ephemeral ? ' ephemeral' : ''}`)
  const body = el('div', 'msg-body')
  const head = el('div', 'msg-head')
  const author = snap.users.find((u) => u.id === m.user)
  const isBot = !author || author.isBot
  const when = tsDate(m.ts)
  row.dataset.ts = m.ts
  if (m.ephemeral) row.dataset.ephemeral = 'true'
  const avatar = el('div', `avatar${isBot ? '' : ' user'}`, initials(author ? author.name : m.user))
  avatar.setAttribute('aria-hidden', 'true')
  row.appendChild(avatar)
  if (m.ephemeral) body.appendChild(el('div', 'only-you', '\u25c9 Only visible to you'))
  head.appendChild(el('span', 'msg-name', author ? (isBot ? author.name : author.realName || author.name) : m.user))
  if (isBot) head.appendChild(el('span', 'badge', 'APP'))
  const time = el('time', 'msg-time', clockTime(when, false))
  time.dateTime = when.toISOString()
  time.title = when.toString()
  head.appendChild(time)
  body.appendChild(head)
  const target = m.ephemeral ? { channel: snap.channel, ts: m.ts, ephemeral: true } : { channel: snap.channel, ts: m.ts }
  const ctx = { target, state: m.state, errors: null, viewId: null }
  // Slack shows the blocks when there are any; text is only the notification fallback then.
  if (arr(m.blocks).length) body.appendChild(renderBlocks(m.blocks, ctx))
  else if (m.text) {
    const text = el('div', 'rt msg-text')
    mrkdwn(m.text, text)
    body.appendChild(text)
  }
  if (m.edited) body.appendChild(el('span', 'edited', '(edited)'))
  for (const f of arr(m.files)) if (isObj(f)) body.appendChild(fileCard(f))
  if (!inThread && !m.ephemeral) {
    // "N replies" opens the thread; a message without replies offers to start one, as Slack's hover menu does.
    const replies = el('button', 'replies', m.replyCount ? `${m.replyCount}${m.replyCount === 1 ? ' reply' : ' replies'}` : 'Reply in thread')
    replies.type = 'button'
    replies.addEventListener('click', () => openThread(m.ts))
    body.appendChild(replies)
  }
  row.appendChild(body)
  return row
}
