import type { Outcome } from '../../blocks/view.js'
import type { MessageContent } from '../slack/slack-port.js'
import { TIMING } from '../slack/timing.js'
import type { AskRecord } from '../store/ask-record.js'
import type { NewAskEvent } from '../store/team-records.js'
import type { AskParts } from './ask-parts.js'

/** Why a message is being updated: the settlement (once), a recovery retry, or a later correction. */
export type ShowHow = 'settlement' | 'recovery' | 'correction'

export interface MessageUpdatesOptions extends AskParts {
  /** This process, as holder of a message's claim in the store. */
  instance: string
  now: () => number
  /** Appends to the ask's audit trail (never throws). */
  recordEvent: (event: NewAskEvent) => Promise<void>
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Every change to an ask's posted message after the post: the settled
 * state, a quorum's progress, and the escalation copies that mirror it.
 * chat.update has no compare-and-swap, so updates to one message go out in
 * order in this process, and take turns with other processes through a
 * claim in the store: a later state is never overtaken by an earlier one.
 */
export class MessageUpdates {
  /** The last update queued per ask. */
  readonly #queued = new Map<string, Promise<boolean>>()

  constructor(private readonly options: MessageUpdatesOptions) {}

  /**
   * Updates the message to a settled state, after any update already queued
   * for it: a relay's later correction ("answered outside Slack") must not be
   * overtaken by the earlier "answered by" it corrects. Failure is logged
   * and recorded; the settlement stands.
   */
  showSettled(record: AskRecord, outcome: Outcome, how: ShowHow = 'settlement'): Promise<boolean> {
    return this.#enqueue(record.id, () => this.#updateMessage(record, outcome, how))
  }

  /**
   * Re-renders an open message with the quorum's progress, queued like any
   * update, and only while the ask is still pending (a settled message must
   * never be overwritten by an open one).
   */
  showProgress(id: string): Promise<boolean> {
    return this.#enqueue(id, async () => {
      const { store, renderer, settings, pacer, slack, logger } = this.options
      const record = await store.get(id)
      if (!record?.message || record.status !== 'pending') return false
      const content = (await renderer.open(record, settings, await store.approvals(id))).message
      try {
        const { channel, ts } = record.message
        await pacer.update(() => slack.updateMessage(channel, ts, content))
      } catch (error) {
        logger.warn(`ask ${id}: could not show the quorum's progress: ${reasonOf(error)}`)
        await this.#recordFailure(record, error)
        return false
      }
      await this.updateCopies(record, content)
      // Another instance may have settled it and shown that while we drew the
      // progress (chat.update has no compare-and-swap): show the settlement again.
      const after = await store.get(id)
      if (after?.settlement && after.status !== 'pending') await this.#updateMessage(after, after.settlement.outcome, 'correction')
      return true
    })
  }

  #enqueue(id: string, update: () => Promise<boolean>): Promise<boolean> {
    const next = (this.#queued.get(id) ?? Promise.resolve(true)).then(update)
    this.#queued.set(id, next)
    void next.then(() => {
      if (this.#queued.get(id) === next) this.#queued.delete(id)
    })
    return next
  }

  /**
   * One message update, under the ask's claim in the store, so instances
   * sharing the store take turns: the settlement is shown once (an instance
   * that finds the claim taken leaves it to the holder), and a correction
   * waits for the holder to finish, so it is never overtaken.
   */
  async #updateMessage(record: AskRecord, outcome: Outcome, how: ShowHow): Promise<boolean> {
    if (!record.message) return false
    const { store, slack, logger, renderer, settings, pacer, instance } = this.options
    try {
      if (!(await this.#claimMessage(record.id, how === 'correction'))) return false
    } catch (error) {
      logger.error(`ask ${record.id}: could not claim its message for an update: ${reasonOf(error)}`)
      return false
    }
    let shown = false
    let content: MessageContent | undefined
    try {
      // Recovering: another instance may have shown it since we listed it.
      if (how === 'recovery' && (await store.get(record.id))?.finalMessageShown) return false
      const { channel, ts } = record.message
      const settled = (content = await renderer.settled(record, outcome, settings))
      await pacer.update(() => slack.updateMessage(channel, ts, settled))
      shown = true
    } catch (error) {
      logger.error(`ask ${record.id} is ${record.status}, but its message could not be updated: ${reasonOf(error)}`)
      await this.#recordFailure(record, error)
      return false
    } finally {
      await store.releaseMessage(record.id, instance, shown).catch((error: unknown) => {
        logger.error(`ask ${record.id}: could not release its message claim: ${reasonOf(error)}`)
      })
    }
    if (content) await this.updateCopies(record, content)
    return true
  }

  async #claimMessage(id: string, wait: boolean): Promise<boolean> {
    const { store, instance, now } = this.options
    const giveUpAt = now() + TIMING.messageClaimMs
    for (;;) {
      const at = now()
      if (await store.claimMessage(id, instance, at, at + TIMING.messageClaimMs)) return true
      if (!wait || at >= giveUpAt) return false
      await new Promise((resolve) => setTimeout(resolve, TIMING.messageClaimRetryMs))
    }
  }

  #recordFailure(record: AskRecord, error: unknown): Promise<void> {
    const { channel, ts } = record.message!
    return this.options.recordEvent({ askId: record.id, type: 'update-failed', at: this.options.now(), detail: { channel, ts, error: reasonOf(error) } })
  }

  /**
   * Escalation DMs carry the same controls as the channel message: they
   * show the same state, found through the audit trail's `escalated` events.
   * Best effort: a copy that cannot be updated only loses its controls later.
   */
  async updateCopies(record: AskRecord, content: MessageContent): Promise<void> {
    const { pacer, slack, logger } = this.options
    for (const copy of await this.copiesOf(record.id).catch(() => [])) {
      await pacer.update(() => slack.updateMessage(copy.channel, copy.ts, content)).catch((error: unknown) => {
        logger.warn(`ask ${record.id}: could not update its copy in ${copy.channel}: ${reasonOf(error)}`)
      })
    }
  }

  /** Where escalations posted a copy of the ask (DMs with its controls). */
  async copiesOf(id: string): Promise<{ channel: string; ts: string }[]> {
    return (await this.options.store.events(id)).flatMap((event) => {
      const { channel, ts, copy } = event.detail ?? {}
      return event.type === 'escalated' && copy === true && typeof channel === 'string' && typeof ts === 'string' ? [{ channel, ts }] : []
    })
  }

  /** An escalation copy posted after its ask settled: give it the settled state. */
  async showCopiesSettled(record: AskRecord): Promise<void> {
    const { renderer, settings } = this.options
    if (record.settlement) await this.updateCopies(record, await renderer.settled(record, record.settlement.outcome, settings))
  }
}
