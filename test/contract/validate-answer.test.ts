import { describe, expect, it } from 'vitest'
import { answerProblems, checkAnswer, validateAnswer, validateRequest } from '../../src/contract/index.js'

function rejection(run: () => unknown): { name: string; code: unknown; message: string } {
  try {
    run()
  } catch (error) {
    const { name, code, message } = error as { name: string; code: unknown; message: string }
    return { name, code, message }
  }
  throw new Error('expected a rejection, but the call returned')
}

const request = validateRequest({
  questions: [
    { id: 'pkg', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }, { label: 'yarn' }] },
    { id: 'ci', question: 'Which CI checks?', multiSelect: true, options: [{ label: 'lint' }, { label: 'test' }, { label: 'build' }] },
    { id: 'why', question: 'Anything else?' },
  ],
})

const skipAll = () => [
  { id: 'pkg', selected: [] as string[] },
  { id: 'ci', selected: [] as string[] },
  { id: 'why', selected: [] as string[] },
]

/** A full answer with item `index` replaced. */
function answerWith(index: number, item: object): { answers: object[] } {
  const answers: object[] = skipAll()
  answers[index] = item
  return { answers }
}

describe('validateAnswer: accepted answers', () => {
  it('accepts one label for a single-select question, verbatim', () => {
    const answer = answerWith(0, { id: 'pkg', selected: ['pnpm (Recommended)'] })

    expect(validateAnswer(request, answer).answers[0]).toEqual({ id: 'pkg', selected: ['pnpm (Recommended)'] })
  })

  it('accepts any subset of a multi-select question, in the order given', () => {
    const answer = answerWith(1, { id: 'ci', selected: ['test', 'lint'] })

    expect(validateAnswer(request, answer).answers[1]).toEqual({ id: 'ci', selected: ['test', 'lint'] })
  })

  it('accepts a skipped question as { id, selected: [] } with no custom', () => {
    expect(validateAnswer(request, { answers: skipAll() })).toEqual({ answers: skipAll() })
  })

  it('accepts a custom answer on a question with no options and trims it', () => {
    const answer = answerWith(2, { id: 'why', selected: [], custom: '  use the monorepo layout \n' })

    expect(validateAnswer(request, answer).answers[2]).toEqual({ id: 'why', selected: [], custom: 'use the monorepo layout' })
  })

  it('accepts a custom answer as an override on a question with options', () => {
    const answer = answerWith(0, { id: 'pkg', selected: [], custom: 'bun' })

    expect(validateAnswer(request, answer).answers[0]).toEqual({ id: 'pkg', selected: [], custom: 'bun' })
  })

  it('drops extra keys from the clean copy', () => {
    const answer = answerWith(0, { id: 'pkg', selected: ['npm'], answeredBy: 'U1' })

    expect(validateAnswer(request, answer).answers[0]).toEqual({ id: 'pkg', selected: ['npm'] })
  })

  it('returns fresh arrays, never the caller’s', () => {
    const selected = ['npm']

    const clean = validateAnswer(request, answerWith(0, { id: 'pkg', selected }))

    expect(clean.answers[0]?.selected).not.toBe(selected)
  })
})

