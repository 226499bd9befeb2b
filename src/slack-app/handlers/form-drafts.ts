import type { AskUserQuestionAnswerItem } from '../../contract/index.js'

/** How long an unfinished multi-page form is remembered. */
const DRAFT_LIFETIME_MS = 60 * 60 * 1000

interface Draft {
  items: Map<number, AskUserQuestionAnswerItem>
  touchedAt: number
}

/**
 * The pages of a batch form a person has submitted so far, per ask and
 * person. Slack keeps only the current page's inputs, and private_metadata
 * holds 3,000 characters, too few for long answers, so earlier pages wait
 * here until the last one arrives.
 */
export class FormDrafts {
  readonly #drafts = new Map<string, Draft>()

  constructor(private readonly now: () => number = Date.now) {}

  save(askId: string, user: string, items: Map<number, AskUserQuestionAnswerItem>): Map<number, AskUserQuestionAnswerItem> {
    this.#sweep()
    const key = `${askId}:${user}`
    const draft = this.#drafts.get(key) ?? { items: new Map(), touchedAt: 0 }
    for (const [question, item] of items) draft.items.set(question, item)
    draft.touchedAt = this.now()
    this.#drafts.set(key, draft)
    return new Map(draft.items)
  }

  clear(askId: string, user: string): void {
    this.#drafts.delete(`${askId}:${user}`)
  }

  #sweep(): void {
    const oldest = this.now() - DRAFT_LIFETIME_MS
    for (const [key, draft] of this.#drafts) if (draft.touchedAt < oldest) this.#drafts.delete(key)
  }

  get size(): number {
    return this.#drafts.size
  }
}
