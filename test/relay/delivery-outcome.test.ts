import { describe, expect, it } from 'vitest'
import { deliveryOutcome } from '../../src/relay/delivery-outcome.js'
import type { OutboxEntry } from '../../src/relay/outbox.js'
import { RelayError } from '../../src/relay/relay-error.js'

const entry = (maybeDelivered = false): OutboxEntry => ({
  askId: 'ask-1',
  maybeDelivered,
  response: { type: 'client-response', rpcId: 'rpc-1', result: { ok: true, value: { sessionId: 's', answer: { answers: [] } } } },
})

describe('deliveryOutcome', () => {
  it('is done when the host accepts', () => {
    const outcome = deliveryOutcome('rpc-1', entry(), { kind: 'receipt', receipt: { accepted: true } }, undefined)

    expect(outcome.delivery).toBe('delivered')
    expect(outcome.close).toBeUndefined()
  })

  it.each(['answered', 'cancelled', 'allowed', 'rejected'] as const)('says the request was %s outside Slack on not-pending when the host reported it so', (how) => {
    const notPending = { kind: 'receipt', receipt: { accepted: false, reason: 'not-pending' } } as const

    expect(deliveryOutcome('rpc-1', entry(), notPending, how)).toMatchObject({ delivery: 'dropped', close: how })
  })

  it('says the answer was not delivered on not-pending with no report from the host, never "answered outside Slack"', () => {
    const outcome = deliveryOutcome('rpc-1', entry(), { kind: 'receipt', receipt: { accepted: false, reason: 'not-pending' } }, undefined)

    expect(outcome).toMatchObject({ delivery: 'dropped', close: 'undelivered', log: { level: 'warn' } })
  })

  it('takes not-pending as our own answer when an earlier attempt may have reached the host', () => {
    const outcome = deliveryOutcome('rpc-1', entry(true), { kind: 'receipt', receipt: { accepted: false, reason: 'not-pending' } }, 'answered')

    expect(outcome.delivery).toBe('delivered')
    expect(outcome.close).toBeUndefined()
  })

  it('fails the message on bad-response and logs an error naming the request and the ask', () => {
    const outcome = deliveryOutcome('rpc-1', entry(), { kind: 'receipt', receipt: { accepted: false, reason: 'bad-response' } }, undefined)

    expect(outcome).toMatchObject({ delivery: 'dropped', close: { failed: expect.stringContaining('bad-response') }, log: { level: 'error' } })
    expect(outcome.log.message).toMatch(/rpc-1.*ask-1/)
  })

  it('fails the message when the host refuses the call itself', () => {
    const outcome = deliveryOutcome('rpc-1', entry(), { kind: 'refused', error: new RelayError('HOST_REFUSED', 'respond answered HTTP 415') }, undefined)

    expect(outcome).toMatchObject({ delivery: 'dropped', close: { failed: expect.stringContaining('415') } })
  })

  it('keeps the response when the host cannot be reached', () => {
    expect(deliveryOutcome('rpc-1', entry(), { kind: 'unreachable', error: new RelayError('HOST_UNREACHABLE', 'ECONNREFUSED') }, undefined)).toMatchObject({ delivery: 'keep', log: { level: 'warn' } })
  })
})
