import { describe, expect, it } from 'vitest'
import { validateAnswer, validateRequest } from '../../src/contract/index.js'
import { ASK_EXAMPLE_ANSWER, ASK_EXAMPLE_REQUEST, ASK_HELP } from '../../src/cli/ask.js'
import { requestProblem } from '../../src/cli/check-request.js'

describe('dsh-slack ask --help', () => {
  it('shows a request that uses every field and is itself valid', () => {
    const request = JSON.parse(ASK_EXAMPLE_REQUEST) as Record<string, unknown>

    expect(requestProblem(request)).toBeUndefined()
    expect(Object.keys(request).sort()).toEqual(['agent', 'channel', 'questions', 'timeoutMs'])
    expect(ASK_HELP).toContain(ASK_EXAMPLE_REQUEST.split('\n').map((line) => `  ${line}`).join('\n'))
  })

  it('shows an answer that fits the example request', () => {
    const request = JSON.parse(ASK_EXAMPLE_REQUEST) as { questions: unknown[] }

    expect(() => validateAnswer(validateRequest({ questions: request.questions }), JSON.parse(ASK_EXAMPLE_ANSWER))).not.toThrow()
    expect(ASK_HELP).toContain(ASK_EXAMPLE_ANSWER)
  })
})
