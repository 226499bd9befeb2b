import { randomUUID } from 'node:crypto'
import type { Outcome, Person } from '../../blocks/view.js'
import { UserInteractionError, validateRequest, type AskUserQuestionRequest, type ValidRequest } from '../contract/index.js'
import type { Logger } from '../log/logger.js'
import { requestKeyOf, type AskOwner, type AskRecord, type Settlement, type SettleResult } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { ChannelPacer } from '../slack/channel-pacer.js'
import { TIMING } from '../slack/timing.js'
import type { MessageContent, SlackPort } from '../slack/slack-port.js'
import type { ViewSettings } from './ask-view.js'
import { ProcessLease } from './process-lease.js'
import { AskPoster } from './ask-poster.js'
import { approvalRecord, questionRecord, type IntakeContext } from './ask-intake.js'
import { AuditOrigins } from './audit-origins.js'
import { AskExpiry } from './ask-expiry.js'
import { AskRecovery } from './ask-recovery.js'
import { MessageAdoption } from './message-adoption.js'
import { RelayClosing } from './relay-closing.js'
import { shownOutcome } from './shown-outcome.js'
import { AskPosting } from './ask-posting.js'
import { AskSettlement, type ApproveResult } from './ask-settlement.js'
import { MessageUpdates } from './message-updates.js'
import { OpenAsksHere } from './open-asks-here.js'
import { LateEvents } from './late-events.js'
import { createRenderer, type Renderer } from './render-pool.js'
import type { CloseHow, OpenApprovalInput, OpenAskOptions } from './types.js'
import { policyFromEnvironment } from '../policy/environment-policy.js'
import { PolicyHolder } from '../policy/policy-holder.js'
import type { NewAskEvent } from '../store/team-records.js'

export interface LifecycleOptions {
  store: AskStore
  slack: SlackPort
  pacer: ChannelPacer
  settings: ViewSettings
  /** Where asks go when the request names no channel. */
  defaultChannel?: string
  defaultTimeoutMs?: number
  owner: 'service' | 'library'
  logger: Logger
  now?: () => number
  /** How long a library process's lease runs ahead (default TIMING.leaseMs); renewed at a third of it. */
  leaseMs?: number
  /**
   * The workspace URL from `auth.test` (`https://team.slack.com/`): permalinks
   * are built from it. Unknown: one chat.getPermalink per ask instead.
   */
  workspaceUrl?: string
  /** The operator's policy (rules, quorum, approvers, reminders, escalation, keys); absent: no rules. */
  policy?: PolicyHolder
  /** Renders the messages (default: long asks on a render thread, short ones in place). */
  renderer?: Renderer
}

export type { ApproveResult } from './ask-settlement.js'


/**
 * One ask's life, whoever asked (the seam, the HTTP API, the relay): record
 * → post → wait → settle once → show the settlement. Settling resolves the
 * waiting caller before the message is updated, and a failed update never
 * loses the answer.
 */
export class AskLifecycle {
  readonly instance = randomUUID()
  readonly #expiry: AskExpiry
  readonly #recovery: AskRecovery
  /** Pending → settled, once, and showing it. */
  readonly #settlement: AskSettlement
  /** Told when an open ask is posted or gains an approval (the Home tab lists open asks). */
  readonly #openListeners = new Set<(record: AskRecord) => void>()
  /** Recording and posting asks, as an outbox. */
  readonly #posting: AskPosting
  #stopped = false
  readonly #now: () => number
  /** A library process's lease in the store, held from its first ask until stop. */
  readonly #lease: ProcessLease
  /** Messages named by clicks, recorded if their poster has not done it by then (adoptMessage). */
  readonly #adoption: MessageAdoption
  /** A relay's word on its asks: delivered, or settled on the host. */
  readonly #relay: RelayClosing
  readonly #unsubscribe: (() => void) | undefined

  readonly #renderer: Renderer
  readonly #messages: MessageUpdates
  readonly #poster: AskPoster
  readonly #policy: PolicyHolder
  /** Rule and key of recent asks, for their audit events. */
  readonly #origins: AuditOrigins
  /** Open asks posted here, as recorded with their message: a click on one is not read back. */
  readonly #openHere = new OpenAsksHere()
  /** Audit events waiting for the store to be reachable again. */
  readonly #lateEvents: LateEvents

