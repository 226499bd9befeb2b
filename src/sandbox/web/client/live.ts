/**
 * The page's line to the stand-in: every action goes to `/web/act`,
 * refusals show in a toast, and `/web/state` is fetched on load and after
 * every `change` event of `/web/events`. Fetches never overlap: a change that
 * arrives mid-fetch asks for one more fetch when it ends, and a burst of
 * events within a frame costs one fetch.
 */
import type { ActResult, PageAction, PageSnapshot } from '../wire.js'
import { byId, isObj, str } from './dom.js'
import { S } from './state.js'

/** Spread an action without its `user`: `act()` adds the acting user. */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never
export type PageActionBody = Without<PageAction, 'user'>

/** A refusal from the stand-in, with its code. */
export class PageRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'PageRequestError'
  }
}

/**
 * `fetch()` rejects only when nothing answered at all (the process is down,
 * or restarting): say that, and that nothing happened, rather than the
 * browser's "Failed to fetch".
 */
const OFFLINE = 'The service is offline, so this was not sent (nothing changed). Start it again (npm start): this page reconnects by itself.'

async function call(path: string, init?: RequestInit): Promise<unknown> {
  let res: Response
  try {
    res = await fetch(path, init)
  } catch {
    setLive(false)
    throw new PageRequestError('OFFLINE', OFFLINE)
  }
  const data: unknown = await res.json().catch(() => ({}))
  if (res.ok) return data
  const error = isObj(data) && isObj(data.error) ? data.error : null
  throw new PageRequestError(error ? str(error.code) : 'HTTP', error ? str(error.message) : `HTTP ${res.status}`)
}

export function post(path: string, body: unknown): Promise<unknown> {
  return call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

let pending = 0

/** Sends what the person did as the acting user, marking `control` busy meanwhile, then refreshes. */
export async function act(body: PageActionBody, control?: HTMLElement | null): Promise<ActResult | undefined> {
  const busy = control as (HTMLElement & { disabled?: boolean }) | null | undefined
  if (busy) {
    busy.classList.add('pending')
    busy.disabled = true
  }
  pending += 1
  document.body.dataset.busy = 'true'
  let result: ActResult | undefined
  try {
    result = (await post('/web/act', { ...body, user: S.user })) as ActResult
  } catch (error) {
    showError(error)
  }
  if (busy) {
    busy.classList.remove('pending')
    busy.disabled = false
  }
  pending -= 1
  if (!pending) delete document.body.dataset.busy
  await refresh()
  return result
}

type Renderer = (snap: PageSnapshot) => void
let renderer: Renderer = () => {}

/** What draws each snapshot (app.ts), set once at start: it sits above this module. */
export function onSnapshot(render: Renderer): void {
  renderer = render
}

let refreshing: Promise<void> | null = null
let again = false

export function refresh(): Promise<void> {
  if (refreshing) {
    again = true
    return refreshing
  }
  const query = new URLSearchParams()
  if (S.user) query.set('user', S.user)
  if (S.channel) query.set('channel', S.channel)
  refreshing = (async () => {
    try {
      renderer((await call(`/web/state?${query.toString()}`)) as PageSnapshot)
    } catch (error) {
      showError(error)
    }
    refreshing = null
    if (again) {
      again = false
      await refresh()
    }
  })()
  return refreshing
}

let tick: ReturnType<typeof setTimeout> | null = null

function scheduleRefresh(): void {
  if (tick) return
  tick = setTimeout(() => {
    tick = null
    void refresh()
  }, 16)
}

/** Follows `/web/events`; the browser reconnects by itself after the stand-in restarts. */
export function connect(): void {
  const events = new EventSource('/web/events')
  events.addEventListener('hello', () => {
    setLive(true)
    void refresh()
  })
  events.addEventListener('change', scheduleRefresh)
  events.onerror = () => setLive(false)
}

export function setLive(on: boolean): void {
  const live = byId('live')
  live.textContent = on ? 'live' : 'offline'
  live.classList.toggle('on', on)
  document.body.dataset.live = on ? 'on' : 'off'
}

let toastTimer: ReturnType<typeof setTimeout> | undefined

export function toast(message: string, kind?: string): void {
  const t = byId('toast')
  t.textContent = message
  t.className = `toast${kind ? ` ${kind}` : ''}`
  t.hidden = false
  // A tap dismisses it at once, so it never stands in the way for its 6 s.
  t.onclick = () => (t.hidden = true)
  clearTimeout(toastTimer)
  toastTimer = setTimeout(() => (t.hidden = true), 6000)
}

export function showError(error: unknown): void {
  toast(error instanceof Error ? error.message : String(error))
}
