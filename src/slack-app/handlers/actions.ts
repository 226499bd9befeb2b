import { decodeActionId, type ActionRef } from '../../../blocks/ids.js'
import { batchModal, feedbackModal, otherModal } from '../../../blocks/index.js'
import { askViewOf } from '../../bridge/ask-view.js'
import { labelsOf, messageSelection } from '../../bridge/answers-from-state.js'
import type { AskRecord } from '../../store/ask-record.js'
import { fromHomeTab, personOf, type BlockAction, type BlockActionsPayload } from '../../slack/payloads.js'
import { approveLabel, hasQuorum } from '../../bridge/quorum.js'
import { answersWith, approveOrTell, HOME_TAB, openAskFor, settleAnswer, settleOrTell, targetFor, tell, type InteractionDeps, type Where } from './context.js'
import { actionMisfit } from './interaction-fit.js'

/**
 * One clicked element of a message, already acknowledged. Modals open first
 * thing: a trigger_id works once and only for 3 seconds.
 */
export async function handleAction(deps: InteractionDeps, payload: BlockActionsPayload, action: BlockAction): Promise<void> {
  const ref = decodeActionId(action.action_id)
  if (!ref || ref.kind === 'link') return
  // Ticking a checkbox or picking in a multi-select only changes the person's
  // client-side state; the choice is read at Submit.
  if (ref.kind === 'checkboxes' || ref.kind === 'multi-select' || ref.kind === 'multi-external-select') return
  // On the Home tab there is no message and no channel: what the person is told shows on the tab.
  const home = fromHomeTab(payload)
  if (home) deps.home?.seen(payload.user.id)
  const channel: Where = home ? HOME_TAB : (payload.channel?.id ?? payload.container?.channel_id)
  // Open or not: a card whose poster never saved it keeps its buttons until a click names it.
  const record = await openAskFor(deps, ref.askId, payload.user, channel, { found: (found) => adoptMessage(deps, found, payload, channel) })
  if (!record) return
  // A tab published before the person left a private channel (or before the
  // ask moved out of their reach) still has live buttons: the click counts
  // only if the tab would show the ask now.
  if (home && deps.home && !(await deps.home.sees(payload.user.id, record, { fresh: true }))) {
    deps.logger.info(`ask ${record.id}: ignored a Home tab click from ${payload.user.id}, who cannot see the ask`)
    await tell(deps, targetFor(payload.user.id, channel, record), { kind: 'not-allowed' })
    return
  }
  const misfit = actionMisfit(record, ref)
  if (misfit) {
    deps.logger.warn(`ask ${record.id}: ignored an action from ${payload.user.id}: ${misfit}`)
    return
  }
  await perform(deps, payload, action, ref, record, channel)
}

/**
 * The ask's message as the click names it, when its record lacks one (its
 * poster may have stopped before recording it): only a click in the ask's
 * own channel, never on an escalation copy or the Home tab. A settled ask
 * too: recorded, its card shows how it ended instead of dead buttons.
 */
function adoptMessage(deps: InteractionDeps, record: AskRecord, payload: BlockActionsPayload, channel: Where): void {
  const ts = payload.container?.message_ts
  if (record.message || typeof channel !== 'string' || channel !== record.target || ts === undefined || payload.container?.thread_ts !== undefined) return
  deps.lifecycle.adoptMessage(record.id, { channel, ts })
}

/**
 * A click that failed before anything was recorded (the store unreachable,
 * most often): the person is told privately that it did not go through and
 * to try again in a moment. Slack is reachable even when the database is
 * not, and a click kept to be applied later could settle an ask after the
 * person, having heard nothing, answered differently or walked away.
 */
export function tellActionFailed(deps: InteractionDeps, payload: BlockActionsPayload): Promise<void> {
  const user = payload.user.id
  if (fromHomeTab(payload)) return tell(deps, { user, home: true }, { kind: 'failed' })
  const channel = payload.channel?.id ?? payload.container?.channel_id
  const threadTs = payload.container?.thread_ts
  return tell(deps, { user, ...(channel ? { channel } : {}), ...(threadTs ? { threadTs } : {}) }, { kind: 'failed' })
}

