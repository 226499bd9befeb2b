/**
 * The page itself: draws the people, channels, sample buttons, timeline and
 * thread from each `/web/state` snapshot, re-rendering only messages whose
 * content changed (so an open menu keeps its place).
 */
import type { PageMessage, PageSnapshot } from '../wire.js'
import { byId, el } from './dom.js'
import { act, post, refresh, showError } from './live.js'
import { openHome, renderHome } from './home.js'
import { buildMessage } from './messages.js'
import { renderCodeChannel } from './code-channel.js'
import { renderModal } from './modal.js'
import { cache, cached, S } from './state.js'

export function render(snap: PageSnapshot): void {
  S.user = snap.me.id
  S.channel = snap.channel
  // A fresh load starts clean, as a reloaded Slack client does: a form left
  // open in an earlier session is closed, not shown over the channel. (After
  // S.user is known: a first load without ?user= learns it from this snapshot.)
  if (!S.loaded) {
    S.loaded = true
    if (snap.modal) {
      void act({ action: 'leave' }, null)
      snap = { ...snap, modal: null }
    }
    // Loaded on the Home tab: opening it is what makes the app publish it afresh, as in Slack.
    if (S.view === 'home') void act({ action: 'open-home' }, null)
  }
  S.snap = snap
  const query = new URLSearchParams({ user: S.user })
  if (S.channel) query.set('channel', S.channel)
  if (S.view === 'home') query.set('view', 'home')
  history.replaceState(null, '', `/?${query.toString()}`)
  renderUsers(snap)
  renderChannels(snap)
  renderApps(snap)
  renderSamples(snap)
  cache.forEach((entry) => (entry.used = false))
  renderCodeChannel(snap)
  renderTimeline(snap)
  renderThread(snap)
  renderHome(snap)
  cache.forEach((entry, key) => {
    if (!entry.used) cache.delete(key)
  })
  renderModal(snap)
  showFocus()
  document.body.dataset.ready = 'true'
}

/** Opened from a permalink: bring that message into view (in its thread, when it is a reply) and mark it, once. */
function showFocus(): void {
  if (!S.focus) return
  const selector = `.msg[data-ts="${S.focus}"]`
  const node = byId('thread-messages').querySelector<HTMLElement>(selector) ?? byId('messages').querySelector<HTMLElement>(selector)
  if (!node) return
  S.focus = null
  node.classList.add('focused')
  node.scrollIntoView({ block: 'center' })
}

function renderUsers(snap: PageSnapshot): void {
  const select = byId<HTMLSelectElement>('user-select')
  const people = snap.users.filter((u) => !u.isBot)
  const sig = JSON.stringify(people) + S.user
  if (select.dataset.sig !== sig) {
    select.dataset.sig = sig
    select.replaceChildren()
    for (const u of people) {
      const option = el('option', null, u.name + (u.realName && u.realName !== u.name ? ` \u00b7 ${u.realName}` : ''))
      option.value = u.id
      select.appendChild(option)
    }
    const other = el('option', null, 'Another user id\u2026')
    other.value = '__other'
    select.appendChild(other)
  }
  select.value = S.user
}

export function switchUser(id: string): void {
  S.user = id
  S.thread = null
  S.drafts = {}
  // Another person's Home is theirs to open: Slack tells the app when they do.
  if (S.view === 'home') openHome()
  else void refresh()
}

function channelLabel(c: PageSnapshot['channels'][number] | undefined): string {
  return c ? (c.isIm ? `@${c.name}` : `#${c.name}`) : ''
}

export function openChannel(id: string): void {
  S.channel = id
  S.view = 'channel'
  S.thread = null
  void refresh()
}

/** The app in the sidebar, as Slack lists apps: its Home tab opens in the main pane. */
function renderApps(snap: PageSnapshot): void {
  const list = byId('app-list')
  const sig = `${snap.app.botName}|${S.view}|${snap.homeEnabled}`
  if (list.dataset.sig === sig) return
  list.dataset.sig = sig
  list.replaceChildren()
  if (!snap.homeEnabled) return
  const li = el('li')
  const b = el('button')
  b.type = 'button'
  b.id = 'open-home'
  b.appendChild(el('span', 'hash', '\u2302'))
  b.appendChild(el('span', null, `${snap.app.botName} \u00b7 Home`))
  if (S.view === 'home') b.setAttribute('aria-current', 'true')
  b.addEventListener('click', openHome)
  li.appendChild(b)
  list.appendChild(li)
}

