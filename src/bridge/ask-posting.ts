import { UserInteractionError } from '../contract/index.js'
import type { Logger } from '../log/logger.js'
import type { AskLimits } from '../policy/operator-policy.js'
import type { ChannelPacer } from '../slack/channel-pacer.js'
import { adviceFor } from '../slack/slack-error-advice.js'
import type { AskRecord, PostClaim, Settlement } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { AskExpiry } from './ask-expiry.js'
import { AskOutbox, type MayPost } from './ask-outbox.js'
import type { AskPoster } from './ask-poster.js'
import { postedEvent } from './audit-events.js'
import { originOf } from './audit-origins.js'
import type { MessageUpdates } from './message-updates.js'
import type { OpenAsksHere } from './open-asks-here.js'
import type { ProcessLease } from './process-lease.js'
import { hasQuorum } from './quorum.js'
import { jobsOf } from './scheduled-jobs.js'
import { shownOutcome } from './shown-outcome.js'
import type { OpenAskOptions } from './types.js'

export interface AskPostingOptions {
  store: AskStore
  pacer: ChannelPacer
  logger: Logger
  instance: string
  now: () => number
  poster: AskPoster
  /** A library process's lease, held from its first ask. */
  lease: ProcessLease
  openHere: OpenAsksHere
  expiry: AskExpiry
  messages: MessageUpdates
  stopped: () => boolean
  /** Withdraws the ask (an abort while it was being posted). */
  abort: (id: string) => Promise<unknown>
  /** Settles the ask (`failed`, when Slack refuses its card). */
  settle: (id: string, settlement: Settlement) => Promise<unknown>
  /** Tells the open-ask listeners (the Home tabs) about an ask now posted. */
  tellOpen: (record: AskRecord) => void
}

/**
 * Recording an ask and posting its card, as an outbox (see AskOutbox): the
 * row and the claim on posting it in one step, the card under the claim,
 * then what an open ask needs (its expiry, its reminders) or, when it
 * settled meanwhile, how it ended. Slack's refusal settles the ask `failed`
 * and rejects with `SLACK_API_ERROR`.
 */
export class AskPosting {
  readonly outbox: AskOutbox
  /** Posts in flight: stop() lets them finish before withdrawing asks. */
  readonly #posting = new Set<Promise<unknown>>()

