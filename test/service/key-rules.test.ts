import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { sha256 } from '../../src/policy/policy-file.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { startService } from '../../src/service/start-service.js'
import { silentLogger } from '../../src/log/logger.js'
import { sandboxEnv } from '../support/sandbox-env.js'

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

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-key-rules-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

describe('a key\'s rules: list on a running service', () => {
  it('refuses teamA\'s plan (403 naming strict-plans) instead of routing it past strict-plans to its one-approval rule, and posts nothing', async () => {
    const path = join(dir, 'policy.yml')
    writeFileSync(path, POLICY)
    const slack = await startSandbox()
    cleanups.push(() => slack.close())
    const service = await startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', DSH_SLACK_POLICY: path, PORT: '0' }), await serviceDeps(), silentLogger)
    cleanups.push(() => service.stop())
    const post = (body: unknown) => fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

    const plan = await post({ questions: [planReviewQuestion('# Plan\n\nDrop the table.')] })
    const question = await post({ questions: [{ id: 'q', question: 'Ship it?' }] })

    expect(plan.status).toBe(403)
    expect(((await plan.json()) as { error: unknown }).error).toEqual({ code: 'POLICY_FORBIDDEN', message: expect.stringContaining('the ask falls under rule "strict-plans", which API key teamA may not use') })
    expect(question.status).toBe(201)
    expect(slack.messages(slack.defaultChannel)).toHaveLength(1)
  })
})
