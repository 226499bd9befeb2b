import { describe, expect, it } from 'vitest'
import { requestProblem } from '../../src/cli/check-request.js'
import { formatPath, nearestKey } from '../../src/contract/unknown-fields.js'
import { validateRequest } from '../../src/contract/validate-request.js'

describe('nearestKey', () => {
  const question = ['id', 'question', 'detail', 'header', 'options', 'multiSelect', 'intent']

  it.each([
    ['multiselect', 'multiSelect'],
    ['MULTISELECT', 'multiSelect'],
    ['questoin', 'question'],
    ['detial', 'detail'],
    ['headr', 'header'],
    ['option', 'options'],
    ['intnet', 'intent'],
  ])('takes %s for %s', (typed, meant) => {
    expect(nearestKey(typed, question)).toBe(meant)
  })

  it.each(['colour', 'choices', 'x', 'multiple'])('suggests nothing for %s, which is close to no known key', (typed) => {
    expect(nearestKey(typed, question)).toBeUndefined()
  })
})

describe('formatPath', () => {
  it('writes indices in brackets and keys with dots, as in JavaScript', () => {
    expect(formatPath(['questions', 0, 'options', 12, 'lable'])).toBe('questions[0].options[12].lable')
  })
})

describe('every unknown field at once', () => {
  it('names the misspelt fields of every question in one message, not one question per attempt', () => {
    const request = { questions: [{ id: 'a', question: 'A?', multiselect: true }, { id: 'b', question: 'B?', headr: 'B' }, { id: 'c', question: 'C?', optoins: [] }] }

    expect(() => validateRequest(request)).toThrow(
      'unknown field questions[0].multiselect — did you mean multiSelect?; unknown field questions[1].headr — did you mean header?; unknown field questions[2].optoins — did you mean options?',
    )
  })

  it('names the body’s misspelt fields and the questions’ together (POST /v1/asks, dsh-slack ask)', () => {
    const body = { questions: [{ id: 'a', question: 'A?', multiselect: true }], agnet: { id: 'session-1' }, timeoutMS: 1000 }

    expect(requestProblem(body)?.message).toBe(
      'unknown field agnet — did you mean agent?; unknown field timeoutMS — did you mean timeoutMs?; unknown field questions[0].multiselect — did you mean multiSelect?',
    )
  })
})
