import { randomBytes, randomUUID } from 'node:crypto'
import { noticeText } from '../../blocks/index.js'
import type { Outcome, Person } from '../../blocks/view.js'
import { UserInteractionError, validateAnswer, validateRequest, type AskUserQuestionRequest, type ValidRequest } from '../contract/index.js'
import { timeoutProblem } from '../config/duration.js'
import type { Logger } from '../log/logger.js'
import type { AskOwner, AskRecord, Settlement, SettleResult } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { ChannelPacer } from '../slack/channel-pacer.js'
import { SlackCallError, toSlackCallError } from '../slack/slack-call-error.js'
import { TIMING } from '../slack/timing.js'
import { adviceFor } from '../slack/slack-error-advice.js'
import { messagePermalink } from '../slack/permalink.js'
import type { SlackPort } from '../slack/slack-port.js'
import { agentView } from './agent-view.js'
import { postContinuation } from './continuation.js'
import type { ViewSettings } from './ask-view.js'
import { setLongTimeout } from './long-timeout.js'
import { describeOutcome } from './describe-outcome.js'
import { isProcessAlive } from './process-alive.js'
import { createRenderer, type Renderer } from './render-pool.js'
import type { PostPlan } from './render.js'
import type { CloseHow, OpenApprovalInput, OpenAskOptions } from './types.js'
import type { MessageContent } from '../slack/slack-port.js'
import { resolvePolicy, styleOfQuestions, type AskStyle, type PolicyDefaults } from './ask-policy.js'
import { postedEvent, settlementEvent } from './audit-events.js'
import { hasQuorum, quorumSettlement, requiredApprovals } from './quorum.js'
import type { NewAskEvent, ScheduledJob } from '../store/team-records.js'

/** Why a message is being updated: the settlement (once), a recovery retry, or a later correction. */
type ShowHow = 'settlement' | 'recovery' | 'correction'

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
  /** Team defaults: quorum, approvers, reminder, escalation. */
  policyDefaults?: PolicyDefaults
  /** Renders the messages (default: long asks on a render thread, short ones in place). */
  renderer?: Renderer
}

/** What an approval towards a quorum did. */
export type ApproveResult =
  | { kind: 'counted'; given: number; required: number }
  | { kind: 'duplicate'; given: number; required: number }
  /** This approval completed the quorum and settled the ask. */
  | { kind: 'settled'; record: AskRecord }
  /** Too late: settled already (by a veto, another approval, expiry…). */
  | { kind: 'closed'; record: AskRecord }

const NO_DEFAULTS: PolicyDefaults = { approvals: 1, approvers: [] }

const USER_ID = /^[UW][A-Z0-9]+$/

/** Ask ids go into action ids: url-safe, unguessable, short. */
export function newAskId(): string {
  return randomBytes(12).toString('base64url')
}

/**
 * One ask's life, whoever asked (the seam, the HTTP API, the relay): record
 * → post → wait → settle once → show the settlement. Settling resolves the
 * waiting caller before the message is updated, and a failed update never
 * loses the answer.
 */
export class AskLifecycle {
  readonly instance = randomUUID()
  readonly #expiryTimers = new Map<string, () => void>()
  readonly #settledListeners = new Set<(record: AskRecord) => void>()
  readonly #dmChannels = new Map<string, string>()
  /** The last message update queued per ask: updates to one message go out in order. */
  readonly #updates = new Map<string, Promise<boolean>>()
  /** Asks being posted right now: stop() lets them finish before withdrawing them. */
  readonly #posting = new Set<Promise<unknown>>()
  /** Thread continuations still going out, by ask id (stop() ends them between parts). */
  readonly #continuing = new Map<string, Promise<void>>()
  #stopped = false
  readonly #now: () => number
  readonly #leaseMs: number
  /** Set once this (library) process holds a lease in the store; renewed until stop. */
  #lease: Promise<void> | undefined
  #leaseTimer: NodeJS.Timeout | undefined
  #sweepTimer: NodeJS.Timeout | undefined
  readonly #unsubscribe: (() => void) | undefined

