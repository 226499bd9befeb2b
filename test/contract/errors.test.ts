import { describe, expect, it } from 'vitest'
import { CODES, HarnessError, UserInteractionError, USER_INTERACTION_CODES, isUserInteractionError } from '../../src/contract/index.js'

describe('UserInteractionError', () => {
  it('carries the harness name and a stable code so tool runtimes keep { name, code }', () => {
    const error = new UserInteractionError('ASK_CANCELLED', 'dismissed in Slack')

    expect(error).toBeInstanceOf(HarnessError)
    expect(error).toBeInstanceOf(Error)
    expect({ name: error.name, code: error.code, message: error.message }).toEqual({
      name: 'UserInteractionError',
      code: 'ASK_CANCELLED',
      message: 'dismissed in Slack',
    })
  })

  it('declares every code the seam and the bridge raise', () => {
    expect([...USER_INTERACTION_CODES].sort()).toEqual(
      ['ASK_ABORTED', 'ASK_CANCELLED', 'ASK_EXPIRED', 'BAD_INTENT', 'BAD_REQUEST', 'DUPLICATE_PROVIDER', 'EMPTY_QUESTIONS', 'NO_PROVIDER', 'POLICY_FORBIDDEN', 'SLACK_API_ERROR'].sort(),
    )
    expect(CODES.ASK_EXPIRED).toBe('ASK_EXPIRED')
  })

  it('keeps the cause it wraps', () => {
    const cause = new Error('socket hang up')

    const error = new UserInteractionError('SLACK_API_ERROR', 'chat.postMessage failed', { cause })

    expect(error.cause).toBe(cause)
  })

  it('recognises its own errors and rejects look-alikes with unknown codes', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'UserInteractionError', code: 'NOPE' })

    expect(isUserInteractionError(new UserInteractionError('ASK_ABORTED', 'x'))).toBe(true)
    expect(isUserInteractionError(lookalike)).toBe(false)
    expect(isUserInteractionError(new HarnessError('x', 'ASK_ABORTED'))).toBe(false)
  })
})
