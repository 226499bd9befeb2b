import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isUserInteractionError } from '../../src/contract/index.js'
import { namedIds, type OperatorRule } from '../../src/policy/operator-policy.js'
import { checkChannel, tightenPolicy, type AskStyle } from '../../src/policy/tighten.js'
import { checkProperty } from '../support/property-runs.js'

const POOL = ['U0A1', 'U0B2', 'U0C3', 'U0D4', 'S0LEADS', 'S0PAY'] as const

function rule(overrides: Partial<OperatorRule> = {}): OperatorRule {
  return { name: 'test', match: {}, channels: [], answerers: [], approvers: [], approvals: 1, mention: [], ...overrides }
}

const ids = fc.uniqueArray(fc.constantFrom(...POOL), { maxLength: POOL.length })
const durationMs = fc.integer({ min: 1, max: 7 * 86_400_000 })

const operatorRule = fc
  .record({
    answerers: ids,
    approvers: ids,
    approvals: fc.integer({ min: 1, max: 10 }),
    mention: ids,
    remindAfterMs: fc.option(durationMs, { nil: undefined }),
    escalation: fc.option(fc.record({ to: fc.constantFrom(...POOL), after: durationMs }), { nil: undefined }),
  })
  .map(({ escalation, remindAfterMs, ...rest }): OperatorRule => ({
    ...rule(rest),
    ...(remindAfterMs !== undefined ? { remindAfterMs } : {}),
    ...(escalation ? { escalateTo: escalation.to, escalateAfterMs: escalation.after } : {}),
  }))

const requestPolicy = fc.record(
  {
    approvals: fc.integer({ min: 1, max: 10 }),
    approvers: fc.uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: POOL.length }),
    remindAfter: durationMs,
    escalateTo: fc.constantFrom(...POOL),
    escalateAfter: durationMs,
  },
  { requiredKeys: [] },
)

const style = fc.constantFrom<AskStyle>('approval', 'question')

describe('tightenPolicy', () => {
  it('never gives an ask a looser policy than the operator\'s rule, whatever the request asks (random rules × random requests)', () => {
    checkProperty(
      fc.property(operatorRule, requestPolicy, style, (operator, request, askStyle) => {
        let effective
        try {
          effective = tightenPolicy(operator, request, askStyle)
        } catch (error) {
          // Refused is always safe; it must be refused with the seam's codes.
          expect(isUserInteractionError(error) && ['POLICY_FORBIDDEN', 'BAD_REQUEST'].includes(error.code)).toBe(true)
          return
        }
        const approvals = effective?.approvals ?? 1
        if (askStyle === 'approval') expect(approvals).toBeGreaterThanOrEqual(operator.approvals)
        const ruleDeciders = askStyle === 'approval' && operator.approvers.length > 0 ? operator.approvers : operator.answerers
        if (askStyle === 'approval' && operator.approvers.length > 0) expect(effective?.approvers?.length ?? 0).toBeGreaterThan(0)
        if (ruleDeciders.length > 0 && effective?.approvers) for (const id of effective.approvers) expect(ruleDeciders).toContain(id)
        if (operator.answerers.length > 0) expect(effective?.answerers).toEqual(operator.answerers)
        if (operator.remindAfterMs !== undefined) expect(effective?.remindAfterMs).toBeLessThanOrEqual(operator.remindAfterMs)
        if (operator.escalateTo !== undefined) {
          expect(effective?.escalateTo).toBe(operator.escalateTo)
          expect(effective?.escalateAfterMs).toBeLessThanOrEqual(operator.escalateAfterMs!)
        }
        const named = namedIds(operator)
        for (const id of effective?.notify ?? []) expect(named.has(id)).toBe(true)
        if (effective?.escalateTo !== undefined) expect(named.has(effective.escalateTo)).toBe(true)
      }),
      { runs: 2000, timeLimitMs: 5000 },
    )
  })

  it('accepts the operator\'s own policy for any rule: a request without a policy is never refused', () => {
    checkProperty(
      fc.property(operatorRule, style, (operator, askStyle) => {
        expect(() => tightenPolicy(operator, undefined, askStyle)).not.toThrow()
      }),
      { runs: 500, timeLimitMs: 2000 },
    )
  })

  it('refuses fewer approvals than the rule needs, naming the rule and the field', () => {
    expect(() => tightenPolicy(rule({ name: 'payments', approvals: 2 }), { approvals: 1 }, 'approval')).toThrow(expect.objectContaining({ code: 'POLICY_FORBIDDEN', message: expect.stringMatching(/^policy\.approvals .*rule "payments"/) }))
  })

  it('takes more approvals and a subset of the approvers', () => {
    expect(tightenPolicy(rule({ approvals: 2, approvers: ['U0A1', 'U0B2', 'U0C3'], answerers: [] }), { approvals: 3, approvers: ['U0A1', 'U0B2'] }, 'approval')).toEqual({
      approvals: 3,
      approvers: ['U0A1', 'U0B2'],
      notify: ['U0A1', 'U0B2'],
    })
  })

  it('lets a request narrow who decides when the operator lets anyone answer, but never pings the people it picked', () => {
    expect(tightenPolicy(rule(), { approvers: ['U0B2'] }, 'question')).toEqual({ approvals: 1, approvers: ['U0B2'], notify: [] })
  })

  it('refuses a later reminder and a later escalation than the rule\'s', () => {
    const strict = rule({ remindAfterMs: 60_000, escalateTo: 'S0LEADS', escalateAfterMs: 3_600_000 })

    expect(() => tightenPolicy(strict, { remindAfter: '2m' }, 'question')).toThrow(expect.objectContaining({ code: 'POLICY_FORBIDDEN', message: expect.stringContaining('policy.remindAfter') }))
    expect(() => tightenPolicy(strict, { escalateAfter: '2h' }, 'question')).toThrow(expect.objectContaining({ code: 'POLICY_FORBIDDEN', message: expect.stringContaining('policy.escalateAfter') }))
    expect(() => tightenPolicy(strict, { escalateTo: 'U0A1', escalateAfter: '30m' }, 'question')).toThrow(expect.objectContaining({ code: 'POLICY_FORBIDDEN', message: expect.stringContaining('policy.escalateTo') }))
    expect(tightenPolicy(strict, { remindAfter: '30s', escalateAfter: '30m' }, 'question')).toMatchObject({ remindAfterMs: 30_000, escalateTo: 'S0LEADS', escalateAfterMs: 1_800_000 })
  })
})

describe('checkChannel', () => {
  it('allows the rule\'s channel and the channels it lists, and refuses others naming the field', () => {
    const payments = rule({ name: 'payments', channel: 'C0PAY', channels: ['C0PAYOPS'] })

    expect(() => checkChannel(payments, 'C0PAY', undefined)).not.toThrow()
    expect(() => checkChannel(payments, 'C0PAYOPS', undefined)).not.toThrow()
    expect(() => checkChannel(payments, 'C0RANDOM', undefined)).toThrow(expect.objectContaining({ code: 'POLICY_FORBIDDEN', message: expect.stringMatching(/^channel .*rule "payments"/) }))
  })

  it('keeps a key to its own channels even under a rule that allows any', () => {
    const open = rule({ channel: 'C0AGENTS', channels: '*' })

    expect(() => checkChannel(open, 'C0CI', 'C0AGENTS', ['C0CI'], 'ci')).not.toThrow()
    expect(() => checkChannel(open, 'C0OTHER', 'C0AGENTS', ['C0CI'], 'ci')).toThrow(expect.objectContaining({ code: 'POLICY_FORBIDDEN', message: expect.stringContaining('API key ci') }))
  })
})
