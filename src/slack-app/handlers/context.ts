import type { AnswerPolicy } from '../../bridge/answer-policy.js'
import type { AskLifecycle } from '../../bridge/ask-lifecycle.js'
import type { ViewSettings } from '../../bridge/ask-view.js'
import { noticeText, type Notice } from '../../../blocks/index.js'
import type { AskUserQuestionAnswerItem } from '../../contract/index.js'
import type { Logger } from '../../log/logger.js'
import type { HomePort } from '../../bridge/home-tab.js'
import type { PlanCanvases } from '../../bridge/code-channel/plan-canvases.js'
import type { AskRecord, QuotedWords, Settlement } from '../../store/ask-record.js'
import type { SlackPort } from '../../slack/slack-port.js'
import { personOf, type SlackUser } from '../../slack/payloads.js'
import type { FormDrafts } from './form-drafts.js'
import type { CardChoices } from '../../bridge/card-choices.js'
import { UnknownAsks } from './unknown-asks.js'

/** What every interaction handler works with: ports, never Bolt. */
export interface InteractionDeps {
  lifecycle: AskLifecycle
  slack: SlackPort
  policy: AnswerPolicy
  settings: ViewSettings
  drafts: FormDrafts
  /** A carousel batch's card choices, kept per person in the audit trail (decision 0077). */
  cardChoices: CardChoices
  logger: Logger
  now: () => number
  /** The Home tab, when the bridge keeps one. */
  home?: HomePort
  /** Logs a refusal, rate-limited (refusal-log.ts); absent: every refusal is an info line. */
  logRefusal?: (kind: string, line: string) => void
  /** Counts a refused click (the service's metric). */
  observeRefusedClick?: () => void
  /** Plan canvases in code channels: Request changes carries their comment threads. */
  planCanvases?: Pick<PlanCanvases, 'feedback'>
}

/** A click on the Home tab: there is no message, so no channel to be told in. */
export const HOME_TAB = { home: true } as const

/**
 * Where a person acted, for what they are told: a message's channel
 * (undefined: the ask's own channel), or their Home tab, where a notice
 * shows at the top of the tab rather than as an ephemeral message in a
 * channel they were not looking at.
 */
export type Where = string | undefined | typeof HOME_TAB

/** Whom to tell, and where, about an ask acted on at `where`. */
export function targetFor(user: string, where: Where, record: AskRecord | undefined): NoticeTarget {
  if (typeof where === 'object') return { user, home: true }
  const channel = where ?? record?.message?.channel
  return channel === undefined ? { user } : { user, channel }
}

const unknownAsks = new WeakMap<AskLifecycle, UnknownAsks>()

/** Where a notice to one person goes. */
export interface NoticeTarget {
  user: string
  channel?: string
  threadTs?: string
  /** On their Home tab (no channel): the tab shows it. */
  home?: boolean
}

/** Tells one person something only they see. Failures are logged, never thrown: the click was already handled. */
export async function tell(deps: InteractionDeps, target: NoticeTarget, notice: Notice): Promise<void> {
  if (target.home) return deps.home?.tell(target.user, notice)
  if (!target.channel) return
  try {
    await deps.slack.postEphemeral(target.channel, target.user, noticeText(deps.settings.locale, notice), target.threadTs)
  } catch (error) {
    deps.logger.warn(`could not tell ${target.user} (${notice.kind}): ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** How `openAskFor` reads the ask. */
export interface OpenAskRead {
  /** Sees the record as read, whatever its state. */
  found?: (record: AskRecord) => void
  /**
   * Read from the store even when this process keeps the ask: a form's read
   * is what proves the store reachable before the form closes with what the
   * person typed (the settle comes after the ack).
   */
  fromStore?: boolean
  /** The thread the person acted in (a thread reply): what they are told goes there. */
  threadTs?: string
}

/**
 * The checks before anything a person does counts: the ask exists, is still
 * open, and this person may answer it. Returns the record, or null after
 * telling the person why nothing happened.
 */
export async function openAskFor(deps: InteractionDeps, askId: string, user: SlackUser, channel: Where, { found, fromStore = false, threadTs }: OpenAskRead = {}): Promise<AskRecord | null> {
  const record = fromStore ? await deps.lifecycle.store.get(askId) : await deps.lifecycle.readForAction(askId)
  if (record) found?.(record)
  const target = { ...targetFor(user.id, channel, record), ...(threadTs !== undefined ? { threadTs } : {}) }
  if (!record) {
    // A shared store that does not know the ask has pruned it: it is long closed.
    // A local one cannot tell, because another process may have posted it.
    if (deps.lifecycle.store.shared) {
      await tell(deps, target, { kind: 'closed' })
    } else {
      let unknown = unknownAsks.get(deps.lifecycle)
      if (!unknown) unknownAsks.set(deps.lifecycle, (unknown = new UnknownAsks(deps.logger)))
      unknown.warnOnce(askId)
      await tell(deps, target, { kind: 'unknown-here' })
    }
    return null
  }
  if (record.status !== 'pending') {
    // A card still showing controls on a closed ask: the click that finds it shows how it ended.
    deps.lifecycle.showIfUnshown(record)
    await tell(deps, target, settledNotice(record))
    return null
  }
  if (!(await mayAnswerAsk(deps, record)(user.id))) {
    await refuseClick(deps, record, user)
    await tell(deps, target, { kind: 'not-allowed' })
    return null
  }
  return record
}

/**
 * Who may answer this ask: the one check a click, a form and a thread reply
 * pass, and so do the canvas comments a plan review's feedback carries
 * (decision 0091).
 */
export function mayAnswerAsk(deps: Pick<InteractionDeps, 'policy'>, record: AskRecord): (userId: string) => Promise<boolean> {
  return (userId) => deps.policy.mayAnswer(userId, record.policy?.approvers, record.policy?.answerers)
}

/**
 * A click by someone the ask does not allow: nothing changes, but it is
 * counted, logged (rate-limited) and kept in the ask's audit trail, so an
 * operator sees who tried. A store that cannot take the event does not stop
 * the person being told.
 */
async function refuseClick(deps: InteractionDeps, record: AskRecord, user: SlackUser): Promise<void> {
  deps.observeRefusedClick?.()
  const line = `ask ${record.id}: ${user.id} is not allowed to answer`
  if (deps.logRefusal) deps.logRefusal('click', line)
  else deps.logger.info(line)
  await deps.lifecycle.recordEvent({ askId: record.id, type: 'refused', at: deps.now(), by: personOf(user), detail: { reason: 'not-allowed' } }).catch((error: unknown) => {
    deps.logger.warn(`ask ${record.id}: could not record ${user.id}'s refused click: ${error instanceof Error ? error.message : String(error)}`)
  })
}

