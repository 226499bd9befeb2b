import { describe, expect, it } from 'vitest'
import { validateRequest } from '../../src/contract/index.js'
import type { AskUserQuestionItem, AskUserQuestionRequest } from '../../src/contract/index.js'
import { knownFieldsOnly } from '../../src/contract/validate-request.js'

/** The `{ name, code, message }` of what `run` throws, or a failure when it does not throw. */
function rejection(run: () => unknown): { name: string; code: unknown; message: string } {
  try {
    run()
  } catch (error) {
    const { name, code, message } = error as { name: string; code: unknown; message: string }
    return { name, code, message }
  }
  throw new Error('expected a rejection, but the call returned')
}

function abortedSignal(): AbortSignal {
  const controller = new AbortController()
  controller.abort()
  return controller.signal
}

const pkg: AskUserQuestionItem = {
  id: 'pkg',
  question: 'Which package manager?',
  options: [{ label: 'pnpm (Recommended)', description: 'fast' }, { label: 'npm' }],
}

const planReview: AskUserQuestionItem = {
  id: 'plan-review',
  header: 'Plan review',
  question: 'Approve this plan and leave plan mode?',
  detail: '# Plan\n\n1. Do the thing\n',
  options: [
    { label: 'Approve', description: 'Leave plan mode; the plan is carried out from the next step.' },
    { label: 'Keep planning', description: 'Stay in plan mode; feedback goes back to the model.' },
  ],
  intent: { kind: 'plan-review', approve: 'Approve' },
}

