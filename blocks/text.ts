/**
 * Safe text: the one mrkdwn escape, visible shortening, and the link rule.
 * Everything agent-written that reaches Slack passes through here or through
 * rich_text `text` elements (which Slack shows literally).
 */
import type { PlainTextElement } from '@slack/types'

/** What a visibly shortened text ends with. */
export const ELLIPSIS = '…'

/**
 * Escapes text for mrkdwn and for the top-level `text`: only `&`, `<` and `>`
 * are special there (SLACK.md), and escaping `<` is what keeps `<!channel>`,
 * `<@U…>`, `<!subteam^…>` and `<https://evil|bank.com>` from becoming live.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Replaces lone surrogates with U+FFFD: JSON carries them, but Slack turns them
 * into garbage or rejects the payload, and a shortened text must not end in half a pair.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD')
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** How far past the budget fitText looks, so a cluster cut by its window is never mistaken for a whole one. */
const WINDOW_SLACK = 64

/**
 * The longest prefix of `text` whose mapped form (plus `…`) fits in `max`
 * UTF-16 units, cut between grapheme clusters so no emoji, combining mark or
 * surrogate pair is split. Returns the mapped text, shortened visibly when cut.
 * Slack counts characters; UTF-16 units are never fewer, so this is safe.
 */
export function fitText(text: string, max: number, map: (s: string) => string = identity): string {
  // Mapping never shortens, so a text longer than max cannot fit whole.
  if (text.length <= max) {
    const whole = map(text)
    if (whole.length <= max) return whole
  }
  const budget = max - ELLIPSIS.length
  let out = ''
  // Only a window past the budget is segmented (mapping never shortens). Its
  // last segment may be a cluster cut by the window, so it is never taken; the
  // slack past the budget keeps clusters cut that way beyond the budget anyway.
  const end = budget + WINDOW_SLACK
  const window = text.slice(0, end)
  const segments = Array.from(graphemes.segment(window), (s) => s.segment)
  if (window.length < text.length) segments.pop()
  for (const segment of segments) {
    const mapped = map(segment)
    if (out.length + mapped.length > budget) break
    out += mapped
  }
  if (out === '') {
    // One grapheme longer than the budget (a base with hundreds of combining marks): cut by code point.
    for (const ch of text) {
      const mapped = map(ch)
      if (out.length + mapped.length > budget) break
      out += mapped
    }
  }
  return out + ELLIPSIS
}

function identity(s: string): string {
  return s
}

/** Plain text shortened to `max`, with a stand-in when the text is blank (Slack rejects empty texts). */
export function fitPlain(text: string, max: number, blank: string): string {
  const clean = wellFormed(text)
  return fitText(clean.trim() === '' ? blank : clean, max)
}

/** Escaped mrkdwn shortened to `max` (measured after escaping). */
export function fitMrkdwn(text: string, max: number): string {
  return fitText(wellFormed(text), max, escapeMrkdwn)
}

/** A plain_text object (never parsed by Slack: no mentions, no links, no formatting). */
export function plain(text: string, max: number, blank = '–'): PlainTextElement {
  return { type: 'plain_text', text: fitPlain(text, max, blank), emoji: false }
}

/** Splits text into chunks of at most `max` UTF-16 units, between grapheme clusters. */
export function chunkText(text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const chunks: string[] = []
  let rest = text
  while (rest.length > max) {
    const head = fitText(rest, max + ELLIPSIS.length).slice(0, -ELLIPSIS.length)
    // fitText always advances unless one code point exceeds max, which cannot happen for max >= 2.
    const taken = head === '' ? rest.slice(0, max) : head
    chunks.push(taken)
    rest = rest.slice(taken.length)
  }
  if (rest !== '') chunks.push(rest)
  return chunks
}

/** The schemes a link may use to be clickable; anything else is shown as text. */
const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'] as const

/** Whether `url` may become a clickable link: an absolute http, https or mailto URL. */
export function isSafeUrl(url: string): boolean {
  if (!URL.canParse(url)) return false
  const parsed = new URL(url)
  if (!(SAFE_SCHEMES as readonly string[]).includes(parsed.protocol)) return false
  // Slack's own link syntax uses `<`, `>` and `|`; a url carrying them is not one we pass on.
  return !/[<>|\s]/.test(url)
}

/**
 * Whether a link's label says where it goes: the url itself, or the url
 * without its scheme (GFM autolinks such as `www.example.com` or a bare email).
 */
export function labelShowsTarget(label: string, url: string): boolean {
  const l = label.trim()
  if (l === url) return true
  const bare = url.replace(/^(https?:\/\/|mailto:)/i, '')
  return l === bare || l === bare.replace(/\/$/, '')
}

/**
 * Shortens text that is already mrkdwn (escaped agent text mixed with our own
 * `<@U…>` or `<!date…>` tokens) without cutting an entity such as `&amp;` or
 * a `<…>` token in half: a half token would read as garbage.
 */
export function fitEscaped(text: string, max: number): string {
  if (text.length <= max) return text
  let cut = fitText(text, max).slice(0, -ELLIPSIS.length)
  const open = cut.lastIndexOf('<')
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open)
  const amp = cut.lastIndexOf('&')
  if (amp >= 0 && !cut.slice(amp).includes(';')) cut = cut.slice(0, amp)
  return cut + ELLIPSIS
}