function renderChannels(snap: PageSnapshot): void {
  const list = byId('channel-list')
  const dms = byId('dm-list')
  const pick = byId<HTMLSelectElement>('channel-select')
  const current = snap.channels.find((c) => c.id === snap.channel)
  byId('channel-title').textContent = current ? channelLabel(current) : 'No channel'
  byId('channel-meta').textContent = current ? `${current.members} members` : ''
  const sig = JSON.stringify(snap.channels) + snap.channel + S.view + snap.app.botName
  if (list.dataset.sig === sig) return
  list.dataset.sig = sig
  list.replaceChildren()
  dms.replaceChildren()
  pick.replaceChildren()
  for (const c of snap.channels) {
    const li = el('li')
    const b = el('button')
    const option = el('option', null, channelLabel(c))
    b.type = 'button'
    b.appendChild(el('span', 'hash', c.isIm ? '\u25cf' : c.isPrivate ? '\u25a3' : '#'))
    b.appendChild(el('span', null, c.name))
    if (c.id === snap.channel && S.view === 'channel') b.setAttribute('aria-current', 'true')
    b.addEventListener('click', () => openChannel(c.id))
    li.appendChild(b)
    ;(c.isIm ? dms : list).appendChild(li)
    option.value = c.id
    pick.appendChild(option)
  }
  if (!dms.children.length) dms.appendChild(el('li', 'sidebar-title', 'none yet'))
  // Below 720 px the sidebar is hidden and this picker is the way around: the app's Home tab is in it too.
  const home = el('option', null, `${snap.app.botName} \u00b7 Home`)
  home.value = HOME_PICK
  pick.appendChild(home)
  pick.value = S.view === 'home' ? HOME_PICK : snap.channel
}

/** The channel picker's entry for the app's Home tab (no channel id looks like this). */
export const HOME_PICK = '__home'

function sampleLabel(kind: string): string {
  const words = kind.replace(/-/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function renderSamples(snap: PageSnapshot): void {
  const section = byId('samples')
  const box = byId('sample-buttons')
  const sig = snap.samples.join(',')
  section.hidden = snap.samples.length === 0
  if (box.dataset.sig === sig) return
  box.dataset.sig = sig
  box.replaceChildren()
  for (const kind of snap.samples) {
    const b = el('button', 'btn small', sampleLabel(kind))
    b.type = 'button'
    b.dataset.sample = kind
    b.addEventListener('click', () => {
      b.disabled = true
      post('/web/sample', { kind })
        .catch(showError)
        .finally(() => (b.disabled = false))
    })
    box.appendChild(b)
  }
}

function openThread(ts: string): void {
  S.thread = ts
  if (S.snap) renderThread(S.snap)
}

function messageNode(m: PageMessage, snap: PageSnapshot, inThread: boolean): HTMLElement {
  const sig = JSON.stringify([m, S.user, snap.channel, snap.users, snap.channels])
  return cached(`${inThread ? 't' : 'c'}${m.ephemeral ? 'e' : 'm'}${m.ts}`, sig, () => buildMessage(m, snap, inThread, openThread))
}

function place(box: HTMLElement, nodes: HTMLElement[]): void {
  const same = box.children.length === nodes.length && nodes.every((n, i) => box.children[i] === n)
  if (!same) box.replaceChildren(...nodes)
}

function emptyNode(snap: PageSnapshot): HTMLElement {
  const box = el('div', 'empty')
  const current = snap.channels.find((c) => c.id === snap.channel)
  box.appendChild(el('strong', null, `No messages in ${channelLabel(current)} yet.`))
  box.appendChild(el('div', null, snap.samples.length ? 'Send a sample ask below, or post one through the service\u2019s API.' : 'Messages the app posts here show up as they arrive.'))
  return box
}

/** How close to the bottom (px) still counts as reading the newest messages. */
const NEAR_BOTTOM_PX = 60

function renderTimeline(snap: PageSnapshot): void {
  const box = byId('messages')
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_BOTTOM_PX
  const top = snap.messages.filter((m) => !m.threadTs || m.threadTs === m.ts)
  const nodes = top.map((m) => messageNode(m, snap, false))
  place(box, nodes.length ? nodes : [cached(`empty${snap.channel}`, String(snap.samples.length), () => emptyNode(snap))])
  // Like Slack: a new message scrolls into view when you were reading the newest ones (or it is the first look).
  if (top.length > S.topCount || nearBottom) box.scrollTop = box.scrollHeight
  S.topCount = top.length
}

function renderThread(snap: PageSnapshot): void {
  const pane = byId('thread')
  const parent = S.thread ? snap.messages.find((m) => m.ts === S.thread && !m.ephemeral) : undefined
  if (!parent) {
    pane.hidden = true
    S.thread = null
    return
  }
  const replies = snap.messages.filter((m) => m.threadTs === parent.ts && m.ts !== parent.ts)
  // Like Slack, the count is of the thread's messages; one only you can see is not a reply.
  const count = replies.filter((m) => !m.ephemeral).length
  const nodes = [messageNode(parent, snap, true)]
  if (count) nodes.push(cached(`divider${count}`, '', () => el('div', 'thread-divider', `${count}${count === 1 ? ' reply' : ' replies'}`)))
  for (const m of replies) nodes.push(messageNode(m, snap, true))
  byId('thread-meta').textContent = channelLabel(snap.channels.find((c) => c.id === snap.channel))
  pane.hidden = false
  place(byId('thread-messages'), nodes)
}
