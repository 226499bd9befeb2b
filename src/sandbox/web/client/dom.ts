/**
 * Small DOM and value helpers every part of the page uses. Text always goes
 * in as `textContent`, never parsed as HTML, so agent text can never become
 * markup; links keep only http, https and mailto URLs.
 */

export type Obj = Record<string, unknown>

/** An element with a class and text, built with DOM calls only. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | null, text?: string | number | null): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  if (cls) node.className = cls
  if (text !== undefined && text !== null) node.textContent = String(text)
  return node
}

/** The page's own element with this id (the shell in page-html.ts has them all). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id)
  if (!node) throw new Error(`the page has no #${id}`)
  return node as T
}

export function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The text of a Slack text object (`{ type, text }`), or ''. */
export function textOf(value: unknown): string {
  return isObj(value) ? str(value.text) : ''
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

export function has(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key)
}

/** Undoes Slack's three escapes (mrkdwn text arrives with &amp; &lt; &gt;). */
export function decode(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
}

/** Only web and mail links; javascript:, data: and the like stay plain text. */
export function safeUrl(url: unknown): string | null {
  try {
    const parsed = new URL(String(url))
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' || parsed.protocol === 'mailto:' ? parsed.href : null
  } catch {
    return null
  }
}

/** A link that opens in a new tab, or plain text when the URL is not a safe one. */
export function link(url: string, label?: string): HTMLElement {
  const safe = safeUrl(url)
  if (!safe) return el('span', 'unsafe-link', label || url)
  const a = el('a', null, label || url)
  a.href = safe
  a.target = '_blank'
  a.rel = 'noopener noreferrer'
  return a
}

let uid = 0
/** A page-unique id for labels and ARIA references. */
export function nextId(prefix: string): string {
  uid += 1
  return prefix + uid
}
