import { describe, expect, it } from 'vitest'
import { approvalRecord, questionRecord, type IntakeContext } from '../../src/bridge/ask-intake.js'
import { validateRequest } from '../../src/contract/index.js'
import { policyFromEnvironment } from '../../src/policy/environment-policy.js'

const valid = validateRequest({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }] })
const context: IntakeContext = { policy: policyFromEnvironment({}), owner: { kind: 'service' }, now: 1_000, defaultChannel: 'C0AGENTS' }

describe('the record of a new ask', () => {
  it('keeps a POST’s idempotency key and a relayed request apart, each in its own field', () => {
    const posted = questionRecord(valid, { idempotencyKey: 'http-idempotency:k' }, context)
    const relayed = questionRecord(valid, { relayDelivery: { key: 'http://host#rpc-1' } }, context)

    expect([posted.idempotencyKey, posted.relayDelivery]).toEqual(['http-idempotency:k', undefined])
    expect([relayed.idempotencyKey, relayed.relayDelivery]).toEqual([undefined, { key: 'http://host#rpc-1' }])
  })

  it('is pending in the default channel, expiring after the default timeout', () => {
    const record = questionRecord(valid, {}, { ...context, defaultTimeoutMs: 60_000 })

    expect(record).toMatchObject({ kind: 'question', status: 'pending', target: 'C0AGENTS', createdAt: 1_000, expiresAt: 61_000, owner: { kind: 'service' } })
  })

  it('refuses an ask with nowhere to go, and an approval without a tool name, with BAD_REQUEST', () => {
    const { defaultChannel: _none, ...nowhere } = context

    expect(() => questionRecord(valid, {}, nowhere)).toThrow(expect.objectContaining({ name: 'UserInteractionError', code: 'BAD_REQUEST' }))
    expect(() => approvalRecord({ toolName: ' ' }, {}, context)).toThrow(expect.objectContaining({ name: 'UserInteractionError', code: 'BAD_REQUEST' }))
  })
})
