import { HOME_ASKS_AT_MOST, homeView, noticeText, type HomeAskView, type HomeTabView, type Notice } from '../../blocks/index.js'
import type { Logger } from '../log/logger.js'
import type { AskRecord, PendingSummary } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import { MemoryHomeViewers, type HomeViewers } from '../store/home-viewers.js'
import type { Approval } from '../store/team-records.js'
import type { ChannelPacer } from '../slack/channel-pacer.js'
import { SlackCallError } from '../slack/slack-call-error.js'
import { adviceFor } from '../slack/slack-error-advice.js'
import type { SlackPort } from '../slack/slack-port.js'
import { TIMING } from '../slack/timing.js'
import type { AnswerPolicy } from './answer-policy.js'
import { approvalViewOf, askViewOf, type ViewSettings } from './ask-view.js'
import { ConversationMembers } from './conversation-members.js'
import { hasQuorum } from './quorum.js'

export interface HomeTabOptions {
  store: AskStore
  slack: Pick<SlackPort, 'publishHome' | 'conversationMembers'>
  /** The bridge's pacer: views.publish takes its turn in Tier 4 (shared by every instance on a shared store). */
  pacer: Pick<ChannelPacer, 'publish'>
  policy: AnswerPolicy
  settings: ViewSettings
  logger: Logger
  now: () => number
  /** This instance, as the holder of a person's publishing claim. */
  instance: string
}

/** Rounds one publish may take when other instances keep marking the tab stale; then the claim runs out and they take over. */
const MAX_ROUNDS = 5

/** What the interaction handlers need of the app's Home tab (`HomeTab` keeps it). */
export interface HomePort {
  /** The person opened their Home tab: remember that they have it open, and publish it. */
  opened(user: string): Promise<void>
  /** The person acted on their Home tab: they still have it open. */
  seen(user: string): void
  /** Shows `notice` at the top of the person's Home tab (it is published again with it). */
  tell(user: string, notice: Notice): void
  /** Whether the ask belongs on this person's tab (they may answer it and are in its conversation); `fresh`: membership looked up now. */
  sees(user: string, record: Pick<AskRecord, 'message' | 'policy'>, options?: { fresh?: boolean }): Promise<boolean>
}

/**
 * The app's Home tab, "Waiting for you". Published when a person opens it,
 * and again, for everyone who has it open (opened within
 * TIMING.homeViewerMs), when an ask they may answer opens, gains an approval
 * or settles. Refreshes are coalesced per person (TIMING.homeRefreshDelayMs)
 * and paced to views.publish's Tier 4; one read of the pending asks serves a
 * whole batch; on a shared store, within the rate budget all instances share.
 *
 * Who has the tab open lives in the store when it is shared (any instance
 * may receive `app_home_opened`, and any other may settle the ask), else in
 * this process. Publishing takes turns per person (HomeViewers.claim), so an
 * older picture never lands after a newer one.
 */
export class HomeTab implements HomePort {
  readonly #viewers: HomeViewers
  readonly #members: ConversationMembers
  /** refreshFor() calls still finding whose tabs list their ask (stop() lets them finish). */
  readonly #finding = new Set<Promise<void>>()
  /** People whose tab is to be published, with the notice to show on it. */
  readonly #dirty = new Map<string, Notice | undefined>()
  #timer: NodeJS.Timeout | undefined
  #flushing: Promise<void> | undefined
  #stopped = false
  #warnedNotEnabled = false

  constructor(private readonly options: HomeTabOptions) {
    this.#viewers = options.store.homeViewers ?? new MemoryHomeViewers()
    this.#members = new ConversationMembers(options.slack, options.logger, options.now)
  }

  async opened(user: string): Promise<void> {
    await this.#viewers.seen(user, this.options.now())
    this.refresh(user)
  }

  seen(user: string): void {
    this.#viewers.seen(user, this.options.now()).catch((error: unknown) => this.#warn(`could not note that ${user} has the Home tab open`, error))
  }

