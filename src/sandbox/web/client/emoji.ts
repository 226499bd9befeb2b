/**
 * Emoji. Slack draws them as images; the page draws the few the bridge uses
 * from plain symbols (no emoji font needed) and leaves others as `:name:`.
 */
import { el, has } from './dom.js'

const EMOJI: Record<string, [symbol: string, colour: string]> = {
  white_check_mark: ['\u2714', 'green'],
  heavy_check_mark: ['\u2714', 'grey'],
  x: ['\u2715', 'red'],
  no_entry_sign: ['\u2298', 'red'],
  warning: ['\u26a0', 'yellow'],
  pencil2: ['\u270f', 'grey'],
  hourglass: ['\u231b', 'grey'],
  hourglass_flowing_sand: ['\u23f3', 'grey'],
  lock: ['\u26bf', 'grey'],
  // A quorum's progress line: two figures (a font without emoji has no busts; ☺ read as a smiley).
  busts_in_silhouette: ['\u265f\u265f', 'grey'],
}

export function emojiNode(name: string): Node {
  const known = has(EMOJI, name) ? EMOJI[name] : undefined
  if (!known) return document.createTextNode(`:${name}:`)
  const span = el('span', `emoji ${known[1]}`, known[0])
  span.title = `:${name}:`
  span.setAttribute('role', 'img')
  span.setAttribute('aria-label', name.replace(/_/g, ' '))
  return span
}

/** A rich_text emoji element: its unicode code points when given, else by name. */
export function emojiText(name: string, unicode: unknown): Node {
  if (typeof unicode === 'string' && /^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(unicode)) {
    try {
      return document.createTextNode(
        unicode
          .split('-')
          .map((hex) => String.fromCodePoint(parseInt(hex, 16)))
          .join(''),
      )
    } catch {
      // Not a code point after all: fall back to the name.
    }
  }
  return emojiNode(name)
}

/** Plain text with :shortcodes: as text nodes and emoji spans. */
export function textWithEmoji(text: string, parent: Node): Node {
  const re = /:([a-z0-9_+-]+):/g
  let last = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    if (!has(EMOJI, m[1]!)) continue
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)))
    parent.appendChild(emojiNode(m[1]!))
    last = re.lastIndex
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)))
  return parent
}