  readonly #renderer: Renderer

  constructor(private readonly options: LifecycleOptions) {
    this.#now = options.now ?? Date.now
    this.#renderer = options.renderer ?? createRenderer(options.logger)
    this.#leaseMs = options.leaseMs ?? TIMING.leaseMs
    // Another instance's new ask with an expiry: arm it here too, so it
    // expires even if that instance dies; the settle claim makes it once.
    this.#unsubscribe = options.store.onInsertedElsewhere?.((ask) => {
      if (!this.#stopped) this.#armExpiry(ask)
    })
  }

  get store(): AskStore {
    return this.options.store
  }

  get owner(): AskOwner {
    return this.options.owner === 'service' ? { kind: 'service' } : { kind: 'library', pid: process.pid, instance: this.instance }
  }

  /** Validates and posts a question ask; with a known external key returns the existing ask. */
  async open(request: AskUserQuestionRequest | unknown, options: OpenAskOptions = {}): Promise<AskRecord> {
    const valid = validateRequest(request)
    return this.openValid(valid, options)
  }

  async openValid(valid: ValidRequest, options: OpenAskOptions = {}): Promise<AskRecord> {
    const existing = options.externalKey === undefined ? undefined : await this.options.store.findByExternalKey(options.externalKey)
    if (existing) return existing
    const record = this.#newRecord('question', options, styleOfQuestions(valid.questions))
    record.questions = valid.questions
    const agent = agentView(valid.agent)
    if (agent) record.agent = agent
    return this.#insertAndPost(record, valid.signal)
  }

  async openApproval(input: OpenApprovalInput, options: OpenAskOptions = {}): Promise<AskRecord> {
    const existing = options.externalKey === undefined ? undefined : await this.options.store.findByExternalKey(options.externalKey)
    if (existing) return existing
    if (typeof input.toolName !== 'string' || input.toolName.trim() === '') throw new UserInteractionError('BAD_REQUEST', 'an approval needs a tool name')
    const record = this.#newRecord('approval', options, 'approval')
    record.approval = { toolName: input.toolName }
    if (input.reason !== undefined) record.approval.reason = input.reason
    if (input.callId !== undefined) record.approval.callId = input.callId
    if (input.arguments !== undefined) record.approval.arguments = input.arguments
    if (input.agent) record.agent = input.agent
    return this.#insertAndPost(record)
  }

  #newRecord(kind: AskRecord['kind'], options: OpenAskOptions, style: AskStyle): AskRecord {
    const target = options.channel ?? this.options.defaultChannel
    if (!target) throw new UserInteractionError('BAD_REQUEST', 'no channel to ask in: set SLACK_CHANNEL (or the channel option), or pass a channel with the request')
    const policy = resolvePolicy(options.policy, this.options.policyDefaults ?? NO_DEFAULTS, style)
    const createdAt = this.#now()
    const record: AskRecord = { id: newAskId(), kind, questions: [], target, status: 'pending', createdAt, owner: this.owner }
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs
    const problem = timeoutMs === undefined ? null : timeoutProblem(timeoutMs)
    if (problem) throw new UserInteractionError('BAD_REQUEST', `timeoutMs ${problem}`)
    if (timeoutMs !== undefined) record.expiresAt = createdAt + timeoutMs
    if (options.externalKey !== undefined) record.externalKey = options.externalKey
    if (policy) record.policy = policy
    return record
  }

  #insertAndPost(record: AskRecord, signal?: AbortSignal): Promise<AskRecord> {
    if (this.#stopped) return Promise.reject(new UserInteractionError('ASK_ABORTED', 'the bridge is stopped; start a new one to ask'))
    const posting = this.#insertAndPostNow(record, signal)
    const tracked = posting.catch(() => undefined).finally(() => this.#posting.delete(tracked))
    this.#posting.add(tracked)
    return posting
  }

  async #insertAndPostNow(record: AskRecord, signal?: AbortSignal): Promise<AskRecord> {
    if (record.owner.kind === 'library') await this.#holdLease()
    await this.options.store.insert(record)
    // An abort while we post must still withdraw the message once it exists.
    const onAbort = () => void this.abort(record.id)
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      await this.#post(record)
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
    // An abort between validation and the listener above did not fire it.
    if (signal?.aborted) await this.abort(record.id)
    const current = (await this.options.store.get(record.id)) ?? record
    await this.#record(postedEvent(current, this.#now()))
    if (current.status === 'pending') {
      this.#armExpiry(current)
      await this.options.store.schedule(jobsOf(current))
      // Approved while we were posting, before the message was known: show the progress now.
      if (hasQuorum(current) && (await this.options.store.approvals(current.id)).length > 0) await this.#showProgress(current.id)
    }
    // Settled while we were posting (an abort, a fast click) before the message existed: show it now.
    else if (current.settlement && !current.finalMessageShown) await this.#showSettled(current, current.settlement.outcome)
    this.options.logger.info(`ask ${record.id} posted to ${current.message?.channel ?? record.target}${current.message ? ` (ts ${current.message.ts})` : ''}`)
    return current
  }

  async #post(record: AskRecord): Promise<void> {
    const { slack, pacer, settings } = this.options
    let channel = record.target
    try {
      channel = await this.#resolveChannel(record.target)
      const plan = await this.#renderer.open(record, settings)
      const posted = await pacer.run(channel, () => slack.postMessage(channel, plan.message))
      const permalink = messagePermalink(this.options.workspaceUrl, posted.channel, posted.ts) ?? (await slack.permalink(posted.channel, posted.ts).catch(() => undefined))
      await this.options.store.attachMessage(record.id, { channel: posted.channel, ts: posted.ts, ...(permalink ? { permalink } : {}) })
      // The question is visible and answerable now: the rest of a long plan follows in its thread, and ask() does not wait for it.
      if (plan.thread.length > 0 || plan.file) this.#continue(record.id, posted, plan)
    } catch (error) {
      const failure = error instanceof SlackCallError ? error : toSlackCallError('chat.postMessage', error)
      const message = `${failure.method} failed with Slack error "${failure.slackError}": ${adviceFor(failure.slackError, { channel })}`
      this.options.logger.error(`ask ${record.id}: ${message}`)
      await this.settle(record.id, { status: 'failed', outcome: { kind: 'failed', at: this.#now(), reason: failure.slackError }, error: { code: 'SLACK_API_ERROR', message } })
      throw new UserInteractionError('SLACK_API_ERROR', message, { cause: failure })
    }
  }

  #continue(id: string, posted: { channel: string; ts: string }, plan: PostPlan): void {
    const { slack, pacer, logger } = this.options
    const done = postContinuation({ slack, pacer, logger }, id, posted, plan, () => this.#stopped).finally(() => this.#continuing.delete(id))
    this.#continuing.set(id, done)
  }

  /** Resolves once the ask's thread continuation (if any) has gone out, or been given up. */
  async whenFullyPosted(id: string): Promise<void> {
    await Promise.all([...this.#posting])
    await this.#continuing.get(id)
  }

  async #resolveChannel(target: string): Promise<string> {
    if (!USER_ID.test(target)) return target
    const known = this.#dmChannels.get(target)
    if (known) return known
    const channel = await this.options.slack.openDirectMessage(target)
    this.#dmChannels.set(target, channel)
    return channel
  }

  /**
   * A library process's asks live as long as it does. It says so by
   * renewing a lease in the store, which any process on any machine can
   * read (a process id cannot be checked from another host).
   */
  #holdLease(): Promise<void> {
    if (this.#lease) return this.#lease
    const renew = () => this.options.store.renewLease(this.instance, this.#now() + this.#leaseMs)
    this.#lease = renew()
    this.#leaseTimer = setInterval(() => {
      renew().catch((error: unknown) => this.options.logger.warn(`could not renew this process's lease in the store: ${error instanceof Error ? error.message : String(error)}`))
    }, this.#leaseMs / 3)
    this.#leaseTimer.unref()
    this.#lease.catch(() => (this.#lease = undefined))
    return this.#lease
  }

  /** Whether the library process that waits for `record` is gone (its `ask()` died with it). */
  async #ownerGone(record: AskRecord): Promise<boolean> {
    if (record.owner.kind !== 'library' || record.owner.instance === this.instance) return false
    const lease = await this.options.store.leaseUntil(record.owner.instance)
    if (lease !== undefined) return lease < this.#now()
    // No lease: the process ended it when it stopped, or the ask predates leases.
    return this.options.store.shared ? true : !isProcessAlive(record.owner.pid)
  }

  #armExpiry(record: Pick<AskRecord, 'id' | 'expiresAt'>): void {
    if (record.expiresAt === undefined || this.#expiryTimers.has(record.id)) return
    const cancel = setLongTimeout(() => void this.expire(record.id), record.expiresAt - this.#now())
    this.#expiryTimers.set(record.id, cancel)
  }

  /**
   * Pending → settled, once. The winner's answer is validated first (an
   * answer that breaks the seam never reaches the agent), waiting callers
   * are resolved, and then the message shows the settlement.
   */
  async settle(id: string, settlement: Settlement): Promise<SettleResult> {
    const record = await this.options.store.get(id)
    if (!record) throw new Error(`no ask ${id}`)
    if (settlement.answer) settlement = { ...settlement, answer: validateAnswer(record, settlement.answer) }
    const result = await this.options.store.settle(id, settlement)
    if (!result.won) return result
    this.#expiryTimers.get(id)?.()
    this.#expiryTimers.delete(id)
    this.options.logger.info(`ask ${id} ${describeOutcome(settlement.outcome)}`)
    await this.#record(settlementEvent(id, settlement))
    for (const listener of this.#settledListeners) {
      try {
        listener(result.record)
      } catch (error) {
        this.options.logger.error(`a settlement listener failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    await this.#showSettled(result.record, settlement.outcome)
    return result
  }

  /**
   * Updates the message to a settled state, after any update already queued
   * for it: chat.update has no compare-and-swap, so a relay's later
   * correction ("answered outside Slack") must not be overtaken by the
   * earlier "answered by" it corrects. Failure is logged; the settlement stands.
   */
  #showSettled(record: AskRecord, outcome: Outcome, how: ShowHow = 'settlement'): Promise<boolean> {
    const previous = this.#updates.get(record.id) ?? Promise.resolve(true)
    const next = previous.then(() => this.#updateMessage(record, outcome, how))
    this.#updates.set(record.id, next)
    void next.then(() => {
      if (this.#updates.get(record.id) === next) this.#updates.delete(record.id)
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
    const { store, slack, logger } = this.options
    try {
      if (!(await this.#claimMessage(record.id, how === 'correction'))) return false
    } catch (error) {
      logger.error(`ask ${record.id}: could not claim its message for an update: ${error instanceof Error ? error.message : String(error)}`)
      return false
    }
    let shown = false
    let content: MessageContent | undefined
    try {
      // Recovering: another instance may have shown it since we listed it.
      if (how === 'recovery' && (await store.get(record.id))?.finalMessageShown) return false
      const { channel, ts } = record.message
      const settled = (content = await this.#renderer.settled(record, outcome, this.options.settings))
      await this.options.pacer.update(() => slack.updateMessage(channel, ts, settled))
      shown = true
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      logger.error(`ask ${record.id} is ${record.status}, but its message could not be updated: ${reason}`)
      await this.#record({ askId: record.id, type: 'update-failed', at: this.#now(), detail: { channel: record.message.channel, ts: record.message.ts, error: reason } })
      return false
    } finally {
      await store.releaseMessage(record.id, this.instance, shown).catch((error: unknown) => {
        logger.error(`ask ${record.id}: could not release its message claim: ${error instanceof Error ? error.message : String(error)}`)
      })
    }
    if (content) await this.#updateCopies(record, content)
    return true
  }

  async #claimMessage(id: string, wait: boolean): Promise<boolean> {
    const giveUpAt = this.#now() + TIMING.messageClaimMs
    for (;;) {
      const now = this.#now()
      if (await this.options.store.claimMessage(id, this.instance, now, now + TIMING.messageClaimMs)) return true
      if (!wait || now >= giveUpAt) return false
      await new Promise((resolve) => setTimeout(resolve, TIMING.messageClaimRetryMs))
    }
  }

  /**
   * Escalation DMs carry the same controls as the channel message: they
   * show the same state, found through the audit trail's `escalated` events.
   * Best effort: a copy that cannot be updated only loses its controls later.
   */
  async #updateCopies(record: AskRecord, content: MessageContent): Promise<void> {
    const copies = await this.copiesOf(record.id).catch(() => [])
    for (const copy of copies) {
      await this.options.pacer.update(() => this.options.slack.updateMessage(copy.channel, copy.ts, content)).catch((error: unknown) => {
        this.options.logger.warn(`ask ${record.id}: could not update its copy in ${copy.channel}: ${error instanceof Error ? error.message : String(error)}`)
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

  /** Appends to the audit trail; a failure is logged, never thrown (the ask's life goes on). */
  async #record(event: NewAskEvent): Promise<void> {
    try {
      await this.options.store.appendEvent(event)
    } catch (error) {
      this.options.logger.error(`ask ${event.askId}: could not record its ${event.type} event: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /** An escalation copy posted after its ask settled: give it the settled state. */
  async showCopiesSettled(record: AskRecord): Promise<void> {
    if (record.settlement) await this.#updateCopies(record, await this.#renderer.settled(record, record.settlement.outcome, this.options.settings))
  }

  /** Records an event from outside the lifecycle (the scheduler's reminders and escalations). */
  recordEvent(event: NewAskEvent): Promise<void> {
    return this.#record(event)
  }

  /**
   * One person approves an ask with a quorum. The same person never counts
   * twice; the approval that completes the quorum settles the ask with the
   * seam's ordinary answer; any other approval updates the message's progress.
   */
  async approve(id: string, by: Person): Promise<ApproveResult> {
    const record = await this.options.store.get(id)
    if (!record) throw new Error(`no ask ${id}`)
    const required = requiredApprovals(record)
    const at = this.#now()
    const added = await this.options.store.addApproval(id, { by, at })
    if (added.kind === 'closed') return { kind: 'closed', record: added.record }
    if (added.kind === 'duplicate') return { kind: 'duplicate', given: added.approvals.length, required }
    await this.#record({ askId: id, type: 'approved', at, by, detail: { given: added.approvals.length, required } })
    if (added.approvals.length >= required || !hasQuorum(record)) {
      const result = await this.settle(id, quorumSettlement(record, added.approvals, at))
      return result.won ? { kind: 'settled', record: result.record } : { kind: 'closed', record: result.record }
    }
    await this.#showProgress(id)
    return { kind: 'counted', given: added.approvals.length, required }
  }

  /**
   * Re-renders an open message with the quorum's progress, queued behind
   * any update already on its way, and only while the ask is still pending
   * (a settled message must never be overwritten by an open one).
   */
  #showProgress(id: string): Promise<boolean> {
    const previous = this.#updates.get(id) ?? Promise.resolve(true)
    const next = previous.then(async () => {
      const record = await this.options.store.get(id)
      if (!record?.message || record.status !== 'pending') return false
      const content = (await this.#renderer.open(record, this.options.settings, await this.options.store.approvals(id))).message
      try {
        const { channel, ts } = record.message
        await this.options.pacer.update(() => this.options.slack.updateMessage(channel, ts, content))
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        this.options.logger.warn(`ask ${id}: could not show the quorum's progress: ${reason}`)
        await this.#record({ askId: id, type: 'update-failed', at: this.#now(), detail: { channel: record.message.channel, ts: record.message.ts, error: reason } })
        return false
      }
      await this.#updateCopies(record, content)
      // Another instance may have settled it and shown that while we drew the
      // progress (chat.update has no compare-and-swap): show the settlement again.
      const after = await this.options.store.get(id)
      if (after?.settlement && after.status !== 'pending') await this.#updateMessage(after, after.settlement.outcome, 'correction')
      return true
    })
    this.#updates.set(id, next)
    void next.then(() => {
      if (this.#updates.get(id) === next) this.#updates.delete(id)
    })
    return next
  }

  /** The agent withdrew the ask. Idempotent: a settled ask keeps its status. */
  async abort(id: string, outcome: Outcome = { kind: 'aborted', at: this.#now() }): Promise<AskRecord | undefined> {
    const record = await this.options.store.get(id)
    if (!record || record.status !== 'pending') return record
    const reason = outcome.kind === 'stopped' ? 'the bridge stopped with the question still open' : 'the question was withdrawn'
    return (await this.settle(id, { status: 'aborted', outcome, error: { code: 'ASK_ABORTED', message: reason } })).record
  }

  async expire(id: string): Promise<AskRecord | undefined> {
    // Its timer fired (or is moot): drop it, settled here or by another instance.
    this.#expiryTimers.get(id)?.()
    this.#expiryTimers.delete(id)
    const record = await this.options.store.get(id)
    if (!record || record.status !== 'pending') return record
    return (await this.settle(id, { status: 'expired', outcome: { kind: 'expired', at: this.#now() }, error: { code: 'ASK_EXPIRED', message: 'nobody answered the question in time' } })).record
  }

  /**
   * Relay: settled outside Slack. A settled ask only has its message
   * corrected. `undelivered`: the person's answer reached a host that no
   * longer held the request; the card says so, naming them, and they are told
   * privately (the ask keeps its settlement: it is what they answered).
   */
  async closeElsewhere(id: string, how: CloseHow): Promise<AskRecord | undefined> {
    const record = await this.options.store.get(id)
    if (!record) return undefined
    const at = this.#now()
    const outcome = elsewhereOutcome(record, how, at)
    if (record.status !== 'pending') {
      await this.#showSettled(record, outcome, 'correction')
      if (how === 'undelivered') await this.#tellUndelivered(record)
      return record
    }
    const status = typeof how === 'object' ? 'failed' : how === 'cancelled' ? 'cancelled' : how === 'gone' || how === 'undelivered' ? 'aborted' : 'answered'
    const message = typeof how === 'object' ? how.failed : `settled outside Slack (${how})`
    const result = await this.settle(id, { status, outcome, error: { code: status === 'cancelled' ? 'ASK_CANCELLED' : 'ASK_ABORTED', message } })
    // Settled in Slack a moment earlier: the host's word still corrects the message.
    if (!result.won) await this.#showSettled(result.record, outcome, 'correction')
    return result.record
  }

  async #tellUndelivered(record: AskRecord): Promise<void> {
    const by = personOfOutcome(record.settlement?.outcome)
    if (!by || !record.message) return
    try {
      await this.options.slack.postEphemeral(record.message.channel, by.id, noticeText(this.options.settings.locale, { kind: 'undelivered' }))
    } catch (error) {
      this.options.logger.warn(`ask ${record.id}: could not tell ${by.id} the answer was not delivered: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  onSettled(listener: (record: AskRecord) => void): () => void {
    this.#settledListeners.add(listener)
    return () => this.#settledListeners.delete(listener)
  }

  /**
   * At start: asks of a library process that is gone are marked expired
   * (their `ask()` died with it); every other ask with an expiry gets its
   * timer here (whichever instance fires first expires it, once); settled
   * asks whose message update failed are shown again. On a shared store the
   * check for gone processes repeats while this instance runs.
   */
  async recover(): Promise<void> {
    await this.#sweep()
    for (const record of await this.options.store.listUnshownSettled()) {
      if (record.settlement) await this.#showSettled(record, record.settlement.outcome, 'recovery')
    }
    if (this.options.store.shared && !this.#stopped && !this.#sweepTimer) {
      this.#sweepTimer = setInterval(() => {
        this.#sweep().catch((error: unknown) => this.options.logger.warn(`could not check for asks whose process is gone: ${error instanceof Error ? error.message : String(error)}`))
      }, Math.min(TIMING.leaseSweepMs, this.#leaseMs / 3))
      this.#sweepTimer.unref()
    }
  }

  async #sweep(): Promise<void> {
    for (const record of await this.options.store.listPending()) {
      if (await this.#ownerGone(record)) await this.expire(record.id)
      // On a local store a library process leaves a service's asks to the service.
      else if (this.options.store.shared || (record.owner.kind === 'service' && this.options.owner === 'service')) this.#armExpiry(record)
    }
  }

  /** Withdraws this process's open asks (all of a service's, when asked to) and clears every timer. */
  async stop(options: { withdrawOpen?: boolean } = {}): Promise<void> {
    this.#stopped = true
    await Promise.all([...this.#posting])
    // Continuations end between parts once stopped; the part in flight finishes first.
    await Promise.all([...this.#continuing.values()])
    const withdraw = options.withdrawOpen ?? this.options.owner === 'library'
    if (withdraw) {
      const mine = (await this.options.store.listPending()).filter((record) =>
        record.owner.kind === 'service' ? this.options.owner === 'service' : record.owner.instance === this.instance,
      )
      await Promise.all(mine.map((record) => this.abort(record.id, { kind: 'stopped', at: this.#now() })))
    }
    for (const cancel of this.#expiryTimers.values()) cancel()
    this.#expiryTimers.clear()
    this.#settledListeners.clear()
    await this.#renderer.close()
    this.#unsubscribe?.()
    clearInterval(this.#sweepTimer)
    clearInterval(this.#leaseTimer)
    if (this.#lease && withdraw) {
      await this.options.store.endLease(this.instance).catch((error: unknown) => {
        this.options.logger.warn(`could not end this process's lease: ${error instanceof Error ? error.message : String(error)}`)
      })
    }
  }

  /** Open expiry timers (for leak checks). */
  get armedTimers(): number {
    return this.#expiryTimers.size
  }
}

/** Who settled an ask in Slack, when a person did. */
function personOfOutcome(outcome: Outcome | undefined): Person | undefined {
  return outcome?.kind === 'answered' || outcome?.kind === 'dismissed' || outcome?.kind === 'decided' ? outcome.by : undefined
}

/** The outcome a relay's closing shows; `undelivered` names whose answer was lost. */
function elsewhereOutcome(record: AskRecord, how: CloseHow, at: number): Outcome {
  if (typeof how === 'object') return { kind: 'failed', at, reason: how.failed }
  const by = how === 'undelivered' ? personOfOutcome(record.settlement?.outcome) : undefined
  return { kind: 'settled-elsewhere', at, how, ...(by ? { by } : {}) }
}

/** The reminder and escalation an ask's policy asks for, due relative to when it was asked. */
function jobsOf(record: AskRecord): ScheduledJob[] {
  const jobs: ScheduledJob[] = []
  const policy = record.policy
  if (policy?.remindAfterMs !== undefined) jobs.push({ askId: record.id, kind: 'remind', dueAt: record.createdAt + policy.remindAfterMs })
  if (policy?.escalateAfterMs !== undefined && policy.escalateTo !== undefined) jobs.push({ askId: record.id, kind: 'escalate', dueAt: record.createdAt + policy.escalateAfterMs })
  return jobs
}