describe('validateAnswer: rejected answers', () => {
  it('rejects custom text together with selected labels: custom is an override, not a supplement', () => {
    const answer = answerWith(0, { id: 'pkg', selected: ['npm'], custom: 'bun' })

    expect(rejection(() => validateAnswer(request, answer))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'invalid answer: question "pkg": a custom answer replaces the options, so selected must be empty',
    })
  })

  it.each([['empty', ''], ['blank', '  \n\t']])('rejects %s custom text', (_what, custom) => {
    expect(rejection(() => validateAnswer(request, answerWith(2, { id: 'why', selected: [], custom })))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'invalid answer: question "why": the custom answer is blank',
    })
  })

  it('rejects two labels on a single-select question', () => {
    expect(rejection(() => validateAnswer(request, answerWith(0, { id: 'pkg', selected: ['npm', 'yarn'] })))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'invalid answer: question "pkg": single-select, but 2 labels are selected',
    })
  })

  it('rejects a label that is not one of the question’s options', () => {
    expect(rejection(() => validateAnswer(request, answerWith(0, { id: 'pkg', selected: ['pnpm'] })))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'invalid answer: question "pkg": "pnpm" is not one of its options',
    })
  })

  it('rejects a label from another question', () => {
    expect(rejection(() => validateAnswer(request, answerWith(1, { id: 'ci', selected: ['npm'] }))).message).toBe(
      'invalid answer: question "ci": "npm" is not one of its options',
    )
  })

  it('rejects any selected label on a question with no options', () => {
    expect(rejection(() => validateAnswer(request, answerWith(2, { id: 'why', selected: ['yes'] }))).code).toBe('BAD_REQUEST')
  })

  it('rejects a label selected twice on a multi-select question', () => {
    expect(rejection(() => validateAnswer(request, answerWith(1, { id: 'ci', selected: ['lint', 'test', 'lint'] })))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'invalid answer: question "ci": "lint" is selected twice',
    })
  })

  it('rejects too few answer items', () => {
    expect(rejection(() => validateAnswer(request, { answers: skipAll().slice(0, 2) }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'invalid answer: the answer has 2 item(s) for 3 question(s); give one per question, in order',
    })
  })

  it('rejects too many answer items', () => {
    expect(rejection(() => validateAnswer(request, { answers: [...skipAll(), { id: 'extra', selected: [] }] })).code).toBe('BAD_REQUEST')
  })

  it('rejects items in another order than the questions', () => {
    const [pkg, ci, why] = skipAll()

    expect(rejection(() => validateAnswer(request, { answers: [ci, pkg, why] }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'invalid answer: question "pkg": the answer item in its place has id "ci"; question "ci": the answer item in its place has id "pkg"',
    })
  })

  it('rejects an item whose id is not a question’s', () => {
    expect(rejection(() => validateAnswer(request, answerWith(2, { id: 'what', selected: [] }))).message).toBe(
      'invalid answer: question "why": the answer item in its place has id "what"',
    )
  })

  it.each([
    ['undefined', undefined],
    ['an array', []],
    ['answers that are not an array', { answers: 'npm' }],
    ['an item without selected', { answers: [{ id: 'pkg' }, { id: 'ci', selected: [] }, { id: 'why', selected: [] }] }],
    ['a non-string label', { answers: [{ id: 'pkg', selected: [1] }, { id: 'ci', selected: [] }, { id: 'why', selected: [] }] }],
    ['a non-string custom', { answers: [{ id: 'pkg', selected: [], custom: 1 }, { id: 'ci', selected: [] }, { id: 'why', selected: [] }] }],
  ])('rejects %s as malformed', (_what, answer) => {
    expect(rejection(() => validateAnswer(request, answer))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'invalid answer: the answer must be { answers: [{ id, selected: string[], custom?: string }] }',
    })
  })

  it('lists every problem of every question in one message', () => {
    const answer = { answers: [{ id: 'pkg', selected: ['npm', 'nope'] }, { id: 'ci', selected: ['x'] }, { id: 'why', selected: [], custom: ' ' }] }

    expect(answerProblems(request, answer)).toEqual([
      'question "pkg": single-select, but 2 labels are selected',
      'question "pkg": "nope" is not one of its options',
      'question "ci": "x" is not one of its options',
      'question "why": the custom answer is blank',
    ])
  })

  it('finds no problems in a valid answer', () => {
    expect(answerProblems(request, { answers: skipAll() })).toEqual([])
  })
})

describe('validateAnswer: plan review', () => {
  const plan = validateRequest({
    questions: [
      {
        id: 'plan-review',
        question: 'Approve this plan and leave plan mode?',
        detail: '# Plan',
        options: [{ label: 'Approve' }, { label: 'Keep planning' }],
        intent: { kind: 'plan-review', approve: 'Approve' },
      },
    ],
  })

  it('accepts an approval, a decline, and feedback as custom text', () => {
    expect(validateAnswer(plan, { answers: [{ id: 'plan-review', selected: ['Approve'] }] }).answers).toEqual([{ id: 'plan-review', selected: ['Approve'] }])
    expect(validateAnswer(plan, { answers: [{ id: 'plan-review', selected: ['Keep planning'] }] }).answers).toHaveLength(1)
    expect(validateAnswer(plan, { answers: [{ id: 'plan-review', selected: [], custom: ' split step 2 ' }] }).answers[0]?.custom).toBe('split step 2')
  })

  it('rejects approving and declining at once', () => {
    expect(rejection(() => validateAnswer(plan, { answers: [{ id: 'plan-review', selected: ['Approve', 'Keep planning'] }] })).code).toBe('BAD_REQUEST')
  })
})

describe('checkAnswer: an answer the handlers built, checked by the seam’s rules alone', () => {
  it('gives the same clean copy as validateAnswer, trimmed, with fresh arrays', () => {
    const selected = ['lint', 'test']
    const answer = { answers: [{ id: 'pkg', selected: ['npm'] }, { id: 'ci', selected }, { id: 'why', selected: [], custom: ' ship it ' }] }

    const clean = checkAnswer(request, answer)

    expect(clean).toEqual(validateAnswer(request, answer))
    expect(clean.answers[2]?.custom).toBe('ship it')
    expect(clean.answers[1]?.selected).not.toBe(selected)
  })

  it('refuses what breaks the seam with the same message as validateAnswer', () => {
    const answer = { answers: [{ id: 'pkg', selected: ['bun'] }, { id: 'ci', selected: [] }, { id: 'why', selected: [], custom: ' ' }] }

    expect(rejection(() => checkAnswer(request, answer))).toEqual(rejection(() => validateAnswer(request, answer)))
    expect(rejection(() => checkAnswer(request, answer)).message).toBe('invalid answer: question "pkg": "bun" is not one of its options; question "why": the custom answer is blank')
  })
})
