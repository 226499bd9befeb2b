import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { connectToService } from '../../src/client/connect-to-service.js'
import { ConfigError } from '../../src/config/config-error.js'
import { configFromEnv } from '../../src/config/config.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { recordingLogger } from '../support/e2e.js'
import { sandboxEnv } from '../support/sandbox-env.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const CAROL = 'U0SANDBOX03'
const AGENTS = 'C0SANDBOX01'
const GENERAL = 'C0SANDBOX02'
const SECRETS = { laptop: 'laptop-secret-0123456789', ciOld: 'ci-secret-old-0123456789', ciNew: 'ci-secret-new-0123456789' }
const HASHES = {
  laptop: '29ff74a2ffabe803152fe217d2848a185915adbb9d8ada8aea88815bc8b60983',
  ciOld: '11783360766b07fd6bde6bda5c921ffb0522eb807fb16296d40260926a7017a5',
  ciNew: '8b10271cfa8a4cd5252eacd4bfd5be54d0ea1bb20dd1a2d298b139c3acbda7c9',
}
const plan = () => planReviewQuestion('# Plan\n\nDrop the legacy table.')
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** A team on the stand-in: alice and bob answer in #agents; the payments agent's plans need both of them; the laptop key may also ask in #general. */
const TEAM = `defaults:
  channel: ${AGENTS}
  answerers: [${ALICE}, ${BOB}]
rules:
  - name: payments-plans
    match: { kind: plan-review, title: "Payments*" }
    approvers: [${ALICE}, ${BOB}]
    approvals: 2
keys:
  - name: laptop
    sha256: ${HASHES.laptop}
    channels: [${GENERAL}]
  - name: ci
    sha256: [${HASHES.ciOld}, ${HASHES.ciNew}]
limits:
  pending: 5
  pendingPerKey: 2
`

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-policy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

let files = 0
function policyFile(text: string): string {
  const path = join(dir, `policy-${++files}.yml`)
  writeFileSync(path, text)
  return path
}

async function serve(env: Record<string, string>): Promise<{ slack: Sandbox; service: RunningService; logger: ReturnType<typeof recordingLogger> }> {
  const slack = await startSandbox()
  cleanups.push(() => slack.close())
  const logger = recordingLogger()
  const service = await startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', PORT: '0', ...env }), await serviceDeps(), logger)
  cleanups.push(() => service.stop())
  return { slack, service, logger }
}

async function api(service: RunningService, method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers }
  const response = await fetch(service.url + path, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) })
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> }
}

describe('the service holds requests to the operator\'s policy', () => {
  it('answers 403 POLICY_FORBIDDEN naming the rule and field when a plan review lowers the two-person rule', async () => {
    const { slack, service } = await serve({ SLACK_ALLOWED_USERS: `${ALICE},${CAROL}`, DSH_SLACK_APPROVALS: '2', DSH_SLACK_APPROVERS: `${ALICE},${CAROL}` })

    const refused = await api(service, 'POST', '/v1/asks', { body: { questions: [plan()], policy: { approvals: 1, approvers: [BOB] } } })

    expect(refused.status).toBe(403)
    expect(refused.body.error).toEqual({ code: 'POLICY_FORBIDDEN', message: expect.stringMatching(/^policy\.approvals .*rule "environment"/) })
    expect(slack.messages(slack.defaultChannel)).toEqual([])
  })

  it('rejects with UserInteractionError POLICY_FORBIDDEN through connectToService, the library\'s client', async () => {
    const { service } = await serve({ SLACK_ALLOWED_USERS: `${ALICE},${CAROL}` })
    const connection = connectToService({ url: service.url })
    cleanups.push(() => connection.stop())

    const refused = connection.provider.ask({ questions: [pm] }, { policy: { approvers: [BOB] } })

    await expect(refused).rejects.toMatchObject({ name: 'UserInteractionError', code: 'POLICY_FORBIDDEN', message: expect.stringContaining('policy.approvers') })
  })
})

