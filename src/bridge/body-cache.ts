/**
 * Rendered ask bodies, kept so an ask's Markdown is rendered once: the open
 * card, its quorum progress, a reminder's copy and the settled card are all
 * laid out from the same body (blocks/question-message.ts, AskBody). Keyed
 * by ask id and a digest of the questions, so a body is never reused for
 * other words; bounded by the characters of text the bodies were made from,
 * least recently used first out.
 */
import { createHash } from 'node:crypto'
import { askBody, type AskBody } from '../../blocks/index.js'
import type { AskView } from '../../blocks/view.js'

/**
 * Characters of question text the kept bodies were made from, all together.
 * A body takes about 12 bytes of heap per character of Markdown (1.2 MB for
 * a 100 KB plan), so this keeps about 25 MB: twenty 100 KB plans, or
 * thousands of short questions.
 */
export const BODY_CACHE_CHARS = 2_000_000

/** What a short ask counts for at least: its body's objects weigh more than its few characters. */
const MIN_WEIGHT = 500

function weightOf(view: AskView): number {
  let chars = 0
  for (const q of view.questions) {
    chars += q.question.length + (q.detail?.length ?? 0) + (q.header?.length ?? 0)
    for (const o of q.options) chars += o.label.length + (o.description?.length ?? 0)
  }
  return Math.max(MIN_WEIGHT, chars)
}

/**
 * Freezes a body down to each block's own fields and element list, so a
 * caller that tried to add, drop or replace a shared block, or one of its
 * elements, throws instead of changing every later render of the ask. (The
 * elements' insides are left as they are: walking them all cost a tenth of a render.)
 */
function frozen(body: AskBody): AskBody {
  for (const piece of body.blocks) {
    const elements = (piece.block as { elements?: unknown[] }).elements
    if (elements !== undefined) Object.freeze(elements)
    Object.freeze(piece.block)
    Object.freeze(piece)
  }
  Object.freeze(body.blocks)
  return Object.freeze(body)
}

/**
 * A digest of everything a body is made of. A plan's text goes to the hash
 * as it is, beside the JSON of the rest: JSON-encoding 100 KB of Markdown
 * on every later render cost more than the render itself.
 */
function digestOf(view: AskView): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify(view.questions.map(({ detail, ...rest }) => [rest, detail?.length ?? -1])))
  for (const q of view.questions) if (q.detail !== undefined) hash.update(q.detail)
  return hash.digest('base64url')
}

export class BodyCache {
  readonly #entries = new Map<string, { body: AskBody; weight: number }>()
  #weight = 0
  #hits = 0
  #misses = 0

  constructor(readonly maxChars: number = BODY_CACHE_CHARS) {}

  /** The ask's body: rendered now, or kept from an earlier render of the same questions. */
  body(view: AskView): AskBody {
    const key = `${view.askId}:${digestOf(view)}`
    const kept = this.#entries.get(key)
    if (kept !== undefined) {
      this.#hits++
      this.#entries.delete(key)
      this.#entries.set(key, kept)
      return kept.body
    }
    this.#misses++
    const body = frozen(askBody(view))
    const weight = weightOf(view)
    if (weight > this.maxChars) return body
    this.#entries.set(key, { body, weight })
    this.#weight += weight
    for (const [oldest, entry] of this.#entries) {
      if (this.#weight <= this.maxChars) break
      this.#entries.delete(oldest)
      this.#weight -= entry.weight
    }
    return body
  }

  /** Renders skipped and done so far, and what is kept (tests and the benchmark read these). */
  get stats(): { hits: number; misses: number; entries: number; chars: number } {
    return { hits: this.#hits, misses: this.#misses, entries: this.#entries.size, chars: this.#weight }
  }
}
