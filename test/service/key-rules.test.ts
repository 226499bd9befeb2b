import { describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { sha256 } from '../../src/policy/policy-file.js'
import { policyServices } from '../support/policy-services.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const SECRET = 'team-a-secret-0123456789'
/** Issue 40, item 7: plans need alice and bob; teamA's key lists only its own looser rule. */
const POLICY = `defaults:
  answerers: [${ALICE}, ${BOB}]
rules:
  - name: strict-plans
    match: { kind: plan-review }
    approvers: [${ALICE}, ${BOB}]
    approvals: 2
  - name: team-a
    match: { key: teamA }
    approvals: 1
keys:
  - name: teamA
    sha256: ${sha256(SECRET)}
    rules: [team-a]
`

const services = policyServices('key-rules')

describe('a key\'s rules: list on a running service', () => {
  it('refuses teamA\'s plan (403 naming strict-plans) instead of routing it past strict-plans to its one-approval rule, and posts nothing', async () => {
    const { slack, service } = await services.serve(POLICY)
    const post = (body: unknown) => fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

    const plan = await post({ questions: [planReviewQuestion('# Plan\n\nDrop the table.')] })
    const question = await post({ questions: [{ id: 'q', question: 'Ship it?' }] })

    expect(plan.status).toBe(403)
    expect(((await plan.json()) as { error: unknown }).error).toEqual({ code: 'POLICY_FORBIDDEN', message: expect.stringContaining('the ask falls under rule "strict-plans", which API key teamA may not use') })
    expect(question.status).toBe(201)
    expect(slack.messages(slack.defaultChannel)).toHaveLength(1)
  })
})
