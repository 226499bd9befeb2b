import type { Outcome, Person } from '../../blocks/view.js'
import { checkAnswer } from '../contract/index.js'
import type { Logger } from '../log/logger.js'
import { TIMING } from '../slack/timing.js'
import type { AskRecord, Settlement, SettleResult } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { NewAskEvent } from '../store/team-records.js'
import type { AskExpiry } from './ask-expiry.js'
import { settlementEvent } from './audit-events.js'
import { originOf } from './audit-origins.js'
import { describeOutcome } from './describe-outcome.js'
import type { MessageUpdates } from './message-updates.js'
import type { OpenAsksHere } from './open-asks-here.js'
import type { ProcessLease } from './process-lease.js'
import { hasQuorum, quorumSettlement, requiredApprovals } from './quorum.js'
import { jobsOf } from './scheduled-jobs.js'
import { shownOutcome } from './shown-outcome.js'

/** What an approval towards a quorum did. */
export type ApproveResult =
  | { kind: 'counted'; given: number; required: number }
  | { kind: 'duplicate'; given: number; required: number }
  /** This approval completed the quorum and settled the ask. */
  | { kind: 'settled'; record: AskRecord }
  /** Too late: settled already (by a veto, another approval, expiry…). */
  | { kind: 'closed'; record: AskRecord }


/** Settlements a person makes in Slack (as opposed to the agent, a timer or a stop). */
const BY_A_PERSON: ReadonlySet<string> = new Set(['answered', 'decided', 'dismissed'])

export interface AskSettlementOptions {
  store: AskStore
  logger: Logger
  instance: string
  now: () => number
  /** A library process's lease: a person's answer to an ask whose process is gone expires it instead. */
  lease: ProcessLease
  openHere: OpenAsksHere
  expiry: AskExpiry
  messages: MessageUpdates
  stopped: () => boolean
  /** Appends to the audit trail (never throws). */
  recordEvent: (event: NewAskEvent) => Promise<void>
  /** Tells the open-ask listeners (the Home tabs) about an approval counted. */
  tellOpen: (record: AskRecord) => void
}

/**
 * Pending → settled, once, whoever settles (a person, a quorum, the agent,
 * a timer, a stop), and then the card shows it. Settling resolves the
 * waiting caller before the card is updated, and a failed update never
 * loses the answer.
 */
export class AskSettlement {
  readonly #listeners = new Set<(record: AskRecord) => void>()
  /** Settlements whose listeners are still to hear of them (told on the next turn, or by stop()). */
  readonly #untold = new Set<() => void>()

  constructor(private readonly options: AskSettlementOptions) {}

