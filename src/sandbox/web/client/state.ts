/**
 * The page's own state: who is acting and which channel is shown (read from
 * the address, `?user=U…&channel=C…`, or a permalink's path
 * `/archives/C…/p…?thread_ts=…`), the open thread, the message to show first, the last snapshot,
 * what was typed into modals (Slack tells the app nothing until submit), and
 * the rendered-node cache that keeps an open menu in place across updates.
 */
import type { PageSnapshot } from '../wire.js'

export interface PageState {
  user: string
  channel: string
  /** What the main pane shows: the channel, or the app's Home tab (`?view=home`). */
  view: 'channel' | 'home'
  /** The ts of the thread shown beside the channel. */
  thread: string | null
  /** A permalink's message: scrolled into view and marked once it is drawn. */
  focus: string | null
  snap: PageSnapshot | null
  /** Text typed into inputs, by view id (or `message`) and block_id. */
  drafts: Record<string, Record<string, string>>
  /** The open modal's last drawn JSON, so it is rebuilt only when it changed. */
  modalSig: string
  modalId: string | null
  /** Top-level messages shown at the last render: more now means scroll to the newest. */
  topCount: number
  /** Whether a snapshot was drawn since the page loaded. */
  loaded: boolean
}

const params = new URLSearchParams(location.search)
const permalink = /^\/archives\/([CGD][A-Z0-9]+)\/p(\d{7,})$/.exec(location.pathname)

/** A permalink's `p1764600000000100` is the ts `1764600000.000100` without its dot. */
function tsOf(digits: string): string {
  return `${digits.slice(0, -6)}.${digits.slice(-6)}`
}

export const S: PageState = {
  user: params.get('user') ?? '',
  channel: params.get('channel') ?? permalink?.[1] ?? '',
  view: params.get('view') === 'home' ? 'home' : 'channel',
  thread: permalink ? params.get('thread_ts') : null,
  focus: permalink ? tsOf(permalink[2]!) : null,
  snap: null,
  drafts: {},
  modalSig: '',
  modalId: null,
  topCount: 0,
  loaded: false,
}

/** A rendered node and the JSON it was rendered from. */
export interface CachedNode {
  sig: string
  node: HTMLElement
  used: boolean
}

export const cache = new Map<string, CachedNode>()

/** The node for `key`, rebuilt only when `sig` changed; marks it used in this render. */
export function cached(key: string, sig: string, build: () => HTMLElement): HTMLElement {
  const hit = cache.get(key)
  if (hit && hit.sig === sig) {
    hit.used = true
    return hit.node
  }
  const node = build()
  cache.set(key, { sig, node, used: true })
  return node
}
