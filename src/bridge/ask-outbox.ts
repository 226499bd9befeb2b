import type { Logger } from '../log/logger.js'
import { TIMING } from '../slack/timing.js'
import type { AskRecord, PostClaim, PostClaimResult } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'

export interface AskOutboxOptions {
  store: AskStore
  instance: string
  now: () => number
  logger: Logger
  /** Posts an ask whose claim this instance has just taken over (as its first poster would have, without the insert). */
  postTakenOver: (record: AskRecord, claim: PostClaim) => Promise<AskRecord>
  stopped: () => boolean
}

/** While posting an ask: whether this instance still holds the right to call Slack for it. */
export type MayPost = () => boolean

/**
 * Posting is an outbox. An ask's row is written with a claim on posting its
 * card (a lease: this instance, until the channel's queue and one call have
 * had their time); the card is posted under it, and the claim is renewed
 * while a post takes longer. An ask whose card is still unposted once its
 * claim has run out (its instance died mid-post, or froze) is posted by
 * whichever instance sees it next: a retried POST, or the sweep. One claim
 * at a time means one poster at a time; what no claim can tell is a post
 * Slack took in the moment its poster died, before the poster heard back
 * (chat.postMessage has no idempotency key): every card carries its ask's
 * id in its metadata, and the taker looks for it in the channel's history
 * first and adopts it (PostedCardLookup). Only without the history scope, or
 * when that look-up fails, may the ask get a second card; both are
 * answerable (docs/outages.md).
 */
export class AskOutbox {
  /** Asks this instance is posting now. */
  readonly #here = new Set<string>()
  /** Asks held by another instance's claim: looked at again when it runs out. */
  readonly #lookAgain = new Map<string, NodeJS.Timeout>()

  constructor(private readonly options: AskOutboxOptions) {}

  /** The claim a new ask is inserted with: its queue's wait and one call's time from now. */
  claimAtInsert(expectedWaitMs: number): PostClaim {
    return { holder: this.options.instance, until: this.options.now() + expectedWaitMs + TIMING.postClaimMs }
  }

  /** Whether this instance is posting the ask right now. */
  postingHere(id: string): boolean {
    return this.#here.has(id)
  }

  /**
   * Runs one post of `id` under `claim`, renewing it while the post lasts
   * (a slow queue, a slow Slack). `work` gets `mayPost`: false once the
   * claim is lost or could not be renewed in time; then Slack must not be
   * called, since another instance may be posting.
   */
  async posting<T>(id: string, claim: PostClaim, work: (mayPost: MayPost) => Promise<T>): Promise<T> {
    const { store, instance, now } = this.options
    this.#here.add(id)
    let until = claim.until
    let lost = false
    const renew = setInterval(() => {
      if (until - now() > (TIMING.postClaimMs * 2) / 3) return
      store.claimPost(id, instance, now(), now() + TIMING.postClaimMs).then(
        (result) => {
          if (result.kind === 'taken') until = now() + TIMING.postClaimMs
          else if (result.kind === 'held') lost = true
        },
        // The store away: the claim runs out unrenewed, and mayPost says so.
        () => undefined,
      )
    }, TIMING.postClaimMs / 6)
    renew.unref()
    try {
      return await work(() => !lost && now() < until)
    } finally {
      clearInterval(renew)
      this.#here.delete(id)
    }
  }

  /**
   * An ask seen pending with no card, not being posted here: takes its claim
   * and posts it if the claim is free or has run out; if another instance
   * holds it, looks again when it runs out. Returns what it found (and, for
   * `taken`, the post under way).
   */
  async takeOver(record: AskRecord): Promise<{ result: PostClaimResult; posted?: Promise<AskRecord> }> {
    const { store, instance, now } = this.options
    if (this.options.stopped() || this.#here.has(record.id) || record.status !== 'pending' || record.message) return { result: { kind: 'moot' } }
    const claim = { holder: instance, until: now() + TIMING.postClaimMs }
    const result = await store.claimPost(record.id, instance, now(), claim.until)
    if (result.kind === 'held') this.#lookAgainAt(record.id, result.until)
    if (result.kind !== 'taken') return { result }
    this.options.logger.warn(`ask ${record.id} was recorded but its card was never posted (its instance stopped mid-post): posting it here, unless Slack already has it`)
    const posted = this.options.postTakenOver(record, claim)
    // Slack's refusal settles the ask as failed (its agent is told); whoever asked for the post sees the rest, and the sweep's is logged.
    posted.catch((error: unknown) => this.options.logger.warn(`ask ${record.id}: could not post the card taken over: ${error instanceof Error ? error.message : String(error)}`))
    return { result, posted }
  }

  #lookAgainAt(id: string, until: number): void {
    if (this.#lookAgain.has(id)) return
    const timer = setTimeout(() => {
      this.#lookAgain.delete(id)
      this.options.store
        .get(id)
        .then((record) => (record ? this.takeOver(record) : undefined))
        .catch((error: unknown) => this.options.logger.warn(`ask ${id}: could not look at its unposted card again: ${error instanceof Error ? error.message : String(error)}`))
    }, Math.max(0, until - this.options.now()) + 1)
    timer.unref()
    this.#lookAgain.set(id, timer)
  }

  stop(): void {
    for (const timer of this.#lookAgain.values()) clearTimeout(timer)
    this.#lookAgain.clear()
  }
}