  tell(user: string, notice: Notice): void {
    this.refresh(user, notice)
  }

  /** Publishes the person's tab soon (coalesced); a notice given here shows on it. */
  refresh(user: string, notice?: Notice): void {
    if (this.#stopped) return
    this.#dirty.set(user, notice ?? this.#dirty.get(user))
    this.#schedule()
  }

  /** An ask opened, changed or settled: every open tab that lists (or listed) it is published again. */
  refreshFor(record: AskRecord): Promise<void> {
    if (this.#stopped || !record.message) return Promise.resolve()
    const finding = this.#refreshFor(record).finally(() => this.#finding.delete(finding))
    this.#finding.add(finding)
    return finding
  }

  async #refreshFor(record: AskRecord): Promise<void> {
    const open = await this.#viewers.openSince(this.options.now() - TIMING.homeViewerMs)
    for (const user of open) if (await this.sees(user, record)) this.refresh(user)
  }

  /**
   * Publishes what is still owed, then takes no more refreshes: the asks a
   * stopping process withdrew leave the tabs that listed them (a waiting
   * refresh would otherwise be dropped with the process). A publish under
   * way finishes first.
   */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.#finding])
    await this.#flushing
    clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#dirty.size > 0) await this.#flush().catch((error: unknown) => this.#warn('could not publish Home tabs', error))
    this.#stopped = true
    this.#dirty.clear()
  }

  #schedule(delayMs: number = TIMING.homeRefreshDelayMs): void {
    if (this.#timer || this.#flushing || this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.#flushing = this.#flush()
        .catch((error: unknown) => this.#warn('could not publish Home tabs', error))
        .finally(() => {
          this.#flushing = undefined
          if (this.#dirty.size > 0) this.#schedule()
        })
    }, delayMs)
    this.#timer.unref()
  }

