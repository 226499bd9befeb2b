import type { View } from '@slack/types'
import { decodeCallbackId, encodeInputBlockId } from '../../../blocks/ids.js'
import { batchModal, formErrorText, noticeText, otherTextError } from '../../../blocks/index.js'
import { askViewOf } from '../../bridge/ask-view.js'
import type { ReviewFeedback } from '../../bridge/code-channel/plan-canvases.js'
import { formEntries, formItem, modalText } from '../../bridge/answers-from-state.js'
import type { AskUserQuestionAnswerItem } from '../../contract/index.js'
import type { ViewSubmissionPayload } from '../../slack/payloads.js'
import { answersWith, mayAnswerAsk, openAskFor, settleAnswer, type InteractionDeps } from './context.js'
import { viewMisfit } from './interaction-fit.js'

/** What a view submission is acknowledged with, and the work to do after the ack. */
export interface ViewDecision {
  response?: { response_action: 'errors'; errors: Record<string, string> } | { response_action: 'update'; view: View }
  after?: () => Promise<void>
}

/**
 * A form that failed before anything was recorded (the store unreachable):
 * it stays open, with what the person typed, and says under its first
 * input that the answer did not go through; submitting again retries. A
 * form with no input closes, and the person is told nothing more than that.
 */
export function submitAgain(deps: InteractionDeps, payload: ViewSubmissionPayload): ViewDecision {
  const firstInput = Object.keys(payload.view.state.values)[0]
  if (firstInput === undefined) return {}
  return { response: { response_action: 'errors', errors: { [firstInput]: noticeText(deps.settings.locale, { kind: 'failed' }) } } }
}

/**
 * A submitted modal. Validation happens before the ack so errors show under
 * the input; settling happens after it, so the modal closes at once.
 */
export async function handleViewSubmission(deps: InteractionDeps, payload: ViewSubmissionPayload): Promise<ViewDecision> {
  const ref = decodeCallbackId(payload.view.callback_id)
  if (!ref) return {}
  const record = await openAskFor(deps, ref.askId, payload.user, undefined, { fromStore: true })
  if (!record) return {}
  const misfit = viewMisfit(record, ref, () => batchModal(askViewOf(record, deps.settings), 0).pageCount)
  if (misfit) {
    // Acknowledged with nothing: the modal closes and the ask stays as it was.
    deps.logger.warn(`ask ${record.id}: ignored a form from ${payload.user.id}: ${misfit}`)
    return {}
  }
  const locale = deps.settings.locale
  const values = payload.view.state.values
  switch (ref.kind) {
    case 'other-modal':
    case 'feedback-modal': {
      const text = modalText(values)
      const problem = otherTextError(locale, text)
      if (problem) return { response: { response_action: 'errors', errors: { [encodeInputBlockId({ kind: 'text' })]: problem } } }
      const question = ref.kind === 'other-modal' ? ref.question : 0
      const custom = async (): Promise<ReviewFeedback> => (ref.kind === 'feedback-modal' && deps.planCanvases ? deps.planCanvases.feedback(record, text.trim(), mayAnswerAsk(deps, record)) : { text: text.trim() })
      return {
        after: async () => {
          const { text: typed, quoted } = await custom()
          await settleAnswer(deps, record, payload.user, answersWith(record, question, { selected: [], custom: typed }), undefined, quoted ? { quoted } : {})
        },
      }
    }
    case 'batch-modal': {
      const view = askViewOf(record, deps.settings)
      const { pageCount, questions: onPage } = batchModal(view, ref.page)
      const entries = formEntries(values)
      const items = new Map<number, AskUserQuestionAnswerItem>()
      const errors: Record<string, string> = {}
      for (const index of onPage) {
        const result = formItem(record.questions[index]!, entries.get(index))
        if (result.ok) items.set(index, result.item)
        else errors[result.blockId] = formErrorText(locale, result.problem)
      }
      if (Object.keys(errors).length > 0) return { response: { response_action: 'errors', errors } }
      const collected = deps.drafts.save(record.id, payload.user.id, items)
      if (ref.page + 1 < pageCount) return { response: { response_action: 'update', view: batchModal(view, ref.page + 1).view } }
      deps.drafts.clear(record.id, payload.user.id)
      const answers = record.questions.map((question, index) => collected.get(index) ?? { id: question.id, selected: [] })
      return { after: () => settleAnswer(deps, record, payload.user, answers) }
    }
    default: {
      const unreachable: never = ref
      return unreachable
    }
  }
}
