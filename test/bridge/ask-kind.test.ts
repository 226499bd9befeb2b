import { describe, expect, it } from 'vitest'
import { askKindOf } from '../../src/bridge/ask-policy.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { validateRequest } from '../../src/contract/validate-request.js'

const questionsOf = (request: unknown) => validateRequest(request).questions

describe('askKindOf', () => {
  it('names asks as the policy\'s rules do: question, plan-review, tool-approval', () => {
    const plain = questionsOf({ questions: [{ id: 'pm', question: 'Which?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] })
    const plan = questionsOf({ questions: [planReviewQuestion('# Plan\n\nDrop the table.')] })

    expect([askKindOf({ kind: 'question', questions: plain }), askKindOf({ kind: 'question', questions: plan }), askKindOf({ kind: 'approval', questions: [] })]).toEqual(['question', 'plan-review', 'tool-approval'])
  })
})
