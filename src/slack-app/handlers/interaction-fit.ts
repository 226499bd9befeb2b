import type { ActionRef, ViewRef } from '../../../blocks/ids.js'
import { carouselFits } from '../../../blocks/batch-carousel.js'
import { isPlanReview } from '../../contract/index.js'
import type { AskRecord } from '../../store/ask-record.js'

/**
 * Does an interaction belong to the ask it names? Slack only ever sends back
 * the controls we rendered, but a signed payload can be forged by anyone
 * holding the signing secret, replayed from an older rendering, or built by
 * a client with a bug; and our handlers trust the control's kind to decide
 * how an answer is read. So every action and view must match the shape of
 * its ask, the shape being exactly what the message or modal renders:
 *
 * - a tool approval: Allow and Reject;
 * - a plan review: its option buttons or menu, Request changes… (and its
 *   modal), Dismiss;
 * - one plain question: its option buttons or menu (single-select) or
 *   Submit (multi-select), Other… (and its modal), Skip, Dismiss;
 * - several questions: Answer… (and the form's pages), Dismiss; and, when
 *   the batch shows as a carousel, each card's option buttons.
 *
 * Returns why it does not fit, or null when it does. Pure: the handlers log
 * the reason and change nothing.
 */
export function actionMisfit(record: AskRecord, ref: ActionRef): string | null {
  const shape = shapeOf(record)
  const kind = ref.kind
  if (shape === 'approval') return kind === 'allow' || kind === 'reject' ? null : `a "${kind}" action does not belong to a tool approval`
  if (kind === 'allow' || kind === 'reject') return `a "${kind}" action belongs to tool approvals, not to a question`
  switch (kind) {
    case 'dismiss':
    case 'link':
      return null
    case 'answer':
      return shape === 'batch' ? null : 'an "answer" action (the batch form) does not belong to a single question'
    case 'request-changes':
      return shape === 'plan' ? null : 'a "request-changes" action belongs to plan reviews only'
    case 'skip':
      return shape === 'single' ? null : `a "skip" action does not belong to a ${shape === 'plan' ? 'plan review' : 'batch of questions'}`
    case 'other':
      return shape === 'single' ? questionMisfit(record, ref.question) : `an "other" action does not belong to a ${shape === 'plan' ? 'plan review' : 'batch of questions'}`
    case 'option':
      // A short batch's carousel: one card per question, its options as buttons (decision 0077).
      if (shape === 'batch') return carouselFits(record.questions) ? optionMisfit(record, ref.question, ref.option) : 'an "option" action does not belong to a batch of questions shown without cards (it is answered in the form)'
      if (record.questions[0]?.multiSelect) return `a "${kind}" action picks one option, but the question is multi-select`
      return questionMisfit(record, ref.question)
    case 'select':
    case 'external-select':
      if (shape === 'batch') return `a "${kind}" action does not belong to a batch of questions (it is answered in the form)`
      if (record.questions[0]?.multiSelect) return `a "${kind}" action picks one option, but the question is multi-select`
      return questionMisfit(record, ref.question)
    case 'submit':
    case 'checkboxes':
    case 'multi-select':
    case 'multi-external-select':
      if (shape !== 'single') return `a "${kind}" action belongs to a single multi-select question`
      if (!record.questions[0]?.multiSelect) return `a "${kind}" action is for multi-select, but the question is single-select`
      return questionMisfit(record, ref.question)
    default: {
      const unreachable: never = kind
      return unreachable
    }
  }
}

/** The same for a submitted modal; `pageCount` is how many pages the ask's batch form has. */
export function viewMisfit(record: AskRecord, ref: ViewRef, pageCount: () => number): string | null {
  const shape = shapeOf(record)
  switch (ref.kind) {
    case 'other-modal':
      return shape === 'single' ? questionMisfit(record, ref.question) : `an "Other" form does not belong to a ${shapeName(shape)}`
    case 'feedback-modal':
      return shape === 'plan' ? null : `a "Request changes" form belongs to plan reviews only, not to a ${shapeName(shape)}`
    case 'batch-modal': {
      if (shape !== 'batch') return `a batch form does not belong to a ${shapeName(shape)}`
      const pages = pageCount()
      return Number.isInteger(ref.page) && ref.page >= 0 && ref.page < pages ? null : `the batch form has no page ${ref.page} (it has ${pages})`
    }
    default: {
      const unreachable: never = ref
      return unreachable
    }
  }
}

type Shape = 'approval' | 'plan' | 'single' | 'batch'

function shapeOf(record: AskRecord): Shape {
  if (record.kind === 'approval') return 'approval'
  if (record.questions.length > 1) return 'batch'
  return record.questions[0] && isPlanReview(record.questions[0]) ? 'plan' : 'single'
}

function shapeName(shape: Shape): string {
  return { approval: 'tool approval', plan: 'plan review', single: 'single question', batch: 'batch of questions' }[shape]
}

/** A carousel card's button: its question and option exist. */
function optionMisfit(record: AskRecord, question: number, option: number): string | null {
  const q = record.questions[question]
  if (!q) return `question ${question} is not on this message (the ask has ${record.questions.length})`
  return option < q.options.length ? null : `question ${question} has no option ${option}`
}

/** A single-question message renders question 0 only. */
function questionMisfit(record: AskRecord, question: number): string | null {
  return question === 0 && record.questions.length === 1 ? null : `question ${question} is not on this message (the ask has ${record.questions.length})`
}
