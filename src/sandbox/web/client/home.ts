/**
 * The app's Home tab, as Slack shows it beside the app's Messages: the view
 * the app last published for the acting user, with working controls (a click
 * is a block_actions payload from a `home` view). Opening it sends
 * app_home_opened, which makes the app publish it afresh.
 */
import type { PageSnapshot } from '../wire.js'
import { renderBlocks } from './blocks.js'
import { byId, el } from './dom.js'
import { act } from './live.js'
import { cached, S } from './state.js'

/** Shows the Home tab in the main pane; the app is told the person opened it. */
export function openHome(): void {
  S.view = 'home'
  S.thread = null
  void act({ action: 'open-home' }, null)
}

function waitingNode(snap: PageSnapshot): HTMLElement {
  const box = el('div', 'empty')
  box.appendChild(el('strong', null, snap.homeEnabled ? `Opening ${snap.app.botName}\u2019s Home\u2026` : `${snap.app.botName} has no Home tab.`))
  box.appendChild(el('div', null, snap.homeEnabled ? 'The app publishes this tab when you open it; if nothing shows, is the app running?' : 'It is turned off in the app\u2019s settings.'))
  return box
}

export function renderHome(snap: PageSnapshot): void {
  const pane = byId('home')
  const showing = S.view === 'home'
  pane.hidden = !showing
  byId('messages').hidden = showing
  if (showing) byId('samples').hidden = true
  if (!showing) return
  byId('channel-title').textContent = snap.app.botName
  byId('channel-meta').textContent = 'Home'
  const home = snap.home
  const node = home
    ? cached(`home${home.id}`, JSON.stringify([home, S.user]), () => renderBlocks(home.blocks, { target: 'home', state: home.state, errors: null, viewId: home.id }))
    : cached(`home-waiting${S.user}`, String(snap.homeEnabled), () => waitingNode(snap))
  if (pane.firstChild !== node || pane.children.length !== 1) pane.replaceChildren(node)
}
