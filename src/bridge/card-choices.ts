/**
 * A batch shown as a carousel (decision 0077) is answered card by card, but
 * settles as a whole: each card's choice is one person's draft until they
 * have chosen for every question, and then the batch settles with them.
 *
 * The draft lives in the ask's audit trail, as `chose` events: written by
 * whichever instance got the click, read back by whichever gets the next
 * one (Slack hands each click to any of the app's connections), kept across
 * restarts, and showing an operator who chose what on the way to the answer.
 */
import type { Person } from '../../blocks/view.js'
import type { AskStore } from '../store/ask-store.js'
import type { AskEvent } from '../store/team-records.js'

/** One person's choices so far: question index → option index. */
export type CardDraft = Map<number, number>

function index(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

/** The person's draft, from the ask's events: their latest choice per question. Pure. */
export function draftOf(events: readonly AskEvent[], user: string): CardDraft {
  const draft: CardDraft = new Map()
  for (const event of events) {
    if (event.type !== 'chose' || event.by?.id !== user) continue
    const question = index(event.detail?.question)
    const option = index(event.detail?.option)
    if (question !== null && option !== null) draft.set(question, option)
  }
  return draft
}

/** Keeps and reads card choices in the store's audit trail. */
export class CardChoices {
  constructor(
    private readonly store: Pick<AskStore, 'appendEvent' | 'events'>,
    private readonly now: () => number,
  ) {}

  /**
   * Records one choice and returns the person's draft with it. Awaited,
   * never deferred: a choice the store did not take must not be reported
   * as kept (the click then fails, and the person is told to try again).
   */
  async choose(askId: string, by: Person, question: number, option: number, label: string): Promise<CardDraft> {
    await this.store.appendEvent({ askId, type: 'chose', at: this.now(), by, detail: { question, option, label } })
    return this.draft(askId, by.id)
  }

  /** The person's draft as it stands. */
  async draft(askId: string, user: string): Promise<CardDraft> {
    return draftOf(await this.store.events(askId), user)
  }
}