describe('the policy file and named keys in the service', () => {
  it('refuses to start on a mistake, naming the file, line and field in one line', async () => {
    const path = policyFile(TEAM.replace('approvals: 2', 'approvals: two'))

    await expect(serve({ DSH_SLACK_POLICY: path })).rejects.toSatisfy((error: unknown) => error instanceof ConfigError && error.variable === 'DSH_SLACK_POLICY' && error.message.includes(`${path}:8: rules[0].approvals`))
  })

  it('says the policy file wins when short-form variables are set too', async () => {
    const { logger } = await serve({ DSH_SLACK_POLICY: policyFile(TEAM), DSH_SLACK_APPROVALS: '3', SLACK_ALLOWED_USERS: CAROL })

    expect(logger.lines).toContainEqual(expect.stringMatching(/^warn DSH_SLACK_POLICY .* wins over SLACK_ALLOWED_USERS, DSH_SLACK_APPROVALS/))
  })

  it('takes both secrets of a key being rotated, refuses others, and records the key and rule on the ask and its events', async () => {
    const { service } = await serve({ DSH_SLACK_POLICY: policyFile(TEAM) })

    const old = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciOld, body: { questions: [pm] } })
    const fresh = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [plan()], agent: { id: 's1' } } })
    const wrong = await api(service, 'POST', '/v1/asks', { key: 'not-a-key-0123456789', body: { questions: [pm] } })
    const events = await api(service, 'GET', `/v1/asks/${old.body.id}/events`, { key: SECRETS.ciNew })

    expect([old.status, fresh.status, wrong.status]).toEqual([201, 201, 401])
    expect(events.body.events[0]).toMatchObject({ type: 'posted', key: 'ci', rule: 'defaults' })
    const listed = await api(service, 'GET', '/v1/asks?key=ci', { key: SECRETS.ciOld })
    expect(listed.body.asks.map((ask: { id: string }) => ask.id).sort()).toEqual([old.body.id, fresh.body.id].sort())
    expect(listed.body.asks[0]).toMatchObject({ key: 'ci', rule: 'defaults' })
    expect((await api(service, 'GET', '/v1/asks?key=laptop', { key: SECRETS.laptop })).body.asks).toEqual([])
  })

  it('routes an ask by its rule: a payments plan needs both approvers, and a request cannot lower that', async () => {
    const { service } = await serve({ DSH_SLACK_POLICY: policyFile(TEAM) })

    const payments = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [plan()], agent: { id: 's1', title: 'Payments: refunds' } } })
    const elsewhere = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [plan()], agent: { id: 's2', title: 'Search' }, policy: { approvals: 1 } } })
    const listed = await api(service, 'GET', '/v1/asks?rule=payments-plans', { key: SECRETS.ciNew })
    const looser = await api(service, 'POST', '/v1/asks', { key: SECRETS.laptop, body: { questions: [plan()], agent: { id: 's1', title: 'Payments' }, policy: { approvals: 1 } } })

    expect(payments.status).toBe(201)
    expect(elsewhere.status).toBe(201)
    expect(listed.body.asks.map((ask: { id: string }) => ask.id)).toEqual([payments.body.id])
    expect(listed.body.asks[0].policy).toMatchObject({ approvals: 2, approvers: [ALICE, BOB] })
    expect(looser.status).toBe(403)
    expect(looser.body.error.message).toMatch(/^policy\.approvals .*rule "payments-plans"/)
  })

  it('keeps a key to its channels: the laptop key may ask in #general, the rule\'s #agents, and nowhere else', async () => {
    const { service } = await serve({ DSH_SLACK_POLICY: policyFile(TEAM) })

    const own = await api(service, 'POST', '/v1/asks', { key: SECRETS.laptop, body: { questions: [pm], channel: AGENTS } })
    const elsewhere = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [pm], channel: GENERAL } })

    expect(own.status).toBe(201)
    expect(elsewhere.status).toBe(403)
    expect(elsewhere.body.error).toEqual({ code: 'POLICY_FORBIDDEN', message: expect.stringMatching(/^channel .*rule "defaults"/) })
  })

  it('caps pending asks per key and in total with 429 and a body that says what to do', async () => {
    const { service } = await serve({ DSH_SLACK_POLICY: policyFile(TEAM) })

    for (let n = 0; n < 2; n++) expect((await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [pm] } })).status).toBe(201)
    const third = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciOld, body: { questions: [pm] } })
    for (let n = 0; n < 2; n++) expect((await api(service, 'POST', '/v1/asks', { key: SECRETS.laptop, body: { questions: [pm] } })).status).toBe(201)
    const first = (await api(service, 'GET', '/v1/asks', { key: SECRETS.ciOld })).body.asks.at(-1)
    await api(service, 'DELETE', `/v1/asks/${first.id}`, { key: SECRETS.ciNew })
    const afterWithdrawal = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [pm] } })

    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('30')
    expect(third.body.error).toEqual({ code: 'TOO_MANY_PENDING', message: expect.stringContaining('API key ci has 2 asks still pending') })
    expect(afterWithdrawal.status).toBe(201)
  })

  it('answers a retried POST at its key\'s cap with the ask it already made, not a 429', async () => {
    const { slack, service } = await serve({ DSH_SLACK_POLICY: policyFile(TEAM) })
    const deploy = { key: SECRETS.ciNew, body: { questions: [pm] }, headers: { 'idempotency-key': 'deploy-42' } }

    const first = await api(service, 'POST', '/v1/asks', deploy)
    expect((await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [pm] } })).status).toBe(201)
    const retried = await api(service, 'POST', '/v1/asks', deploy)
    const another = await api(service, 'POST', '/v1/asks', { ...deploy, headers: { 'idempotency-key': 'deploy-43' } })

    expect(retried.status).toBe(201)
    expect(retried.body.id).toBe(first.body.id)
    expect(another.status).toBe(429)
    expect(another.body.error.code).toBe('TOO_MANY_PENDING')
    expect(slack.messages(AGENTS)).toHaveLength(2)
  })

  it('reports the policy version in /healthz and reloads a changed file, keeping open asks on their rules', async () => {
    const path = policyFile(TEAM)
    const { service, logger } = await serve({ DSH_SLACK_POLICY: path })
    const before = (await api(service, 'GET', '/healthz')).body.policy
    const open = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [plan()] } })

    writeFileSync(path, TEAM.replace(/defaults:\n/, `defaults:\n  approvals: 2\n  approvers: [${ALICE}, ${BOB}]\n`))
    const after = await vi.waitFor(async () => {
      const version = (await api(service, 'GET', '/healthz')).body.policy
      if (version === before) throw new Error('not reloaded yet')
      return version
    }, { timeout: 10_000, interval: 50 })
    const looser = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [plan()], policy: { approvals: 1 } } })

    expect(after).toMatch(/^[0-9a-f]{12}$/)
    expect(looser.status).toBe(403)
    expect((await service.bridge.get(open.body.id))?.policy).toEqual({ approvals: 1, answerers: [ALICE, BOB] })
    expect(logger.lines).toContainEqual(expect.stringMatching(new RegExp(`^info policy reloaded \\(the file changed\\): version ${before} → ${after}`)))
  })

  it('keeps the policy in force and logs why when a reload finds a broken file', async () => {
    const path = policyFile(TEAM)
    const { service, logger } = await serve({ DSH_SLACK_POLICY: path })
    const before = (await api(service, 'GET', '/healthz')).body.policy

    writeFileSync(path, TEAM.replace('approvals: 2', 'approvals: 99'))
    await vi.waitFor(() => expect(logger.lines).toContainEqual(expect.stringMatching(/^error policy not reloaded \(the file changed\); version \w+ stays in force: .*:8: rules\[0\]\.approvals must be at most 10/)), { timeout: 10_000, interval: 50 })

    expect((await api(service, 'GET', '/healthz')).body.policy).toBe(before)
    expect((await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [pm] } })).status).toBe(201)
  })

  it('reloads on SIGHUP', async () => {
    const path = policyFile(TEAM)
    const { service, logger } = await serve({ DSH_SLACK_POLICY: path })
    const before = (await api(service, 'GET', '/healthz')).body.policy

    // Written while the watcher may miss it (same second, same size): the signal is what an operator sends to be sure.
    writeFileSync(path, TEAM.replace('pendingPerKey: 2', 'pendingPerKey: 3'))
    process.emit('SIGHUP', 'SIGHUP')

    await vi.waitFor(async () => expect((await api(service, 'GET', '/healthz')).body.policy).not.toBe(before), { timeout: 10_000, interval: 50 })
    expect(logger.lines.some((line) => /^info policy reloaded \((SIGHUP|the file changed)\)/.test(line))).toBe(true)
  })

  it('notifies the rule\'s own mention on its cards, and the defaults\' on the rest', async () => {
    const path = policyFile(TEAM.replace(`  answerers: [${ALICE}, ${BOB}]\n`, `  answerers: [${ALICE}, ${BOB}]\n  mention: [S0ENGINEERS]\n`).replace('    approvals: 2\n', '    approvals: 2\n    mention: [S0PAYLEADS]\n'))
    const { slack, service } = await serve({ DSH_SLACK_POLICY: path, DSH_SLACK_MENTION: 'S0IGNORED' })

    const payments = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [plan()], agent: { id: 's1', title: 'Payments' } } })
    const plain = await api(service, 'POST', '/v1/asks', { key: SECRETS.ciNew, body: { questions: [pm] } })
    const card = (ts: string) => JSON.stringify(slack.messages(AGENTS).find((message) => message.ts === ts))

    expect(card(payments.body.ts)).toContain('<!subteam^S0PAYLEADS>')
    expect(card(plain.body.ts)).toContain('<!subteam^S0ENGINEERS>')
    expect(card(plain.body.ts) + card(payments.body.ts)).not.toContain('S0IGNORED')
  })
})