  async #flush(): Promise<void> {
    const batch = [...this.#dirty]
    this.#dirty.clear()
    const read = new PendingRead(this.options.store)
    for (const [user, notice] of batch) {
      if (this.#stopped) return
      await this.#publish(user, notice, read)
    }
  }

  /** Publishes one person's tab under their claim; another instance's wish meanwhile makes one more round. */
  async #publish(user: string, notice: Notice | undefined, read: PendingRead): Promise<void> {
    const holder = this.options.instance
    const now = this.options.now()
    if (!(await this.#viewers.claim(user, holder, now, now + TIMING.homeClaimMs))) return
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (!(await this.#send(user, notice, round === 0 ? read : new PendingRead(this.options.store)))) return
      if (await this.#viewers.release(user, holder)) return
    }
    this.options.logger.warn(`the Home tab of ${user} kept changing while it was published; it is left to the next refresh`)
  }

  /**
   * One views.publish within Tier 4 (the pacer waits out Slack's Retry-After).
   * The tab is drawn when its turn comes, each time it is sent: a Retry-After
   * can outlast this instance's claim, and the asks on the tab change
   * meanwhile. False when it failed: the claim is let go, and a tab still
   * rate limited is published again later.
   */
  async #send(user: string, notice: Notice | undefined, read: PendingRead): Promise<boolean> {
    let tries = 0
    try {
      await this.options.pacer.publish(async () => {
        if (tries++ > 0) {
          // After a pause: take the claim again (another instance holding it now publishes the tab instead), and read afresh.
          const now = this.options.now()
          if (!(await this.#viewers.claim(user, this.options.instance, now, now + TIMING.homeClaimMs))) return
          read = new PendingRead(this.options.store)
        }
        await this.options.slack.publishHome(user, await this.#viewFor(user, read, notice))
      })
      return true
    } catch (error) {
      if (error instanceof SlackCallError && error.slackError === 'ratelimited') {
        // Still limited after the pacer's retries: publish again later (the newest picture, the notice kept).
        this.#dirty.set(user, notice ?? this.#dirty.get(user))
      } else if (error instanceof SlackCallError && error.slackError === 'not_enabled') {
        if (!this.#warnedNotEnabled) this.options.logger.warn(`views.publish failed with Slack error "not_enabled": ${adviceFor('not_enabled')}`)
        this.#warnedNotEnabled = true
      } else {
        this.#warn(`could not publish the Home tab of ${user}`, error)
      }
      // Let go even if another instance marked the tab stale meanwhile: the
      // first release only clears the mark, the second frees the claim.
      const release = () => this.#viewers.release(user, this.options.instance).catch(() => true)
      if (!(await release())) await release()
      return false
    }
  }

  /**
   * The tab as `user` sees it now: the pending asks they may answer. Only
   * the newest that can fit are drawn (their views built, their approvals
   * read); the rest are counted: a person who may answer a thousand asks
   * costs a thousand checks, not a thousand views and reads.
   */
  async #viewFor(user: string, read: PendingRead, notice?: Notice): Promise<HomeTabView> {
    const theirs: PendingSummary[] = []
    for (const summary of await read.pending()) if (await this.sees(user, summary)) theirs.push(summary)
    // Newest first as homeView orders them (ties by id, descending), so the drawn ones are the ones it would show.
    theirs.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    const drawn = await read.records(theirs.slice(0, HOME_ASKS_AT_MOST))
    const asks: HomeAskView[] = []
    for (const record of drawn) {
      const approvals = hasQuorum(record) ? await read.approvals(record.id) : []
      const where = { createdAt: record.createdAt, channel: record.message.channel, ...(record.message.permalink ? { permalink: record.message.permalink } : {}) }
      asks.push(record.kind === 'approval' ? { ...where, kind: 'approval', view: approvalViewOf(record, this.options.settings, approvals) } : { ...where, kind: 'question', view: askViewOf(record, this.options.settings, approvals) })
    }
    const locale = this.options.settings.locale
    return homeView({ locale, now: this.options.now(), asks, older: theirs.length - Math.min(theirs.length, HOME_ASKS_AT_MOST), ...(notice ? { notice: noticeText(locale, notice) } : {}) })
  }

  /**
   * Whether the ask belongs on this person's tab: they may answer it (its
   * approvers or answerers, else the allowed users and groups) and are in
   * its conversation. Being named does not show a private channel's ask to
   * someone outside the channel (README: never on an outsider's tab), and a
   * DM is its person's alone. Checked again on every click from a tab, so a
   * stale tab cannot act on what it should no longer show.
   */
  async sees(user: string, record: Pick<AskRecord, 'message' | 'policy'>, options: { fresh?: boolean } = {}): Promise<boolean> {
    if (!record.message) return false
    if (!(await this.options.policy.mayAnswer(user, record.policy?.approvers, record.policy?.answerers))) return false
    return this.#members.has(record.message.channel, user, options)
  }

  #warn(what: string, error: unknown): void {
    this.options.logger.warn(`${what}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * One read of the pending asks shared by every tab of a batch: every
 * posted one summarised (to find whose tab lists it); then, per tab, the
 * whole records of those it draws in one read, and their approvals, each
 * read once.
 */
class PendingRead {
  #pending: Promise<PendingSummary[]> | undefined
  readonly #approvals = new Map<string, Promise<Approval[]>>()

  constructor(private readonly store: AskStore) {}

  pending(): Promise<PendingSummary[]> {
    return (this.#pending ??= this.store.listPendingSummaries().then((asks) => asks.filter((ask) => ask.message !== undefined)))
  }

  /** The asks' whole records, in one read; one settled since the summaries were read is left out. */
  async records(summaries: PendingSummary[]): Promise<(AskRecord & { message: NonNullable<AskRecord['message']> })[]> {
    const records = await this.store.listPendingAmong(summaries.map((summary) => summary.id))
    return records.filter((record): record is AskRecord & { message: NonNullable<AskRecord['message']> } => record.message !== undefined)
  }

  approvals(id: string): Promise<Approval[]> {
    let approvals = this.#approvals.get(id)
    if (!approvals) this.#approvals.set(id, (approvals = this.store.approvals(id)))
    return approvals
  }
}
