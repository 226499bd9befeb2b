import type { AskRecord } from '../store/ask-record.js'

/** How many open asks a process keeps in memory for clicks: the newest, since people answer recent asks. */
export const OPEN_ASKS_KEPT = 1_000

/**
 * The characters of text those asks may hold between them (a few MB of heap):
 * a plan under review can carry 200 KB of Markdown, and a thousand of those
 * would not fit. An ask over a tenth of this is not kept: its clicks read it.
 */
export const OPEN_ASKS_CHARS = 1_000_000

/** The text an ask carries: what its record weighs, roughly, in characters. */
function charsOf(record: AskRecord): number {
  let chars = record.approval?.arguments?.length ?? 0
  for (const q of record.questions) {
    chars += q.question.length + (q.header?.length ?? 0) + (q.detail?.length ?? 0)
    for (const option of q.options) chars += option.label.length + (option.description?.length ?? 0)
  }
  return chars
}

/**
 * The asks this process posted and has not settled, as they stood once their
 * message was recorded, so that a click on one settles it without reading it
 * back from the store first (one statement, cold, on every click).
 *
 * What a click reads of an ask (its questions, policy, target, owner and
 * message) does not change once its message is recorded. Its status may: a
 * click on an ask that another instance settled or expired meanwhile goes on
 * to the settle, whose conditional update is what decides, loses, and the
 * person hears who was first, as if the ask had been read. Whatever this
 * process changes (a settle, approval arguments) forgets the ask first, and
 * an ask once forgotten is never kept again, so a post that finishes after
 * a fast click's settle cannot bring back a record that says it is open.
 */
export class OpenAsksHere {
  readonly #records = new Map<string, { record: AskRecord; chars: number }>()
  #chars = 0
  /** Asks forgotten before or after they were kept; bounded like the records. */
  readonly #forgotten = new Set<string>()
  /**
   * The asks this process settled lately, as its winning settle left them: a
   * settlement is final (only a pending ask is ever settled), so whoever asks
   * after it here (a long-poll that comes after the click) needs no read of
   * the store. Bounded like the open ones (decision 0103).
   */
  readonly #settled = new Map<string, { record: AskRecord; chars: number }>()
  #settledChars = 0

  constructor(
    private readonly kept = OPEN_ASKS_KEPT,
    private readonly keptChars = OPEN_ASKS_CHARS,
  ) {}

  /** Remembers an ask this process has just settled (the winner's record, read-only: shared). */
  settled(record: AskRecord): void {
    if (record.status === 'pending' || this.#settled.has(record.id)) return
    const chars = charsOf(record)
    if (chars > this.keptChars / 10) return
    while (this.#settled.size > 0 && (this.#settled.size >= this.kept || this.#settledChars + chars > this.keptChars)) {
      const oldest = this.#settled.keys().next().value!
      this.#settledChars -= this.#settled.get(oldest)!.chars
      this.#settled.delete(oldest)
    }
    this.#settled.set(record.id, { record, chars })
    this.#settledChars += chars
  }

  /** The ask as this process settled it, if it did lately (read-only: shared). */
  settledHere(id: string): AskRecord | undefined {
    return this.#settled.get(id)?.record
  }

  /** Remembers a pending ask whose message is recorded, within the bounds; anything else is ignored. */
  keep(record: AskRecord): void {
    if (record.status !== 'pending' || !record.message || this.#forgotten.has(record.id) || this.#records.has(record.id)) return
    const chars = charsOf(record)
    if (chars > this.keptChars / 10) return
    while (this.#records.size > 0 && (this.#records.size >= this.kept || this.#chars + chars > this.keptChars)) this.#drop(this.#records.keys().next().value!)
    this.#records.set(record.id, { record, chars })
    this.#chars += chars
  }

  /** The ask as kept (read-only: it is shared with every click on it). */
  get(id: string): AskRecord | undefined {
    return this.#records.get(id)?.record
  }

  forget(id: string): void {
    this.#drop(id)
    if (this.#forgotten.size >= this.kept) this.#forgotten.delete(this.#forgotten.values().next().value!)
    this.#forgotten.add(id)
  }

  get size(): number {
    return this.#records.size
  }

  clear(): void {
    this.#records.clear()
    this.#chars = 0
    this.#forgotten.clear()
    this.#settled.clear()
    this.#settledChars = 0
  }

  #drop(id: string): void {
    const entry = this.#records.get(id)
    if (!entry) return
    this.#records.delete(id)
    this.#chars -= entry.chars
  }
}
