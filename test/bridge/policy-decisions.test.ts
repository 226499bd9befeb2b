import { describe, expect, it } from 'vitest'
import { decidePolicy } from '../../src/bridge/ask-policy.js'
import { decidePolicyOnce, POLICY_DECISIONS_KEPT } from '../../src/bridge/policy-decisions.js'
import { parsePolicy } from '../../src/policy/policy-file.js'

const POLICY = `defaults:
  channel: C0GENERAL
rules:
  - name: payments
    match: { title: "Payments*" }
    channel: C0PAYMENTS
    approvers: [U0ALICE, U0BOB]
    approvals: 2
`

describe('policy decisions, remembered per policy in force', () => {
  it('gives the same facts under the same policy the same decision, decided once', () => {
    const policy = parsePolicy(POLICY, 'policy.yml')
    const facts = { kind: 'plan-review' as const, title: 'Payments: refunds' }

    const first = decidePolicyOnce(policy, facts, {}, 'approval')
    const again = decidePolicyOnce(policy, { ...facts }, {}, 'approval')

    expect(first).toEqual(decidePolicy(policy, facts, {}, 'approval'))
    expect(first).toMatchObject({ rule: { name: 'payments' }, target: 'C0PAYMENTS', policy: { approvals: 2, approvers: ['U0ALICE', 'U0BOB'] } })
    expect(again).toBe(first)
  })

  it('decides facts that differ (title, key, channel, style) apart', () => {
    const policy = parsePolicy(POLICY, 'policy.yml')

    const payments = decidePolicyOnce(policy, { kind: 'plan-review', title: 'Payments: refunds' }, {}, 'approval')
    const docs = decidePolicyOnce(policy, { kind: 'plan-review', title: 'Docs: typo' }, {}, 'approval')
    const elsewhere = decidePolicyOnce(policy, { kind: 'plan-review', title: 'Payments: refunds' }, { channel: 'C0PAYMENTS' }, 'approval')

    expect([payments.rule.name, docs.rule.name]).toEqual(['payments', policy.defaults.name])
    expect([payments.target, docs.target, elsewhere.target]).toEqual(['C0PAYMENTS', 'C0GENERAL', 'C0PAYMENTS'])
    expect(elsewhere).not.toBe(payments)
  })

  it('decides afresh once the policy is reloaded: the new rules apply to the next ask', () => {
    const before = parsePolicy(POLICY, 'policy.yml')
    const after = parsePolicy(POLICY.replace('C0PAYMENTS', 'C0MONEY'), 'policy.yml')
    const facts = { kind: 'plan-review' as const, title: 'Payments: refunds' }

    expect(decidePolicyOnce(before, facts, {}, 'approval').target).toBe('C0PAYMENTS')
    expect(decidePolicyOnce(after, facts, {}, 'approval').target).toBe('C0MONEY')
  })

  it('decides a request with its own policy each time, and refuses a looser one each time', () => {
    const policy = parsePolicy(POLICY, 'policy.yml')
    const facts = { kind: 'plan-review' as const, title: 'Payments: refunds' }

    const tighter = decidePolicyOnce(policy, facts, { policy: { approvals: 3 } }, 'approval')
    expect(tighter.policy?.approvals).toBe(3)
    expect(decidePolicyOnce(policy, facts, { policy: { approvals: 3 } }, 'approval')).not.toBe(tighter)
    for (let i = 0; i < 2; i++) expect(() => decidePolicyOnce(policy, facts, { policy: { approvals: 1 } }, 'approval')).toThrow(expect.objectContaining({ code: 'POLICY_FORBIDDEN' }))
  })

  it('shares a frozen policy between the asks it decides, so no ask can change another’s', () => {
    const policy = parsePolicy(POLICY, 'policy.yml')
    const decision = decidePolicyOnce(policy, { kind: 'plan-review', title: 'Payments: refunds' }, {}, 'approval')

    expect(() => decision.policy!.approvers!.push('U0MALLORY')).toThrow(TypeError)
    expect(() => Object.assign(decision.policy!, { approvals: 1 })).toThrow(TypeError)
  })

  it(`keeps at most ${POLICY_DECISIONS_KEPT} decisions per policy, dropping the oldest`, () => {
    const policy = parsePolicy(POLICY, 'policy.yml')
    const first = decidePolicyOnce(policy, { kind: 'question', title: 'title 0' }, {}, 'question')
    for (let i = 1; i <= POLICY_DECISIONS_KEPT; i++) decidePolicyOnce(policy, { kind: 'question', title: `title ${i}` }, {}, 'question')

    const last = decidePolicyOnce(policy, { kind: 'question', title: `title ${POLICY_DECISIONS_KEPT}` }, {}, 'question')
    expect(decidePolicyOnce(policy, { kind: 'question', title: `title ${POLICY_DECISIONS_KEPT}` }, {}, 'question')).toBe(last)
    expect(decidePolicyOnce(policy, { kind: 'question', title: 'title 0' }, {}, 'question')).not.toBe(first)
  })
})
