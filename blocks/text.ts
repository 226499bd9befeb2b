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

/**
 * Characters that change how text looks without showing themselves: C0 and
 * C1 controls but tab and newline (ESC starts terminal sequences, CR
 * returns to the line start and hides what came before), bidi controls
 * (U+202E shows `txt.exe` as `exe.txt`), and zero-width characters (two
 * commands that look the same but are not).
 */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u{e0000}-\u{e007f}]/gu

/** A character as its code point, in brackets no agent text can hide in: `⟨U+202E⟩`. */
function codePointOf(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`
}

/**
 * Shows every invisible character as its code point (`⟨U+202E⟩`), so what
 * a person approves is what runs: for the literal text of a tool's
 * arguments, where nothing is rendered and every character counts. Tag
 * characters (U+E0000–U+E007F) are among them: text no one sees but a
 * model reads.
 */
export function showInvisibles(text: string): string {
  return text.replace(INVISIBLE, codePointOf)
}

/** A flag's tag sequence (🏴, tags, U+E007F: 🏴󠁧󠁢󠁳󠁣󠁴󠁿), kept whole; or one invisible character. */
const FLAG_OR_INVISIBLE = /(\u{1f3f4}[\u{e0020}-\u{e007e}]+\u{e007f})|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u{e0000}-\u{e007f}]/gu

const EMOJI_BEFORE_JOINER = /[\p{Extended_Pictographic}\u{1f3fb}-\u{1f3ff}]\ufe0f?$/u
const EMOJI = /^\p{Extended_Pictographic}/u
/** A letter or mark of a script that writes with joiners (Arabic, Persian, the Indic scripts…): not Latin, Greek, Cyrillic or shared. */
const JOINING_LETTER = /^(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}])[\p{L}\p{M}]/u
const JOINING_LETTER_BEFORE = /(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}])[\p{L}\p{M}]$/u

/**
 * Whether an invisible character at `at` belongs to legitimate text: CR
 * before LF (a line end), a zero-width joiner inside an emoji sequence
 * (👨‍👩‍👧), a joiner or non-joiner between two letters of a script that
 * writes with them (Persian's non-joiner, the Indic scripts' half forms).
 */
function belongs(char: string, text: string, at: number): boolean {
  if (char === '\r') return text[at + 1] === '\n'
  if (char !== '\u200d' && char !== '\u200c') return false
  const before = text.slice(Math.max(0, at - 3), at)
  const after = text.slice(at + 1, at + 3)
  if (char === '\u200d' && EMOJI_BEFORE_JOINER.test(before) && EMOJI.test(after)) return true
  return JOINING_LETTER_BEFORE.test(before) && JOINING_LETTER.test(after)
}

/**
 * Agent text as a person should see it on any surface (a card's question,
 * header, options and plan, a carousel card, a modal, the Home tab, a
 * notice, the canvas, the code channel's context bar): well-formed, with
 * bidi controls, zero-width characters, controls and tag characters shown
 * by code point, as a tool's arguments show them (decision 0092). U+202E
 * would otherwise show `txt.exe` as `exe.txt` and make a question read the
 * other way round. What legitimate text needs (emoji sequences, flags, the
 * joiners of scripts that use them, line ends) is kept.
 */
export function shownText(text: string): string {
  const clean = wellFormed(text)
  return clean.replace(FLAG_OR_INVISIBLE, (match: string, flag: string | undefined, at: number) => (flag !== undefined || belongs(match, clean, at) ? match : codePointOf(match)))
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/**
 * Whether a UTF-16 unit is in a range where every code point is its own
 * grapheme cluster break class "Other" or "Control": ASCII, kana, CJK
 * ideographs and precomposed Hangul syllables. None of them is an extender,
 * ZWJ, spacing mark, prepend, regional indicator, pictograph, Indic consonant
 * or jamo, so no rule of UAX #29 joins two of them (apart from CR LF).
 */
function isPlainUnit(c: number): boolean {
  return c < 0x80 || (c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7a3)
}

/** Whether `i` is certainly a grapheme boundary, judged from the two units around it alone. */
function plainBoundary(text: string, i: number): boolean {
  const before = text.charCodeAt(i - 1)
  const after = text.charCodeAt(i)
  return isPlainUnit(before) && isPlainUnit(after) && !(before === 0x0d && after === 0x0a)
}

/** Whether `i` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, i: number): boolean {
  const before = text.charCodeAt(i - 1)
  const after = text.charCodeAt(i)
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff
}

/**
 * The last grapheme boundary of `text` at or before `limit` (a code point
 * boundary), counting `start` as a boundary, as if `text.slice(start)` were
 * segmented whole. Only a window is segmented: it begins at the nearest
 * certain boundary at or before `limit` (see plainBoundary), because UAX #29
 * restarts exactly at any boundary (its rules look back, never past one) and
 * looks ahead one code point only. Text with no plain pair near the cut (a
 * run of emoji, combining marks or non-CJK scripts) widens the window back to
 * `start`, which costs what segmenting the whole prefix did.
 */
function lastBoundary(text: string, start: number, limit: number): number {
  if (limit <= start || limit >= text.length) return limit
  if (plainBoundary(text, limit)) return limit
  let from = limit - 1
  while (from > start && !plainBoundary(text, from)) from--
  // The boundary at `limit` depends on the code point that begins there, so the window takes it whole.
  const window = text.slice(from, Math.min(text.length, limit + 2))
  let last = from
  for (const { index } of graphemes.segment(window)) {
    if (from + index > limit) break
    last = from + index
  }
  return last
}

/**
 * The longest prefix of `text` whose mapped form (plus `…`) fits in `max`
 * UTF-16 units, cut between grapheme clusters so no emoji, combining mark or
 * surrogate pair is split. Returns the mapped text, shortened visibly when cut.
 * Slack counts characters; UTF-16 units are never fewer, so this is safe.
 * `map` must map each code point on its own and never shorten (escapeMrkdwn does).
 */
export function fitText(text: string, max: number, map: (s: string) => string = identity): string {
  // Mapping never shortens, so a text longer than max cannot fit whole.
  if (text.length <= max) {
    const whole = map(text)
    if (whole.length <= max) return whole
  }
  const budget = max - ELLIPSIS.length
  // The longest code-point prefix whose mapped form fits; the cut is the last grapheme boundary within it.
  const fits = map === identity ? identityFit(text, budget) : mappedFit(text, budget, map)
  const cut = lastBoundary(text, 0, fits)
  // One grapheme longer than the budget (a base with hundreds of combining marks): cut by code point.
  return map(text.slice(0, cut === 0 ? fits : cut)) + ELLIPSIS
}

function identity(s: string): string {
  return s
}

/** The longest code-point prefix of `text` within `budget` units. */
function identityFit(text: string, budget: number): number {
  const end = Math.max(0, Math.min(budget, text.length))
  return splitsPair(text, end) ? end - 1 : end
}

/** The longest code-point prefix of `text` whose mapped form is within `budget` units. */
function mappedFit(text: string, budget: number, map: (s: string) => string): number {
  let end = 0
  let size = 0
  while (end < text.length) {
    const width = splitsPair(text, end + 1) ? 2 : 1
    const mapped = map(text.slice(end, end + width)).length
    if (size + mapped > budget) break
    size += mapped
    end += width
  }
  return end
}

/** Plain text shortened to `max`, invisible characters shown, with a stand-in when the text is blank (Slack rejects empty texts). */
export function fitPlain(text: string, max: number, blank: string): string {
  const clean = shownText(text)
  return fitText(clean.trim() === '' ? blank : clean, max)
}

/** Escaped mrkdwn shortened to `max` (measured after escaping), invisible characters shown. */
export function fitMrkdwn(text: string, max: number): string {
  return fitText(shownText(text), max, escapeMrkdwn)
}

/** A plain_text object (never parsed by Slack: no mentions, no links, no formatting). */
export function plain(text: string, max: number, blank = '–'): PlainTextElement {
  return { type: 'plain_text', text: fitPlain(text, max, blank), emoji: false }
}

/**
 * Splits text into chunks of at most `max` UTF-16 units, each as many whole
 * grapheme clusters as fit; a cluster longer than `max` is cut between code points.
 */
export function chunkText(text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const chunks: string[] = []
  let start = 0
  while (text.length - start > max) {
    const fits = identityFit(text, start + max)
    const cut = lastBoundary(text, start, fits)
    // A cluster longer than max is cut by code point; one unit when even a code point exceeds max.
    const end = cut > start ? cut : fits > start ? fits : start + 1
    chunks.push(text.slice(start, end))
    start = end
  }
  if (start < text.length) chunks.push(text.slice(start))
  return chunks
}

/** The schemes a link may use to be clickable; anything else is shown as text. */
const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'] as const

/** Whether `url` may become a clickable link: an absolute http, https or mailto URL. */
export function isSafeUrl(url: string): boolean {
  if (!URL.canParse(url)) return false
  const parsed = new URL(url)
  if (!(SAFE_SCHEMES as readonly string[]).includes(parsed.protocol)) return false
  // Slack's own link syntax uses `<`, `>` and `|`; a url carrying them is not one we pass on,
  // nor one with an invisible character in it (a bidi control makes it read as another address).
  return !/[<>|\s]/.test(url) && showInvisibles(url) === url
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