/** What a late clicker is told about a settled ask. */
export function settledNotice(record: AskRecord): Notice {
  return record.settlement ? { kind: 'already-settled', outcome: record.settlement.outcome } : { kind: 'closed' }
}

/**
 * Settles with an answer; a late click learns who was first. An answer
 * that quotes others (`after.quoted`: a plan review's canvas comments)
 * records whose words they were, and tells its person privately how many
 * were left out because their authors may not answer.
 */
export async function settleAnswer(deps: InteractionDeps, record: AskRecord, user: SlackUser, answers: AskUserQuestionAnswerItem[], channel?: Where, after: SettleAfter = {}): Promise<void> {
  const by = personOf(user)
  const { quoted } = after
  const leftOut = quoted?.leftOut.reduce((sum, person) => sum + person.comments, 0) ?? 0
  const won = async (target: NoticeTarget) => {
    await after.won?.(target)
    if (leftOut > 0) await tell(deps, target, { kind: 'comments-left-out', count: leftOut })
  }
  await settleOrTell(deps, record, user, channel, {
    status: 'answered',
    outcome: { kind: 'answered', by, at: deps.now(), answers },
    answer: { answers },
    ...(quoted ? { quoted } : {}),
  }, { ...after, won })
}

/** Where a settle's notices go, and what to do once this person's action settled the ask. */
export interface SettleAfter {
  /** The thread the person acted in: notices go there. */
  threadTs?: string
  /** Others' words the answer carries (a plan review's canvas comments) and those left out: recorded with it, and the left out told to its person. */
  quoted?: QuotedWords
  /** Runs when this action settled the ask (not when someone was first, nor on a failure). */
  won?: (target: NoticeTarget) => Promise<void>
  /**
   * Say nothing when the ask was settled first by this same person: two taps
   * of theirs that each completed a carousel draft race to settle it with
   * the same answer, and "already answered by you" would read as an error.
   */
  quietIfTheirs?: boolean
}

/** Settles, or tells the person why not (someone was first, it failed). */
export async function settleOrTell(deps: InteractionDeps, record: AskRecord, user: SlackUser, channel: Where, settlement: Settlement, { threadTs, won, quietIfTheirs }: SettleAfter = {}): Promise<void> {
  const target = { ...targetFor(user.id, channel, record), ...(threadTs !== undefined ? { threadTs } : {}) }
  try {
    const result = await deps.lifecycle.settle(record.id, settlement, record)
    if (!result.won) {
      const first = result.record.settlement?.outcome
      if (!(quietIfTheirs && first?.kind === 'answered' && first.by.id === user.id)) await tell(deps, target, settledNotice(result.record))
    } else await won?.(target)
  } catch (error) {
    deps.logger.error(`ask ${record.id}: could not settle from ${user.id}'s action: ${error instanceof Error ? error.message : String(error)}`)
    await tell(deps, target, { kind: 'failed' })
  }
}

/**
 * An approval towards a quorum: counted (the person hears how far it is),
 * refused as a repeat (the same person never counts twice), or too late.
 * The approval that completes the quorum settles the ask; nobody is told,
 * the message says it.
 */
export async function approveOrTell(deps: InteractionDeps, record: AskRecord, user: SlackUser, channel: Where): Promise<void> {
  const target = targetFor(user.id, channel, record)
  try {
    const result = await deps.lifecycle.approve(record.id, personOf(user))
    if (result.kind === 'counted') await tell(deps, target, { kind: 'approval-counted', given: result.given, required: result.required })
    else if (result.kind === 'duplicate') await tell(deps, target, { kind: 'already-approved', given: result.given, required: result.required })
    else if (result.kind === 'closed') await tell(deps, target, settledNotice(result.record))
  } catch (error) {
    deps.logger.error(`ask ${record.id}: could not count ${user.id}'s approval: ${error instanceof Error ? error.message : String(error)}`)
    await tell(deps, target, { kind: 'failed' })
  }
}

/** Every question skipped but `question`, which gets `item`: a single-question message's answer. */
export function answersWith(record: AskRecord, question: number, item: Omit<AskUserQuestionAnswerItem, 'id'>): AskUserQuestionAnswerItem[] {
  return record.questions.map((q, index) => (index === question ? { id: q.id, ...item } : { id: q.id, selected: [] }))
}
