import { describe, expect, it } from 'vitest'
import type { OperatorPolicy, OperatorRule } from '../../src/policy/operator-policy.js'
import { atLeastAsStrict, strictestRule } from '../../src/policy/strictness.js'

function rule(name: string, overrides: Partial<OperatorRule> = {}): OperatorRule {
  return { name, match: {}, channels: [], answerers: [], approvers: [], approvals: 1, mention: [], ...overrides }
}

function policyOf(defaults: OperatorRule, rules: OperatorRule[]): OperatorPolicy {
  return { source: 'test', version: 'v', defaults, rules, keys: [], limits: { pending: 1, pendingPerKey: 1 } }
}

describe('atLeastAsStrict', () => {
  it('counts more approvals from the same people as stricter, and fewer as looser', () => {
    const two = rule('two', { approvers: ['U1', 'U2'], approvals: 2 })
    const one = rule('one', { approvers: ['U1', 'U2'], approvals: 1 })

    expect(atLeastAsStrict(two, one)).toBe(true)
    expect(atLeastAsStrict(one, two)).toBe(false)
  })

  it('counts fewer people as stricter, anyone as the loosest, and answerers when a rule names no approvers', () => {
    const alice = rule('alice', { approvers: ['U1'] })
    const both = rule('both', { answerers: ['U1', 'U2'] })
    const anyone = rule('anyone')

    expect(atLeastAsStrict(alice, both)).toBe(true)
    expect(atLeastAsStrict(both, alice)).toBe(false)
    expect(atLeastAsStrict(both, anyone)).toBe(true)
    expect(atLeastAsStrict(anyone, both)).toBe(false)
  })
})

describe('strictestRule', () => {
  const defaults = rule('defaults', { answerers: ['U1', 'U2'] })
  const allow = rule('allow', { approvers: ['U1', 'U2', 'U3'] })
  const quorum = rule('quorum', { approvers: ['U1', 'U2'], approvals: 2 })
  const leads = rule('leads', { approvers: ['S0LEADS', 'U1'] })
  const ops = rule('ops', { approvers: ['S0OPS'] })
  const policy = policyOf(defaults, [allow, leads, ops, quorum])

  it('takes the rule that provably asks the most', () => {
    expect(strictestRule(policy, [allow, defaults])).toBe(defaults)
    expect(strictestRule(policy, [defaults, quorum, allow])).toBe(quorum)
  })

  it('prefers a named rule to the defaults, and an earlier rule to a later one, when their people differ', () => {
    expect(strictestRule(policy, [defaults, leads])).toBe(leads)
    expect(strictestRule(policy, [ops, leads])).toBe(leads)
  })
})
