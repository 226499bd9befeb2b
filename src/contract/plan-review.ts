import type { AskUserQuestionIntent, AskUserQuestionItem, AskUserQuestionOption } from './types.js'

/** The label that approves a plan in the harness's plan review. */
export const PLAN_APPROVE_LABEL = 'Approve'

/**
 * The one question the harness's plan mode asks (SEAM.md), for callers that
 * review a plan the same way. It counts as approved only when the answer is
 * exactly `selected: ['Approve']`; a `custom` answer is the reviewer's feedback.
 */
export function planReviewQuestion(planMarkdown: string): AskUserQuestionItem & {
  options: AskUserQuestionOption[]
  multiSelect: boolean
  intent: AskUserQuestionIntent
} {
  return {
    id: 'plan-review',
    header: 'Plan review',
    question: 'Approve this plan and leave plan mode?',
    detail: planMarkdown,
    options: [
      { label: PLAN_APPROVE_LABEL, description: 'Leave plan mode; the plan is carried out from the next step.' },
      { label: 'Keep planning', description: 'Stay in plan mode; feedback goes back to the model.' },
    ],
    multiSelect: false,
    intent: { kind: 'plan-review', approve: PLAN_APPROVE_LABEL },
  }
}