async function perform(deps: InteractionDeps, payload: BlockActionsPayload, action: BlockAction, ref: ActionRef, record: AskRecord, channel: Where): Promise<void> {
  const view = () => askViewOf(record, deps.settings)
  switch (ref.kind) {
    case 'option':
      // On a batch, an option button is on a carousel card: a draft until every card has a choice.
      if (record.questions.length > 1) return chooseOnCard(deps, payload, record, ref.question, ref.option, channel)
      return answerOption(deps, payload, record, ref.question, [String(ref.option)], channel)
    case 'select':
    case 'external-select': {
      const value = action.selected_option?.value
      if (value !== undefined) await answerOption(deps, payload, record, ref.question, [value], channel)
      return
    }
    case 'submit': {
      const values = messageSelection(payload.state?.values, record.id, ref.question)
      if (values.length === 0) return tell(deps, targetFor(payload.user.id, channel, record), { kind: 'pick-something' })
      return answerOption(deps, payload, record, ref.question, values, channel)
    }
    case 'skip':
      return settleAnswer(deps, record, payload.user, record.questions.map((q) => ({ id: q.id, selected: [] })), channel)
    case 'dismiss': {
      const by = personOf(payload.user)
      return settleOrTell(deps, record, payload.user, channel, {
        status: 'cancelled',
        outcome: { kind: 'dismissed', by, at: deps.now() },
        error: { code: 'ASK_CANCELLED', message: `dismissed in Slack by ${by.name ?? by.id}` },
      })
    }
    case 'allow':
    case 'reject': {
      // Allow on an approval with a quorum counts one approval; Reject settles at once (a veto).
      if (ref.kind === 'allow' && hasQuorum(record)) return approveOrTell(deps, record, payload.user, channel)
      const decision = ref.kind === 'allow' ? 'allowed-once' : 'rejected'
      return settleOrTell(deps, record, payload.user, channel, { status: 'answered', decision, outcome: { kind: 'decided', by: personOf(payload.user), at: deps.now(), decision } })
    }
    case 'other': {
      // Ticks on a multi-select message would be lost by a typed answer: carry them into the box.
      const target = record.questions[ref.question]
      const ticked = target?.multiSelect ? labelsOf(target, messageSelection(payload.state?.values, record.id, ref.question)) : null
      return openModal(deps, payload, record, channel, () => otherModal(view(), ref.question, ticked && ticked.length > 0 ? { ticked } : undefined))
    }
    case 'answer': {
      // The person's card choices show chosen in the form: one local read, well within the trigger_id's 3 s.
      const chosen = await deps.cardChoices.draft(record.id, payload.user.id).catch(() => undefined)
      return openModal(deps, payload, record, channel, () => batchModal(view(), 0, chosen && chosen.size > 0 ? { chosen } : undefined).view)
    }
    case 'request-changes':
      return openModal(deps, payload, record, channel, () => feedbackModal(view()))
    case 'checkboxes':
    case 'multi-select':
    case 'multi-external-select':
    case 'link':
      return
    default: {
      const unreachable: never = ref
      return unreachable
    }
  }
}

async function answerOption(deps: InteractionDeps, payload: BlockActionsPayload, record: AskRecord, question: number, values: string[], channel: Where): Promise<void> {
  const target = record.questions[question]
  const labels = target ? labelsOf(target, values) : null
  if (!target || labels === null) {
    deps.logger.warn(`ask ${record.id}: ignored an action naming option(s) ${values.join(',')} of question ${question}, which do not exist`)
    return
  }
  // Approve on a plan with a quorum counts one approval; every other option settles at once (a veto).
  if (hasQuorum(record) && labels.length === 1 && labels[0] === approveLabel(record)) return approveOrTell(deps, record, payload.user, channel)
  await settleAnswer(deps, record, payload.user, answersWith(record, question, { selected: target.multiSelect ? labels : labels.slice(0, 1) }), channel)
}

/**
 * A choice on a carousel card (decision 0077): kept as this person's draft;
 * once they have one for every question, the batch settles with them. Until
 * then they are told privately what was noted and how far they are.
 */
async function chooseOnCard(deps: InteractionDeps, payload: BlockActionsPayload, record: AskRecord, question: number, option: number, channel: Where): Promise<void> {
  const target = record.questions[question]
  const label = target?.options[option]?.label
  if (!target || label === undefined) {
    deps.logger.warn(`ask ${record.id}: ignored a card choice naming option ${option} of question ${question}, which do not exist`)
    return
  }
  const draft = await deps.cardChoices.choose(record.id, personOf(payload.user), question, option, label)
  const answers = record.questions.map((q, i) => {
    const chosen = draft.get(i)
    const chosenLabel = chosen === undefined ? undefined : q.options[chosen]?.label
    return chosenLabel === undefined ? null : { id: q.id, selected: [chosenLabel] }
  })
  if (answers.every((a) => a !== null)) return settleAnswer(deps, record, payload.user, answers, channel, { quietIfTheirs: true })
  await tell(deps, targetFor(payload.user.id, channel, record), { kind: 'choice-noted', question: target.question, label, chosen: answers.filter((a) => a !== null).length, total: record.questions.length })
}

async function openModal(deps: InteractionDeps, payload: BlockActionsPayload, record: AskRecord, channel: Where, render: () => import('@slack/types').View): Promise<void> {
  if (!payload.trigger_id) return
  try {
    await deps.slack.openView(payload.trigger_id, render())
  } catch (error) {
    deps.logger.warn(`ask ${record.id}: could not open a modal for ${payload.user.id}: ${error instanceof Error ? error.message : String(error)}`)
    await tell(deps, targetFor(payload.user.id, channel, record), { kind: 'failed' })
  }
}