describe('validateRequest: the seam checks, in SEAM.md order', () => {
  it('rejects a request whose signal is already aborted with ASK_ABORTED', () => {
    expect(rejection(() => validateRequest({ questions: [pkg], signal: abortedSignal() }))).toMatchObject({
      name: 'UserInteractionError',
      code: 'ASK_ABORTED',
    })
  })

  it('reports a pre-aborted signal before an empty batch, as the harness does', () => {
    expect(rejection(() => validateRequest({ questions: [], signal: abortedSignal() }))).toMatchObject({
      name: 'UserInteractionError',
      code: 'ASK_ABORTED',
    })
  })

  it('reports a pre-aborted signal before a bad intent and before the bridge rules', () => {
    const bad = { ...planReview, detail: undefined, id: ' ' }

    expect(rejection(() => validateRequest({ questions: [bad], signal: abortedSignal() })).code).toBe('ASK_ABORTED')
  })

  it('rejects an empty batch with EMPTY_QUESTIONS', () => {
    expect(rejection(() => validateRequest({ questions: [] }))).toEqual({
      name: 'UserInteractionError',
      code: 'EMPTY_QUESTIONS',
      message: 'the request has no questions; add at least one',
    })
  })

  it('accepts a live signal and hands the same signal back', () => {
    const signal = new AbortController().signal

    expect(validateRequest({ questions: [pkg], signal }).signal).toBe(signal)
  })

  it('rejects an intent whose approve names none of its own options with BAD_INTENT', () => {
    const question = { ...planReview, intent: { kind: 'plan-review' as const, approve: 'Ship it' } }

    expect(rejection(() => validateRequest({ questions: [question] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_INTENT',
      message: 'question "plan-review": intent.approve "Ship it" names none of the options (options: "Approve", "Keep planning")',
    })
  })

  it('rejects an approve that names an option of another question, since it must be its own', () => {
    const other = { id: 'other', question: 'Other?', options: [{ label: 'Ship it' }] }
    const question = { ...planReview, intent: { kind: 'plan-review' as const, approve: 'Ship it' } }

    expect(rejection(() => validateRequest({ questions: [other, question] })).code).toBe('BAD_INTENT')
  })

  it('rejects a plan review on a question without options, naming that there are none', () => {
    const { options: _options, ...question } = planReview

    expect(rejection(() => validateRequest({ questions: [question] }))).toMatchObject({
      code: 'BAD_INTENT',
      message: 'question "plan-review": intent.approve "Approve" names none of the options (options: none)',
    })
  })

  it('rejects a plan review with no approve at all', () => {
    const question = { ...planReview, intent: { kind: 'plan-review' } }

    expect(rejection(() => validateRequest({ questions: [question] }))).toMatchObject({
      code: 'BAD_INTENT',
      message: 'question "plan-review": intent.approve is missing (options: "Approve", "Keep planning")',
    })
  })

  it('rejects an intent on a question with no detail with BAD_INTENT', () => {
    const { detail: _detail, ...question } = planReview

    expect(rejection(() => validateRequest({ questions: [question] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_INTENT',
      message: 'question "plan-review": a "plan-review" intent needs a detail (the plan in Markdown)',
    })
  })

  it('treats a blank detail as no detail', () => {
    expect(rejection(() => validateRequest({ questions: [{ ...planReview, detail: ' \n ' }] })).code).toBe('BAD_INTENT')
  })

  it('reports a bad intent before a rule of the bridge broken by an earlier question', () => {
    const blankText = { id: 'first', question: '  ' }
    const { detail: _detail, ...noDetail } = planReview

    expect(rejection(() => validateRequest({ questions: [blankText, noDetail] })).code).toBe('BAD_INTENT')
  })

  it('accepts an intent kind it does not know without approve, so it can render the generic question', () => {
    const question = { ...pkg, detail: 'context', intent: { kind: 'future-kind' } }

    expect(validateRequest({ questions: [question] }).questions[0]?.intent).toEqual({ kind: 'future-kind' })
  })

  it('rejects an intent with a key it does not know with BAD_INTENT, because the intent decides how the answer is read', () => {
    const question = { ...planReview, intent: { kind: 'plan-review', approve: 'Approve', aprove: 'Keep planning' } }

    expect(rejection(() => validateRequest({ questions: [question] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_INTENT',
      message: 'unknown field questions[0].intent.aprove — did you mean approve?',
    })
  })

  it('rejects an unknown key in the intent of an unknown kind too: the shape is closed whatever the kind', () => {
    const question = { ...pkg, detail: 'context', intent: { kind: 'future-kind', extra: 1 } }

    expect(rejection(() => validateRequest({ questions: [question] }))).toMatchObject({ code: 'BAD_INTENT' })
  })

  it('rejects a deeply nested unknown key in an intent with BAD_INTENT instead of carrying it along', () => {
    let nested: Record<string, unknown> = {}
    for (let depth = 0; depth < 100_000; depth++) nested = { a: nested }
    const question = { ...planReview, intent: { kind: 'plan-review', approve: 'Approve', nested } }

    expect(rejection(() => validateRequest({ questions: [question] }))).toMatchObject({ code: 'BAD_INTENT' })
  })

  it('still checks the approve of an unknown intent kind when it names one', () => {
    const question = { ...pkg, detail: 'context', intent: { kind: 'future-kind', approve: 'yarn' } }

    expect(rejection(() => validateRequest({ questions: [question] })).code).toBe('BAD_INTENT')
  })

  it('still requires a detail for an unknown intent kind, without mentioning a plan', () => {
    const question = { ...pkg, intent: { kind: 'future-kind' } }

    expect(rejection(() => validateRequest({ questions: [question] }))).toMatchObject({
      code: 'BAD_INTENT',
      message: 'question "pkg": a "future-kind" intent needs a detail',
    })
  })

  it('rejects multiSelect on a plan review, which is a single decision', () => {
    expect(rejection(() => validateRequest({ questions: [{ ...planReview, multiSelect: true }] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_INTENT',
      message: 'question "plan-review": a plan review is a single decision; remove multiSelect',
    })
  })
})

describe('validateRequest: the bridge rules', () => {
  it('rejects a blank question id and names the question by position', () => {
    expect(rejection(() => validateRequest({ questions: [pkg, { id: '  ', question: 'Why?' }] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'question 2: id must not be blank',
    })
  })

  it('rejects an empty question id', () => {
    expect(rejection(() => validateRequest({ questions: [{ id: '', question: 'Why?' }] }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'question 1: id must not be blank',
    })
  })

  it('rejects a duplicate question id, since answers are routed by id', () => {
    expect(rejection(() => validateRequest({ questions: [pkg, { id: 'pkg', question: 'Again?' }] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'question "pkg": the id appears twice; question ids must be unique',
    })
  })

  it('rejects blank question text', () => {
    expect(rejection(() => validateRequest({ questions: [{ id: 'why', question: ' \t' }] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'question "why": the question text must not be blank',
    })
  })

  it('rejects a blank option label and says which option', () => {
    const question = { id: 'pkg', question: 'Which?', options: [{ label: 'npm' }, { label: ' ' }] }

    expect(rejection(() => validateRequest({ questions: [question] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'question "pkg": option 2 has a blank label',
    })
  })

  it('rejects a label that appears twice within a question', () => {
    const question = { id: 'pkg', question: 'Which?', options: [{ label: 'npm' }, { label: 'yarn' }, { label: 'npm' }] }

    expect(rejection(() => validateRequest({ questions: [question] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'question "pkg": option label "npm" appears twice',
    })
  })

  it('allows the same label in different questions', () => {
    const first = { id: 'a', question: 'A?', options: [{ label: 'Yes' }, { label: 'No' }] }
    const second = { id: 'b', question: 'B?', options: [{ label: 'Yes' }, { label: 'No' }] }

    expect(validateRequest({ questions: [first, second] }).questions).toHaveLength(2)
  })

  it('keeps labels verbatim, with their spaces and punctuation', () => {
    const question = { id: 'pkg', question: 'Which?', options: [{ label: '  pnpm (Recommended) ' }, { label: 'npm' }] }

    expect(validateRequest({ questions: [question] }).questions[0]?.options[0]?.label).toBe('  pnpm (Recommended) ')
  })
})

describe('validateRequest: shape errors', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'pkg'],
    ['a number', 42],
  ])('rejects %s as the request with BAD_REQUEST', (_what, request) => {
    expect(rejection(() => validateRequest(request))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'the request must be an object like {"questions": [{"id": "deploy", "question": "Deploy now?"}]}',
    })
  })

  it('answers an empty object with a sentence that shows a whole request', () => {
    expect(rejection(() => validateRequest({}))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'the request has no "questions": send at least one, like {"questions": [{"id": "deploy", "question": "Deploy now?", "options": [{"label": "Deploy"}, {"label": "Wait"}]}]}',
    })
  })

  it.each([
    ['an object', { questions: { 0: pkg } }],
    ['a string', { questions: 'pkg' }],
  ])('rejects questions that are %s with BAD_REQUEST', (_what, request) => {
    expect(rejection(() => validateRequest(request))).toMatchObject({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: '"questions" must be an array of questions, like [{"id": "deploy", "question": "Deploy now?"}]',
    })
  })

  it('rejects a question that is not an object and names it by position', () => {
    expect(rejection(() => validateRequest({ questions: [pkg, 'why?'] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'question 2: must be an object',
    })
  })

  it('rejects a hole in a sparse questions array instead of skipping it', () => {
    const questions: unknown[] = [pkg]
    questions[2] = { id: 'b', question: 'B?' }

    expect(rejection(() => validateRequest({ questions }))).toMatchObject({ code: 'BAD_REQUEST', message: 'question 2: must be an object' })
  })

  it('rejects a null question', () => {
    expect(rejection(() => validateRequest({ questions: [null] }))).toMatchObject({ code: 'BAD_REQUEST', message: 'question 1: must be an object' })
  })

  it.each([
    ['a missing id', { question: 'Why?' }, 'question 1: id: id must be a string'],
    ['a numeric id', { id: 7, question: 'Why?' }, 'question 1: id: id must be a string'],
    ['missing question text', { id: 'why' }, 'question "why": question: question must be a string'],
    ['a numeric detail', { id: 'why', question: 'Why?', detail: 1 }, 'question "why": detail: detail must be a string'],
    ['a numeric header', { id: 'why', question: 'Why?', header: 1 }, 'question "why": header: header must be a string'],
    ['options that are not an array', { id: 'why', question: 'Why?', options: 'a,b' }, 'question "why": options: options must be an array'],
    ['an option label that is not a string', { id: 'why', question: 'Why?', options: [{ label: 1 }] }, 'question "why": options.0.label: option label must be a string'],
    ['an option description that is not a string', { id: 'why', question: 'Why?', options: [{ label: 'a', description: 2 }] }, 'question "why": options.0.description: option description must be a string'],
    ['a multiSelect that is not a boolean', { id: 'why', question: 'Why?', multiSelect: 'yes' }, 'question "why": multiSelect: multiSelect must be true or false'],
    ['an intent without a kind', { id: 'why', question: 'Why?', detail: 'd', intent: { approve: 'a' } }, 'question "why": intent.kind: intent.kind must be a string'],
  ])('rejects %s with BAD_REQUEST and says where', (_what, question, message) => {
    expect(rejection(() => validateRequest({ questions: [question] }))).toEqual({ name: 'UserInteractionError', code: 'BAD_REQUEST', message })
  })

  it('rejects a signal that is not an AbortSignal', () => {
    expect(rejection(() => validateRequest({ questions: [pkg], signal: { aborted: false } }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'signal must be an AbortSignal',
    })
  })

  it.each([
    ['null', null],
    ['without an id', { title: 'x' }],
    ['with a numeric id', { id: 1 }],
  ])('rejects an agent that is %s', (_what, agent) => {
    expect(rejection(() => validateRequest({ questions: [pkg], agent }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'agent must be an object with a string "id"',
    })
  })
})

describe('validateRequest: unknown fields', () => {
  it('refuses a misspelt question field, naming where it is and the field it most likely means', () => {
    const question = { ...pkg, multiselect: true }

    expect(rejection(() => validateRequest({ questions: [question] }))).toEqual({
      name: 'UserInteractionError',
      code: 'BAD_REQUEST',
      message: 'unknown field questions[0].multiselect — did you mean multiSelect?',
    })
  })

  it('refuses an unknown option field, with the option’s index in the path', () => {
    const question = { ...pkg, options: [{ label: 'npm' }, { lable: 'pnpm' }] }

    expect(rejection(() => validateRequest({ questions: [pkg, question] }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'unknown field questions[1].options[1].lable — did you mean label?',
    })
  })

  it('refuses an unknown top-level field before asking for the questions it may have misspelt', () => {
    expect(rejection(() => validateRequest({ question: [pkg] }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'unknown field question — did you mean questions?',
    })
  })

  it('lists the known fields when nothing is close to the unknown one', () => {
    expect(rejection(() => validateRequest({ questions: [{ ...pkg, colour: 'red' }] }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'unknown field questions[0].colour (expected one of id, question, detail, header, options, multiSelect, intent)',
    })
  })

  it('names every unknown field of a question in one message, the question’s own before its options’', () => {
    const question = { ...pkg, options: [{ label: 'a', descripton: 'x' }], Header: 'Tools' }

    expect(rejection(() => validateRequest({ questions: [question] }))).toMatchObject({
      message: 'unknown field questions[0].Header — did you mean header?; unknown field questions[0].options[0].descripton — did you mean description?',
    })
  })

  it('names an unknown field even when the field it replaces is then missing', () => {
    const question = { id: 'why', questoin: 'Why?' }

    expect(rejection(() => validateRequest({ questions: [question] }))).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'unknown field questions[0].questoin — did you mean question?',
    })
  })

  it('still checks an aborted signal first, as the seam orders it', () => {
    expect(rejection(() => validateRequest({ questions: [pkg], extra: 1, signal: abortedSignal() }))).toMatchObject({ code: 'ASK_ABORTED' })
  })

  it('reads any field of the agent, which is the harness’s own object', () => {
    const agent = { id: 'session-1', options: { model: 'deepseek' }, somethingNew: true }

    expect(validateRequest({ questions: [pkg], agent }).agent).toBe(agent)
  })

  it('accepts the harness’s live agent, whose session refers back to itself, reading only the text it shows', () => {
    const session: Record<string, unknown> = { header: { cwd: '/srv/app' }, events: [] }
    const agent = { id: 'session-1', session }
    session.agent = agent
    session.events = [{ session }]

    expect(validateRequest({ questions: [pkg], agent: agent as AskUserQuestionRequest['agent'] }).agent).toBe(agent)
  })

  it('refuses a lone surrogate in the text of the agent it shows (its working directory), as in a question', () => {
    const agent = { id: 'session-1', session: { header: { cwd: '/srv/\ud800' } } }

    expect(rejection(() => validateRequest({ questions: [pkg], agent }))).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('agent.session.header.cwd') })
  })
})

describe('knownFieldsOnly (the harness plugin reads requests the way the harness does)', () => {
  it('drops keys the format does not know from the questions and options, so they pass', () => {
    const request = { questions: [{ ...pkg, harnessOnly: { nested: true }, options: [{ label: 'npm', icon: 'box' }] }], traceId: 'abc' }

    const valid = validateRequest(knownFieldsOnly(request as AskUserQuestionRequest))

    expect(valid.questions[0]).toEqual({ id: 'pkg', question: 'Which package manager?', options: [{ label: 'npm' }], multiSelect: false })
  })

  it('keeps the agent and the signal as they are', () => {
    const agent = { id: 'session-1' }
    const signal = new AbortController().signal

    const copy = knownFieldsOnly({ questions: [pkg], agent, signal })

    expect(copy.agent).toBe(agent)
    expect(copy.signal).toBe(signal)
  })

  it('leaves a malformed request for validateRequest to name', () => {
    expect(rejection(() => validateRequest(knownFieldsOnly({ questions: [{ id: 1 }] } as unknown as AskUserQuestionRequest)))).toMatchObject({ code: 'BAD_REQUEST', message: 'question 1: id: id must be a string' })
  })
})

describe('validateRequest: the result', () => {
  it('makes options and multiSelect explicit', () => {
    expect(validateRequest({ questions: [{ id: 'why', question: 'Why?' }] }).questions).toEqual([{ id: 'why', question: 'Why?', options: [], multiSelect: false }])
  })

  it('keeps every known field of a plan review', () => {
    expect(validateRequest({ questions: [planReview] }).questions[0]).toEqual({ ...planReview, multiSelect: false })
  })

  it('gives back a copy, never the caller’s question objects', () => {
    const request = { questions: [pkg] }

    const valid = validateRequest(request)

    expect(valid.questions).not.toBe(request.questions)
    expect(valid.questions[0]).not.toBe(pkg)
    expect(valid.questions[0]?.options).not.toBe(pkg.options)
  })

  it('keeps the caller’s agent object, which may be a harness class instance', () => {
    const agent = { id: 'session-1', options: { model: 'deepseek' } }

    expect(validateRequest({ questions: [pkg], agent }).agent).toBe(agent)
  })

  it('accepts a large batch with long labels: the seam sets no limits', () => {
    const options = Array.from({ length: 500 }, (_, index) => ({ label: `option ${index} ${'x'.repeat(300)}` }))
    const questions = Array.from({ length: 60 }, (_, index) => ({ id: `q${index}`, question: 'Pick?', options, multiSelect: true }))

    const valid = validateRequest({ questions })

    expect(valid.questions).toHaveLength(60)
    expect(valid.questions[59]?.options[499]?.label).toBe(options[499]?.label)
  })
})