  constructor(private readonly options: AskPostingOptions) {
    const { store, instance, now, logger, stopped } = options
    this.outbox = new AskOutbox({ store, instance, now, logger, stopped, postTakenOver: (record, claim) => this.#track(this.#postAndFollow(record, claim, undefined, true)) })
  }

  /** Resolves once every post in flight has ended. */
  async allPosted(): Promise<void> {
    await Promise.all([...this.#posting])
  }

  stop(): void {
    this.outbox.stop()
  }

  /**
   * The ask a repeated request names. Its card if it has one; if its first
   * poster stopped before posting it, posted here now, or, while that
   * poster's claim runs, the caller is told when it will be posted at the
   * latest (by it, or by whichever instance takes over).
   */
  async repeated(existing: AskRecord, onQueued: OpenAskOptions['onQueued']): Promise<AskRecord> {
    if (existing.status !== 'pending' || existing.message || this.outbox.postingHere(existing.id)) return existing
    const { result, posted } = await this.outbox.takeOver(existing)
    if (posted) return posted
    if (result.kind === 'held') onQueued?.({ record: existing, expectedPostAt: Math.max(result.until, this.options.now()) + this.options.pacer.expectedWaitMs(existing.target) })
    return result.kind === 'moot' ? ((await this.options.store.get(existing.id)) ?? existing) : existing
  }


  insertAndPost(record: AskRecord, signal?: AbortSignal, onQueued?: OpenAskOptions['onQueued'], caps?: AskLimits): Promise<AskRecord> {
    if (this.options.stopped()) return Promise.reject(new UserInteractionError('ASK_ABORTED', 'the bridge is stopped; start a new one to ask'))
    return this.#track(this.#insertAndPostNow(record, signal, onQueued, caps))
  }

  /** A post in flight: stop() lets it finish first. */
  #track(posting: Promise<AskRecord>): Promise<AskRecord> {
    const tracked = posting.catch(() => undefined).finally(() => this.#posting.delete(tracked))
    this.#posting.add(tracked)
    return posting
  }

  async #insertAndPostNow(record: AskRecord, signal?: AbortSignal, onQueued?: OpenAskOptions['onQueued'], caps?: AskLimits): Promise<AskRecord> {
    if (record.owner.kind === 'library') await this.options.lease.hold()
    const waitMs = this.options.pacer.expectedWaitMs(record.target)
    // The row and the right to post its card in one step: an instance that dies before posting leaves it to another.
    const claim = this.outbox.claimAtInsert(waitMs)
    await this.options.store.insert(record, caps, claim)
    onQueued?.({ record, expectedPostAt: this.options.now() + waitMs })
    return this.#postAndFollow(record, claim, signal)
  }

  /** Posts a recorded ask under its post claim, then arms what an open ask needs (or shows how it ended meanwhile). */
  async #postAndFollow(record: AskRecord, claim: PostClaim, signal?: AbortSignal, takenOver = false): Promise<AskRecord> {
    // An abort while we post must still withdraw the message once it exists.
    const onAbort = () => void this.options.abort(record.id)
    signal?.addEventListener('abort', onAbort, { once: true })
    let posted: AskRecord | undefined
    try {
      posted = await this.outbox.posting(record.id, claim, (mayPost) => this.#post(record, mayPost, takenOver))
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
    // An abort between validation and the listener above did not fire it.
    if (signal?.aborted) await this.options.abort(record.id)
    // Recording the message read the ask back; only an abort can have changed it since.
    const current = (posted && !signal?.aborted ? posted : await this.options.store.get(record.id)) ?? record
    if (current.status === 'pending') {
      // Unposted: the claim was lost to another instance, which posts it.
      if (current.message) this.options.openHere.keep(current)
      this.options.expiry.arm(current)
      await this.options.store.schedule(jobsOf(current))
      // Approved while we were posting, before the message was known: show the progress now.
      if (hasQuorum(current) && (await this.options.store.approvals(current.id)).length > 0) await this.options.messages.showProgress(current.id)
    }
    // Settled while we were posting (an abort, a fast click) before the message existed: show it now.
    // As a recovery: a click may have recorded the message meanwhile (adoptMessage) and shown it; the claim and the shown flag make it once.
    else if (current.settlement && !current.finalMessageShown) await this.options.messages.showSettled(current, shownOutcome(current, current.settlement.outcome), 'recovery')
    // After the caller has its answer: a log line written to a file costs as much as a render, and
    // the listeners (the Home tabs) only mark whose list to draw again from the store.
    const where = `${current.message?.channel ?? record.target}${current.message ? ` (ts ${current.message.ts})` : ''}`
    const opened = current.status === 'pending' ? current : undefined
    const unposted = current.status === 'pending' && !current.message
    setImmediate(() => {
      this.options.logger.info(unposted ? `ask ${record.id}: its card is left to the instance that took over posting it` : `ask ${record.id} posted to ${where}`)
      if (opened) this.options.tellOpen(opened)
    })
    return current
  }

  /** Posts the ask's message; returns the ask as it stands once the message is recorded. */
  async #post(record: AskRecord, mayPost: MayPost, takenOver: boolean): Promise<AskRecord | undefined> {
    const result = await this.options.poster.post(record, (asked, message) => ({ ...postedEvent({ ...asked, message }, this.options.now()), ...originOf(asked) }), mayPost, takenOver)
    if ('posted' in result) return result.posted
    if ('claimLost' in result) return undefined
    const { failure, channel } = result
    const message = `${failure.method} failed with Slack error "${failure.slackError}": ${adviceFor(failure.slackError, { channel })}`
    this.options.logger.error(`ask ${record.id}: ${message}`)
    await this.options.settle(record.id, { status: 'failed', outcome: { kind: 'failed', at: this.options.now(), reason: failure.slackError }, error: { code: 'SLACK_API_ERROR', message } })
    throw new UserInteractionError('SLACK_API_ERROR', message, { cause: failure })
  }
}