  constructor(private readonly options: LifecycleOptions) {
    this.#now = options.now ?? Date.now
    this.#policy = options.policy ?? new PolicyHolder(policyFromEnvironment({ ...(options.defaultChannel ? { channel: options.defaultChannel } : {}) }))
    this.#renderer = options.renderer ?? createRenderer(options.logger, { warm: options.owner === 'service' })
    const { store, slack, pacer, settings, logger } = options
    this.#poster = new AskPoster({ store, slack, pacer, settings, logger, renderer: this.#renderer, ...(options.workspaceUrl ? { workspaceUrl: options.workspaceUrl } : {}), stopped: () => this.#stopped })
    this.#messages = new MessageUpdates({ store, slack, pacer, settings, logger, renderer: this.#renderer, instance: this.instance, now: this.#now, recordEvent: (event) => this.#record(event) })
    this.#origins = new AuditOrigins(store)
    this.#adoption = new MessageAdoption({ store, logger, stopped: () => this.#stopped, showSettled: (record) => this.#messages.showSettled(record, record.settlement!.outcome, 'recovery') })
    this.#relay = new RelayClosing({ store, slack, settings, logger, now: this.#now, settle: (id, settlement) => this.settle(id, settlement), showSettled: (record, outcome) => this.#messages.showSettled(record, outcome, 'correction') })
    this.#expiry = new AskExpiry({ now: this.#now, expire: (id) => void this.expire(id) })
    this.#lateEvents = new LateEvents({ append: (event) => this.#origins.append(event), logger })
    const leaseMs = options.leaseMs ?? TIMING.leaseMs
    this.#lease = new ProcessLease({ store: options.store, instance: this.instance, leaseMs, now: this.#now, logger: options.logger })
    this.#posting = new AskPosting({
      store,
      pacer,
      logger,
      instance: this.instance,
      now: this.#now,
      poster: this.#poster,
      lease: this.#lease,
      openHere: this.#openHere,
      expiry: this.#expiry,
      messages: this.#messages,
      stopped: () => this.#stopped,
      abort: (id) => this.abort(id),
      settle: (id, settlement) => this.settle(id, settlement),
      tellOpen: (record) => this.#tellOpen(record),
    })
    this.#settlement = new AskSettlement({
      store,
      logger,
      instance: this.instance,
      now: this.#now,
      lease: this.#lease,
      openHere: this.#openHere,
      expiry: this.#expiry,
      messages: this.#messages,
      stopped: () => this.#stopped,
      recordEvent: (event) => this.#record(event),
      tellOpen: (record) => this.#tellOpen(record),
    })
    this.#recovery = new AskRecovery({
      store,
      owner: options.owner,
      lease: this.#lease,
      leaseMs,
      outbox: this.#posting.outbox,
      logger,
      expire: (id) => this.expire(id),
      armExpiry: (record) => this.#expiry.arm(record),
      now: this.#now,
      showSettled: (record) => this.#messages.showSettled(record, shownOutcome(record, record.settlement!.outcome), 'recovery'),
      stopped: () => this.#stopped,
    })
    // Another instance's new ask with an expiry coming up: arm it here too, so
    // it expires even if that instance dies; the settle claim makes it once.
    // A later one is armed by the sweep, when it comes within reach (decision 0104).
    this.#unsubscribe = options.store.onInsertedElsewhere?.((ask) => {
      if (!this.#stopped && ask.expiresAt <= this.#now() + TIMING.expiryArmAheadMs) this.#expiry.arm(ask)
    })
  }

  get store(): AskStore {
    return this.options.store
  }

  /**
   * The ask a person acts on: as kept when this process posted it and it is
   * still open here (see OpenAsksHere for why that is safe), else as stored.
   * Read-only: a kept record is shared.
   */
  async readForAction(id: string): Promise<AskRecord | undefined> {
    return this.#openHere.get(id) ?? (await this.options.store.get(id))
  }

  /**
   * The ask as this process knows it without a read, or undefined: kept open
   * here (posted by this process, not settled here since), or settled here
   * lately (final). Read-only, shared. What a read-only wait starts from
   * (waiting.ts).
   */
  knownHere(id: string): AskRecord | undefined {
    return this.#openHere.get(id) ?? this.#openHere.settledHere(id)
  }

  get owner(): AskOwner {
    return this.options.owner === 'service' ? { kind: 'service' } : { kind: 'library', pid: process.pid, instance: this.instance }
  }

  /** Validates and posts a question ask; with a known idempotency key or relayed request returns the existing ask. */
  async open(request: AskUserQuestionRequest | unknown, options: OpenAskOptions = {}): Promise<AskRecord> {
    const valid = validateRequest(request)
    return this.openValid(valid, options)
  }

  async openValid(valid: ValidRequest, options: OpenAskOptions = {}): Promise<AskRecord> {
    const requestKey = requestKeyOf(options)
    const existing = requestKey === undefined ? undefined : await this.options.store.findByExternalKey(requestKey)
    if (existing) return this.#posting.repeated(existing, options.onQueued)
    const record = questionRecord(valid, options, this.#intake())
    this.#origins.remember(record)
    return this.#posting.insertAndPost(record, valid.signal, options.onQueued, options.caps).catch(async (error: unknown) => {
      // Two requests with one key at once (a client retrying a POST that is
      // still being handled): the insert of the second fails on the key, and
      // it gets the first's ask.
      if (requestKey === undefined || error instanceof UserInteractionError) throw error
      const first = await this.options.store.findByExternalKey(requestKey).catch(() => undefined)
      if (!first || first.id === record.id) throw error
      return first
    })
  }

  async openApproval(input: OpenApprovalInput, options: OpenAskOptions = {}): Promise<AskRecord> {
    const requestKey = requestKeyOf(options)
    const existing = requestKey === undefined ? undefined : await this.options.store.findByExternalKey(requestKey)
    if (existing) return this.#posting.repeated(existing, options.onQueued)
    const record = approvalRecord(input, options, this.#intake())
    this.#origins.remember(record)
    return this.#posting.insertAndPost(record)
  }

  /** The policy in force now (a reload swaps it; open asks keep theirs). */
  get policy(): PolicyHolder {
    return this.#policy
  }

  /** What a new ask's record is built from, as things stand now. */
  #intake(): IntakeContext {
    return {
      policy: this.#policy.current,
      owner: this.owner,
      now: this.#now(),
      ...(this.options.defaultChannel !== undefined ? { defaultChannel: this.options.defaultChannel } : {}),
      ...(this.options.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: this.options.defaultTimeoutMs } : {}),
    }
  }

  /** A click names the message of an ask whose record lacks it (see MessageAdoption). */
  adoptMessage(id: string, message: { channel: string; ts: string }): void {
    this.#adoption.adopt(id, message)
  }

  /** A settled ask whose card still shows its controls (see AskSettlement). Never awaited. */
  showIfUnshown(record: AskRecord): void {
    this.#settlement.showIfUnshown(record)
  }

  /** Resolves once the ask's thread continuation (if any) has gone out, or been given up. */
  async whenFullyPosted(id: string): Promise<void> {
    await this.#posting.allPosted()
    await this.#poster.whenContinued(id)
  }

  /** Pending → settled, once (see AskSettlement). */
  settle(id: string, settlement: Settlement, known?: AskRecord): Promise<SettleResult> {
    return this.#settlement.settle(id, settlement, known)
  }

  /**
   * Relay: the host accepted the answer given in Slack. Until now the
   * message said it was being delivered; now it says who answered.
   */
  delivered(id: string): Promise<void> {
    return this.#relay.delivered(id)
  }

  /**
   * Relay: a tool call's arguments arrived after its approval card was
   * posted. While the ask is open the card is drawn again with them (and a
   * long command's thread follows), and the Home tabs listing it are told;
   * a settled card is left as it is.
   */
  async showArguments(id: string, args: string): Promise<boolean> {
    this.#openHere.forget(id)
    if (!(await this.options.store.attachApprovalArguments(id, args))) return false
    await this.#messages.showProgress(id)
    const record = await this.options.store.get(id)
    // The Home tabs listing it show what it would run too.
    if (record?.status === 'pending') this.#tellOpen(record)
    if (record?.message) await this.#poster.continueLate(record)
    return true
  }

  /**
   * Appends to the audit trail; never throws (the ask's life goes on). While
   * the store is unreachable the event waits in order and is appended once
   * it is back; any other failure is logged.
   */
  #record(event: NewAskEvent): Promise<void> {
    return this.#lateEvents.record(event)
  }

  /** An escalation copy posted after its ask settled: give it the settled state. */
  showCopiesSettled(record: AskRecord): Promise<void> {
    return this.#messages.showCopiesSettled(record)
  }

  /** Where escalations posted a copy of the ask (DMs with its controls). */
  copiesOf(id: string): Promise<{ channel: string; ts: string }[]> {
    return this.#messages.copiesOf(id)
  }

  /** The ask's open card as it stands (with the quorum's approvals so far), from the body rendered when it was posted. */
  async openCard(record: AskRecord): Promise<MessageContent> {
    return (await this.#renderer.open(record, this.options.settings, await this.options.store.approvals(record.id))).message
  }

  /** Records an event from outside the lifecycle (the scheduler's reminders and escalations). */
  recordEvent(event: NewAskEvent): Promise<void> {
    return this.#record(event)
  }

  /** One person approves an ask with a quorum (see AskSettlement). */
  approve(id: string, by: Person): Promise<ApproveResult> {
    return this.#settlement.approve(id, by)
  }

  /** The agent withdrew the ask. Idempotent: a settled ask keeps its status. */
  abort(id: string, outcome: Outcome = { kind: 'aborted', at: this.#now() }): Promise<AskRecord | undefined> {
    return this.#settlement.abort(id, outcome)
  }

  expire(id: string): Promise<AskRecord | undefined> {
    return this.#settlement.expire(id)
  }

  /**
   * Relay: settled outside Slack. A settled ask only has its message
   * corrected. `undelivered`: the person's answer reached a host that no
   * longer held the request; the card says so, naming them, and they are told
   * privately (the ask keeps its settlement: it is what they answered).
   */
  closeElsewhere(id: string, how: CloseHow): Promise<AskRecord | undefined> {
    return this.#relay.closeElsewhere(id, how)
  }

  /** Every open ask once posted, and again whenever an approval is counted towards its quorum. */
  onOpenChanged(listener: (record: AskRecord) => void): () => void {
    this.#openListeners.add(listener)
    return () => this.#openListeners.delete(listener)
  }

  #tellOpen(record: AskRecord): void {
    for (const listener of this.#openListeners) listener(record)
  }

  onSettled(listener: (record: AskRecord) => void): () => void {
    return this.#settlement.onSettled(listener)
  }

  /**
   * At start: asks of a library process that is gone are marked expired
   * (their `ask()` died with it); every other ask with an expiry gets its
   * timer here (whichever instance fires first expires it, once); settled
   * asks whose message update failed are shown again. The check for gone
   * processes repeats while this instance runs.
   */
  recover(): Promise<void> {
    return this.#recovery.recover()
  }

  /** Withdraws this process's open asks (all of a service's, when asked to) and clears every timer. */
  async stop(options: { withdrawOpen?: boolean } = {}): Promise<void> {
    this.#stopped = true
    this.#adoption.stop()
    this.#posting.stop()
    await this.#posting.allPosted()
    this.#messages.stop()
    // Continuations end between parts once stopped; the part in flight finishes first.
    await this.#poster.allContinued()
    const withdraw = options.withdrawOpen ?? this.options.owner === 'library'
    if (withdraw) {
      const mine = (await this.options.store.listPending()).filter((record) =>
        record.owner.kind === 'service' ? this.options.owner === 'service' : record.owner.instance === this.instance,
      )
      await Promise.all(mine.map((record) => this.abort(record.id, { kind: 'stopped', at: this.#now() })))
    }
    this.#expiry.stop()
    this.#settlement.stop()
    this.#openListeners.clear()
    this.#openHere.clear()
    await this.#lateEvents.stop()
    await this.#renderer.close()
    this.#unsubscribe?.()
    this.#recovery.stop()
    await this.#lease.end(withdraw)
  }

  /** Settled cards whose update has kept failing for longer than TIMING.cardStuckAfterMs (`/metrics`). */
  stuckCards(): number {
    return this.#messages.stuckCards()
  }

  /** Audit events waiting for the store to be reachable again (`/metrics`). */
  auditEventsWaiting(): number {
    return this.#lateEvents.size
  }

  /** Open expiry timers (for leak checks). */
  get armedTimers(): number {
    return this.#expiry.armed
  }
}