  /**
   * Pending → settled, once. The winner's answer is validated first (an
   * answer that breaks the seam never reaches the agent), waiting callers
   * are resolved, and then the message shows the settlement. `known`: the
   * ask as the caller has just read it (what settling reads of it, its
   * questions, owner and origin, never changes), saving a read.
   */
  async settle(id: string, settlement: Settlement, known?: AskRecord): Promise<SettleResult> {
    this.options.openHere.forget(id)
    const record = known ?? (await this.options.store.get(id))
    if (!record) throw new Error(`no ask ${id}`)
    // A person's answer to an ask whose library process died would reach no
    // agent: the ask expires instead, and the person is told it is closed.
    // (Checked only for another process's asks: this one's own settle with no extra turn.)
    if (BY_A_PERSON.has(settlement.outcome.kind) && this.options.lease.ownedElsewhere(record) && (await this.options.lease.ownerGone(record))) {
      return { won: false, record: (await this.expire(id)) ?? record }
    }
    if (settlement.answer) settlement = { ...settlement, answer: checkAnswer(record, settlement.answer) }
    // The winner records its event and takes the card's claim in the same step: it shows the settlement.
    const result = await this.options.store.settle(id, settlement, {
      event: { ...settlementEvent(id, settlement), ...originOf(record) },
      messageClaim: { holder: this.options.instance, until: this.options.now() + TIMING.messageClaimMs },
      hasJobs: jobsOf(record).length > 0,
      known: record,
    })
    if (!result.won) {
      this.showIfUnshown(result.record)
      return result
    }
    this.options.expiry.disarm(id)
    this.options.openHere.settled(result.record)
    const shown = this.options.messages.showSettled(result.record, shownOutcome(result.record, settlement.outcome), 'settlement', { claimed: true })
    // Once the card's update is on its way: the log line and the listeners (the Home tabs, a relay's host) can wait that long.
    const listeners = [...this.#listeners]
    const tell = () => {
      if (!this.#untold.delete(tell)) return
      this.options.logger.info(`ask ${id} ${describeOutcome(settlement.outcome)}`)
      this.#tellSettled(listeners, result.record)
    }
    this.#untold.add(tell)
    setImmediate(tell)
    await shown
    return result
  }

  /**
   * A settled ask whose card still shows its controls, met by a click (or a
   * settle that lost): the instance that was to show how it ended stopped
   * first (the next start's recovery would), or is showing it right now.
   * It is shown as a recovery: under the card's claim, so never while
   * another instance holds it, and not at all once shown. Never awaited.
   */
  showIfUnshown(record: AskRecord): void {
    if (this.options.stopped() || record.status === 'pending' || !record.message || record.finalMessageShown || !record.settlement) return
    this.options.messages.showSettled(record, shownOutcome(record, record.settlement.outcome), 'recovery').catch((error: unknown) => {
      this.options.logger.warn(`ask ${record.id}: could not show how it ended on its card: ${error instanceof Error ? error.message : String(error)}`)
    })
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
    const at = this.options.now()
    const added = await this.options.store.addApproval(id, { by, at })
    if (added.kind === 'closed') return { kind: 'closed', record: added.record }
    if (added.kind === 'duplicate') return { kind: 'duplicate', given: added.approvals.length, required }
    await this.options.recordEvent({ askId: id, type: 'approved', at, by, detail: { given: added.approvals.length, required } })
    if (added.approvals.length >= required || !hasQuorum(record)) {
      const result = await this.settle(id, quorumSettlement(record, added.approvals, at))
      return result.won ? { kind: 'settled', record: result.record } : { kind: 'closed', record: result.record }
    }
    this.options.tellOpen(record)
    await this.options.messages.showProgress(id)
    return { kind: 'counted', given: added.approvals.length, required }
  }

  /** The agent withdrew the ask. Idempotent: a settled ask keeps its status. */
  async abort(id: string, outcome: Outcome = { kind: 'aborted', at: this.options.now() }): Promise<AskRecord | undefined> {
    const record = await this.options.store.get(id)
    if (!record || record.status !== 'pending') return record
    const reason = outcome.kind === 'stopped' ? 'the bridge stopped with the question still open' : 'the question was withdrawn'
    return (await this.settle(id, { status: 'aborted', outcome, error: { code: 'ASK_ABORTED', message: reason } })).record
  }

  async expire(id: string): Promise<AskRecord | undefined> {
    // Its timer fired (or is moot): drop it, settled here or by another instance.
    this.options.expiry.disarm(id)
    const record = await this.options.store.get(id)
    if (!record || record.status !== 'pending') return record
    return (await this.settle(id, { status: 'expired', outcome: { kind: 'expired', at: this.options.now() }, error: { code: 'ASK_EXPIRED', message: 'nobody answered the question in time' } })).record
  }

  #tellSettled(listeners: readonly ((record: AskRecord) => void)[], record: AskRecord): void {
    for (const listener of listeners) {
      try {
        listener(record)
      } catch (error) {
        this.options.logger.error(`a settlement listener failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }

  onSettled(listener: (record: AskRecord) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Tells the listeners of every settlement they have not heard of yet, then
   * drops them. The waiting caller is resolved before its listeners are told,
   * so a caller that stops the bridge at once (`dsh-slack ask` in-process)
   * would otherwise stop the Home tab before it learns the ask settled, and
   * the tab would keep listing it with live buttons.
   */
  stop(): void {
    for (const tell of [...this.#untold]) tell()
    this.#listeners.clear()
  }
}
