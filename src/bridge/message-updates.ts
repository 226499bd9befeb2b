import type { Outcome } from '../../blocks/view.js'
import type { UpdateLane } from '../slack/channel-pacer.js'
import type { MessageContent } from '../slack/slack-port.js'
import { SlackCallError } from '../slack/slack-call-error.js'
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
 * Slack errors no retry can fix: the message or its channel is gone, or the
 * app may no longer touch it. Anything else (Slack or the network down, a
 * 5xx, the store away) is retried until it lands.
 */
const PERMANENT_UPDATE_ERRORS = new Set(['message_not_found', 'channel_not_found', 'cant_update_message', 'edit_window_closed', 'is_archived', 'not_in_channel', 'invalid_auth', 'account_inactive', 'token_revoked', 'missing_scope'])

/** How one update went: on Slack, not needed (shown already, or another instance holds the claim), or failed. */
type UpdateResult = 'shown' | 'skipped' | 'failed'

/** A settled card whose update failed and is being retried. */
interface Retry {
  /** When the first update failed. */
  since: number
  delayMs: number
  timer: NodeJS.Timeout | undefined
  /** Logged as stuck (once). */
  stuck: boolean
  how: ShowHow
  outcome: Outcome
}

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
  /** Settled cards whose update failed, retried with backoff until they land. */
  readonly #retries = new Map<string, Retry>()
  /** The refresh of each ask still waiting for the Tier 3 budget: a newer render or the settlement replaces it unsent. */
  readonly #refreshes = new Map<string, AbortController>()
  #stopped = false

  constructor(private readonly options: MessageUpdatesOptions) {}

  /**
   * Updates the message to a settled state, after any update already queued
   * for it: a relay's later correction ("answered outside Slack") must not be
   * overtaken by the earlier "answered by" it corrects. Failure is logged
   * and recorded; the settlement stands. `claimed`: the settle that won
   * took the message's claim for this instance already.
   */
  showSettled(record: AskRecord, outcome: Outcome, how: ShowHow = 'settlement', { claimed = false }: { claimed?: boolean } = {}): Promise<boolean> {
    this.#refreshes.get(record.id)?.abort()
    this.#refreshes.delete(record.id)
    return this.#enqueue(record.id, async () => (await this.#showOrRetry(record, outcome, how, claimed)) === 'shown')
  }

  /**
   * Settled cards still showing their controls because every update so far
   * failed for longer than TIMING.cardStuckAfterMs (`/metrics`).
   */
  stuckCards(): number {
    let stuck = 0
    for (const retry of this.#retries.values()) if (this.options.now() - retry.since >= TIMING.cardStuckAfterMs) stuck++
    return stuck
  }

  /** Cards waiting for another try (for leak checks and tests). */
  get retrying(): number {
    return this.#retries.size
  }

  /** No more retries: the bridge is stopping (a failed card is shown again by the next start's recovery). */
  stop(): void {
    this.#stopped = true
    for (const retry of this.#retries.values()) clearTimeout(retry.timer)
    this.#retries.clear()
  }

  /**
   * One update of a settled card; a failure that a retry can fix (Slack or
   * the store away) is tried again after a pause that doubles up to
   * TIMING.updateRetryMaxMs, by this instance, within the rate budget
   * (every try goes through the pacer), until it lands. Instances sharing
   * the store do not both try: each try takes the card's claim.
   */
  async #showOrRetry(record: AskRecord, outcome: Outcome, how: ShowHow, claimed = false): Promise<UpdateResult> {
    const result = await this.#updateMessage(record, outcome, how, claimed)
    const retry = this.#retries.get(record.id)
    if (result !== 'failed' || this.#stopped) {
      if (retry) {
        clearTimeout(retry.timer)
        this.#retries.delete(record.id)
        if (retry.stuck) this.options.logger.info(`ask ${record.id}: its card is updated now, ${Math.round((this.options.now() - retry.since) / 1000)} s after the first try`)
      }
      return result
    }
    const next: Retry = retry ?? { since: this.options.now(), delayMs: TIMING.updateRetryFirstMs, timer: undefined, stuck: false, how, outcome }
    if (retry) next.delayMs = Math.min(retry.delayMs * 2, TIMING.updateRetryMaxMs)
    next.outcome = outcome
    next.how = how === 'correction' ? 'correction' : 'recovery'
    if (!next.stuck && this.options.now() - next.since >= TIMING.cardStuckAfterMs) {
      next.stuck = true
      this.options.logger.error(`ask ${record.id} is ${record.status}, but its card has shown the open question for ${Math.round((this.options.now() - next.since) / 1000)} s: its updates keep failing; retrying every ${Math.round(TIMING.updateRetryMaxMs / 1000)} s at most`)
    }
    next.timer = setTimeout(() => {
      next.timer = undefined
      void this.#enqueue(record.id, async () => {
        const current = (await this.options.store.get(record.id).catch(() => undefined)) ?? record
        return (await this.#showOrRetry(current, current.settlement?.outcome ?? next.outcome, next.how)) === 'shown'
      })
    }, next.delayMs)
    next.timer.unref()
    this.#retries.set(record.id, next)
    return result
  }

  /**
   * Re-renders an open message with the quorum's progress, queued like any
   * update, and only while the ask is still pending (a settled message must
   * never be overwritten by an open one).
   */
  showProgress(id: string): Promise<boolean> {
    this.#refreshes.get(id)?.abort()
    const refresh = new AbortController()
    this.#refreshes.set(id, refresh)
    const shown = this.#enqueue(id, async () => {
      const { store, renderer, settings, pacer, slack, logger } = this.options
      const record = await store.get(id)
      if (!record?.message || record.status !== 'pending' || refresh.signal.aborted) return false
      const content = (await renderer.open(record, settings, await store.approvals(id))).message
      try {
        const { channel, ts } = record.message
        // Behind waiting settlements; dropped unsent if a newer render comes first.
        await pacer.update(() => slack.updateMessage(channel, ts, content), 'refresh', refresh.signal)
      } catch (error) {
        if (refresh.signal.aborted) return false
        logger.warn(`ask ${id}: could not show the quorum's progress: ${reasonOf(error)}`)
        await this.#recordFailure(record, error)
        return false
      }
      await this.updateCopies(record, content, 'refresh')
      // Another instance may have settled it and shown that while we drew the
      // progress (chat.update has no compare-and-swap): show the settlement again.
      const after = await store.get(id)
      if (after?.settlement && after.status !== 'pending') await this.#showOrRetry(after, after.settlement.outcome, 'correction')
      return true
    })
    const forget = () => {
      if (this.#refreshes.get(id) === refresh) this.#refreshes.delete(id)
    }
    void shown.then(forget, forget)
    return shown
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
  async #updateMessage(record: AskRecord, outcome: Outcome, how: ShowHow, claimed: boolean): Promise<UpdateResult> {
    const { store, slack, logger, renderer, settings, pacer, instance } = this.options
    // Settled before its message was recorded: whoever records it shows the settlement (the settle took no claim).
    if (!record.message) return 'skipped'
    const retrying = this.#retries.has(record.id)
    try {
      if (!claimed && !(await this.#claimMessage(record.id, how === 'correction'))) return 'skipped'
    } catch (error) {
      if (!retrying) logger.error(`ask ${record.id}: could not claim its message for an update: ${reasonOf(error)}`)
      return 'failed'
    }
    let shown = false
    let content: MessageContent | undefined
    try {
      // Recovering: another instance may have shown it since we listed it.
      if (how === 'recovery' && (await store.get(record.id))?.finalMessageShown) return 'skipped'
      const { channel, ts } = record.message
      const settled = (content = await renderer.settled(record, outcome, settings))
      await pacer.update(() => slack.updateMessage(channel, ts, settled))
      shown = true
    } catch (error) {
      const permanent = error instanceof SlackCallError && PERMANENT_UPDATE_ERRORS.has(error.slackError)
      // One line per outage, not per try: the retry says when it lands, or that the card is stuck.
      if (!retrying || permanent) logger.error(`ask ${record.id} is ${record.status}, but its message could not be updated: ${reasonOf(error)}${permanent ? '' : '; trying again'}`)
      if (!retrying) await this.#recordFailure(record, error)
      return permanent ? 'skipped' : 'failed'
    } finally {
      await store.releaseMessage(record.id, instance, shown).catch((error: unknown) => {
        logger.error(`ask ${record.id}: could not release its message claim: ${reasonOf(error)}`)
      })
    }
    if (content) await this.updateCopies(record, content)
    return 'shown'
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
  async updateCopies(record: AskRecord, content: MessageContent, lane: UpdateLane = 'settle'): Promise<void> {
    // Only an escalation to a person posts a copy: an ask with none has no events to read.
    if (record.policy?.escalateTo === undefined) return
    const { pacer, slack, logger } = this.options
    for (const copy of await this.copiesOf(record.id).catch(() => [])) {
      await pacer.update(() => slack.updateMessage(copy.channel, copy.ts, content), lane).catch((error: unknown) => {
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
