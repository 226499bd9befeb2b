import { messagePermalink } from '../slack/permalink.js'
import { SlackCallError, toSlackCallError } from '../slack/slack-call-error.js'
import type { AskRecord, PostedMessage } from '../store/ask-record.js'
import type { NewAskEvent } from '../store/team-records.js'
import { isStoreUnavailable } from '../store/store-unavailable.js'
import { TIMING } from '../slack/timing.js'
import { postContinuation } from './continuation.js'
import { cardMetadata, PostedCardLookup } from './posted-card-lookup.js'
import type { AskParts } from './ask-parts.js'

const USER_ID = /^[UW][A-Z0-9]+$/

/** The store failed after the message was posted: not Slack's failure, so not settled as one. */
class StoreStillUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super('the store failed after the message was posted', { cause })
  }
}

export interface AskPosterOptions extends AskParts {
  /** The workspace URL from `auth.test`: permalinks without a call per ask (unknown: chat.getPermalink). */
  workspaceUrl?: string
  /** True once the bridge stops: a continuation ends between parts. */
  stopped: () => boolean
}

/** Why a post failed, and where it was going (Slack's advice names the channel). */
export interface PostFailure {
  failure: SlackCallError
  channel: string
}

/**
 * The ask as it stands once its message is recorded (it may have settled
 * meanwhile), or why posting failed, or `claimLost`: this instance no longer
 * held the right to post it when its turn came (another instance may).
 */
export type PostResult = { posted: AskRecord | undefined } | PostFailure | { claimLost: true }

/** Thrown in the channel's queue when the post's claim was lost by its turn: nothing was sent. */
class PostClaimLost extends Error {}

/** The audit event that records where an ask's message went (written with the message, in one step). */
export type PostedEventFor = (record: AskRecord, message: PostedMessage) => NewAskEvent

/**
 * Puts an ask in front of people: resolves a user id to its DM, renders,
 * posts the main message within the channel's pace and records where it
 * is. The rest of a long plan (thread parts, the attached file) follows in
 * the background, so the ask is answerable as soon as its message is.
 */
export class AskPoster {
  readonly #dmChannels = new Map<string, string>()
  /** Thread continuations still going out, by ask id. */
  readonly #continuing = new Map<string, Promise<void>>()
  readonly #lookup: PostedCardLookup

  constructor(private readonly options: AskPosterOptions) {
    this.#lookup = new PostedCardLookup({ slack: options.slack, logger: options.logger })
  }

  /**
   * Posts the ask's message; a failure is returned, not thrown, for the
   * lifecycle to settle the ask with. `takenOver`: the ask's first poster
   * stopped mid-post; a card it got into Slack is adopted, not posted again.
   */
  async post(record: AskRecord, postedEvent: PostedEventFor, mayPost: () => boolean = () => true, takenOver = false): Promise<PostResult> {
    const { slack, pacer, settings, renderer, store, workspaceUrl } = this.options
    let channel = record.target
    try {
      channel = await this.#resolveChannel(record.target)
      const plan = await renderer.open(record, settings)
      const posted =
        (takenOver ? await this.#adoptable(record, channel) : undefined) ??
        (await pacer.run(channel, async () => {
          if (!mayPost()) throw new PostClaimLost()
          return slack.postMessage(channel, plan.message, undefined, cardMetadata(record.id))
        }))
      const permalink = messagePermalink(workspaceUrl, posted.channel, posted.ts) ?? (await slack.permalink(posted.channel, posted.ts).catch(() => undefined))
      // The message is in Slack now: a store that is away at this moment is
      // waited for, and is never taken for Slack refusing the post (that
      // would settle as failed an ask people can see and answer).
      const message: PostedMessage = { channel: posted.channel, ts: posted.ts, ...(permalink ? { permalink } : {}) }
      const current = await this.#attach(record, message, postedEvent(record, message))
      // The question is visible and answerable now: the rest of a long plan follows in its thread, and ask() does not wait for it.
      if (plan.thread.length > 0 || plan.file) {
        const { logger, stopped } = this.options
        const done = postContinuation({ slack, pacer, logger }, record.id, posted, plan, stopped).finally(() => this.#continuing.delete(record.id))
        this.#continuing.set(record.id, done)
      }
      return { posted: current }
    } catch (error) {
      if (error instanceof StoreStillUnavailable) throw error.cause
      if (error instanceof PostClaimLost) return { claimLost: true }
      return { failure: error instanceof SlackCallError ? error : toSlackCallError('chat.postMessage', error), channel }
    }
  }

  /**
   * Posts the thread continuation an ask's card now needs (a tool call's
   * long arguments that arrived after the card), in the background, once.
   */
  async continueLate(record: AskRecord): Promise<void> {
    if (!record.message || this.#continuing.has(record.id)) return
    const { slack, pacer, settings, renderer, logger, stopped } = this.options
    const plan = await renderer.open(record, settings)
    if (plan.thread.length === 0 && !plan.file) return
    const done = postContinuation({ slack, pacer, logger }, record.id, record.message, plan, stopped).finally(() => this.#continuing.delete(record.id))
    this.#continuing.set(record.id, done)
  }

  /** The card a stopped poster got into Slack, if the channel's history shows one (logged: it is adopted). */
  async #adoptable(record: AskRecord, channel: string): Promise<{ channel: string; ts: string } | undefined> {
    const found = await this.#lookup.find(record, channel)
    if (found) this.options.logger.warn(`ask ${record.id}: its stopped instance had posted its card (ts ${found.ts}) without recording it: adopted, not posted again`)
    return found
  }

  /**
   * Records where the message is, through a store outage of up to
   * TIMING.attachRetryForMs. `record` is the ask as recorded before the
   * post: the store hands it back with the message rather than reading the
   * row back, unless the ask changed meanwhile (decision 0079).
   */
  async #attach(record: AskRecord, message: PostedMessage, event: NewAskEvent): Promise<AskRecord | undefined> {
    const { id } = record
    const giveUpAt = Date.now() + TIMING.attachRetryForMs
    for (let delay: number = TIMING.attachRetryFirstMs; ; delay = Math.min(delay * 2, TIMING.attachRetryMaxMs)) {
      try {
        return await this.options.store.attachMessage(id, message, event, record)
      } catch (error) {
        if (!isStoreUnavailable(error)) throw error
        if (Date.now() >= giveUpAt) {
          this.options.logger.error(`ask ${id} is posted (ts ${message.ts}) but the store could not record where for ${TIMING.attachRetryForMs / 1000} s: clicks on it still count; its card will keep its buttons once settled`)
          throw new StoreStillUnavailable(error)
        }
        await new Promise((resolve) => setTimeout(resolve, delay))
      }
    }
  }

  /** Resolves once the ask's continuation (if any) has gone out, or been given up. */
  async whenContinued(id: string): Promise<void> {
    await this.#continuing.get(id)
  }

  /** Resolves once every continuation in flight has ended (they end between parts once stopped). */
  async allContinued(): Promise<void> {
    await Promise.all([...this.#continuing.values()])
  }

  async #resolveChannel(target: string): Promise<string> {
    if (!USER_ID.test(target)) return target
    const known = this.#dmChannels.get(target)
    if (known) return known
    const channel = await this.options.slack.openDirectMessage(target)
    this.#dmChannels.set(target, channel)
    return channel
  }
}
