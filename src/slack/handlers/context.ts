import type { AnswerPolicy } from '../../bridge/answer-policy.js'
import type { AskLifecycle } from '../../bridge/ask-lifecycle.js'
import type { ViewSettings } from '../../bridge/ask-view.js'
import { noticeText, type Notice } from '../../../blocks/index.js'
import type { AskUserQuestionAnswerItem } from '../../contract/index.js'
import type { Logger } from '../../log/logger.js'
import type { AskRecord, Settlement } from '../../store/ask-record.js'
import type { SlackPort } from '../slack-port.js'
import { personOf, type SlackUser } from '../payloads.js'
import type { FormDrafts } from './form-drafts.js'
import { UnknownAsks } from './unknown-asks.js'

/** What every interaction handler works with: ports, never Bolt. */
export interface InteractionDeps {
  lifecycle: AskLifecycle
  slack: SlackPort
  policy: AnswerPolicy
  settings: ViewSettings
  drafts: FormDrafts
  logger: Logger
  now: () => number
}

const unknownAsks = new WeakMap<AskLifecycle, UnknownAsks>()

/** Where a notice to one person goes. */
export interface NoticeTarget {
  user: string
  channel?: string
  threadTs?: string
}

/** Tells one person something only they see. Failures are logged, never thrown: the click was already handled. */
export async function tell(deps: InteractionDeps, target: NoticeTarget, notice: Notice): Promise<void> {
  if (!target.channel) return
  try {
    await deps.slack.postEphemeral(target.channel, target.user, noticeText(deps.settings.locale, notice), target.threadTs)
  } catch (error) {
    deps.logger.warn(`could not tell ${target.user} (${notice.kind}): ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * The checks before anything a person does counts: the ask exists, is still
 * open, and this person may answer it. Returns the record, or null after
 * telling the person why nothing happened.
 */
export async function openAskFor(deps: InteractionDeps, askId: string, user: SlackUser, channel: string | undefined): Promise<AskRecord | null> {
  const record = await deps.lifecycle.store.get(askId)
  const target = { user: user.id, channel: channel ?? record?.message?.channel }
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
    await tell(deps, target, settledNotice(record))
    return null
  }
  if (!(await deps.policy.mayAnswer(user.id, record.policy?.approvers))) {
    deps.logger.info(`ask ${askId}: ${user.id} is not allowed to answer`)
    await tell(deps, target, { kind: 'not-allowed' })
    return null
  }
  return record
}

/** What a late clicker is told about a settled ask. */
export function settledNotice(record: AskRecord): Notice {
  return record.settlement ? { kind: 'already-settled', outcome: record.settlement.outcome } : { kind: 'closed' }
}

/** Settles with an answer; a late click learns who was first. */
export async function settleAnswer(deps: InteractionDeps, record: AskRecord, user: SlackUser, answers: AskUserQuestionAnswerItem[], channel?: string): Promise<void> {
  const by = personOf(user)
  await settleOrTell(deps, record, user, channel, {
    status: 'answered',
    outcome: { kind: 'answered', by, at: deps.now(), answers },
    answer: { answers },
  })
}

export async function settleOrTell(deps: InteractionDeps, record: AskRecord, user: SlackUser, channel: string | undefined, settlement: Settlement): Promise<void> {
  try {
    const result = await deps.lifecycle.settle(record.id, settlement)
    if (!result.won) await tell(deps, { user: user.id, channel: channel ?? record.message?.channel }, settledNotice(result.record))
  } catch (error) {
    deps.logger.error(`ask ${record.id}: could not settle from ${user.id}'s action: ${error instanceof Error ? error.message : String(error)}`)
    await tell(deps, { user: user.id, channel: channel ?? record.message?.channel }, { kind: 'failed' })
  }
}

/**
 * An approval towards a quorum: counted (the person hears how far it is),
 * refused as a repeat (the same person never counts twice), or too late.
 * The approval that completes the quorum settles the ask; nobody is told,
 * the message says it.
 */
export async function approveOrTell(deps: InteractionDeps, record: AskRecord, user: SlackUser, channel: string | undefined): Promise<void> {
  const target = { user: user.id, channel: channel ?? record.message?.channel }
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
