import { describe, expect, it, vi } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { refusalLog } from '../../src/log/refusal-log.js'
import { sha256 } from '../../src/policy/policy-file.js'
import type { RunningService } from '../../src/service/start-service.js'
import { recordingLogger } from '../support/e2e.js'
import { postedMessage } from '../support/messages.js'
import { policyServices } from '../support/policy-services.js'

const ALICE = 'U0SANDBOX01'
const CAROL = 'U0SANDBOX03'
const SECRET = 'team-a-secret-0123456789'
const POLICY = `defaults:
  answerers: [${ALICE}]
  approvers: [${ALICE}]
keys:
  - name: teamA
    sha256: ${sha256(SECRET)}
limits:
  pendingPerKey: 1
`

const services = policyServices('refusals')
const serve = () => services.serve(POLICY)

const post = (service: RunningService, key: string, body: unknown) => fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
const refusedCount = async (service: RunningService, reason: string) => {
  const text = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${SECRET}` } })).text()
  return Number(new RegExp(`^dsh_slack_refused_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
}

describe('refusals leave a trace', () => {
  it('counts 401, 403 POLICY_FORBIDDEN and 429 TOO_MANY_PENDING by reason, and logs each kind once per interval without the key', async () => {
    const { service, logger } = await serve()

    for (let n = 0; n < 5; n++) expect((await post(service, `wrong-key-${n}-0123456789`, {})).status).toBe(401)
    expect((await post(service, SECRET, { questions: [planReviewQuestion('# Plan')], policy: { approvers: [CAROL] } })).status).toBe(403)
    expect((await post(service, SECRET, { questions: [planReviewQuestion('# Plan')] })).status).toBe(201)
    expect((await post(service, SECRET, { questions: [planReviewQuestion('# Plan')] })).status).toBe(429)

    expect([await refusedCount(service, 'unauthorized'), await refusedCount(service, 'policy-forbidden'), await refusedCount(service, 'too-many-pending')]).toEqual([5, 1, 1])
    const lines = logger.lines.filter((line) => line.startsWith('warn refused:'))
    expect(lines).toEqual([expect.stringMatching(/^warn refused: POST \/v1\/asks from .*: 401 UNAUTHORIZED/), expect.stringMatching(/403 POLICY_FORBIDDEN/), expect.stringMatching(/429 TOO_MANY_PENDING/)])
    expect(lines.join('\n')).not.toContain('wrong-key')
  })

  it('records a refused click in the ask\'s audit trail, names who clicked, and counts it', async () => {
    const { slack, service } = await serve()
    const created = (await (await post(service, SECRET, { questions: [planReviewQuestion('# Plan')] })).json()) as { id: string }
    const card = await postedMessage(slack, slack.defaultChannel)

    await slack.user(CAROL).click(card, 'Approve')

    const events = await vi.waitFor(async () => {
      const body = (await (await fetch(`${service.url}/v1/asks/${created.id}/events`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as { events: { type: string }[] }
      if (!body.events.some((event) => event.type === 'refused')) throw new Error('not yet')
      return body.events
    }, { timeout: 5000, interval: 50 })
    expect(events.at(-1)).toMatchObject({ type: 'refused', by: { id: CAROL }, key: 'teamA', detail: { reason: 'not-allowed' } })
    expect(await refusedCount(service, 'click')).toBe(1)
    expect((await service.bridge.get(created.id))?.status).toBe('pending')
  })
})

describe('refusalLog', () => {
  it('writes one line per kind per interval and tells how many it left out', () => {
    const logger = recordingLogger()
    let now = 0
    const log = refusalLog(logger, () => now, 1000)

    log('a', 'one')
    log('a', 'two')
    log('b', 'other kind')
    log('a', 'three')
    now = 1000
    log('a', 'four')

    expect(logger.lines).toEqual(['warn refused: one', 'warn refused: other kind', 'warn refused: four (and 2 more refusal(s) of this kind not logged since the last line)'])
  })
})
