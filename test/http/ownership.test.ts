import { describe, expect, it } from 'vitest'
import { sha256 } from '../../src/policy/policy-file.js'
import type { RunningService } from '../../src/service/start-service.js'
import { policyServices } from '../support/policy-services.js'

const TEAM_A_CHANNEL = 'C0SANDBOX01'
const TEAM_B_CHANNEL = 'C0SANDBOX02'
const SECRETS = { teamA: 'team-a-secret-0123456789', teamB: 'team-b-secret-0123456789', audit: 'audit-secret-0123456789', admin: 'admin-secret-0123456789' }

/** Issue 40's two teams on one service, with an audit job that reads everything and an admin key that may also withdraw. */
const POLICY = `defaults:
  channel: ${TEAM_A_CHANNEL}
rules:
  - name: team-a
    match: { key: teamA }
    channel: ${TEAM_A_CHANNEL}
keys:
  - name: teamA
    sha256: ${sha256(SECRETS.teamA)}
  - name: teamB
    sha256: ${sha256(SECRETS.teamB)}
    channels: [${TEAM_B_CHANNEL}]
  - name: audit
    sha256: ${sha256(SECRETS.audit)}
    read: all
  - name: admin
    sha256: ${sha256(SECRETS.admin)}
    read: all
    withdraw: all
`
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

const services = policyServices('ownership')
const serve = async (store: 'sqlite' | 'postgres') => (await services.serve(POLICY, { store })).service

async function api(service: RunningService, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(service.url + path, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

const ids = (page: { asks: { id: string }[] }) => page.asks.map((ask) => ask.id)

describe.each(['sqlite', 'postgres'] as const)('on %s, an ask belongs to the key that created it', (store) => {
  it('hides teamA\'s ask from teamB on every route: list (also ?key=teamA), get, wait, events and delete are as if it did not exist', async () => {
    const service = await serve(store)
    const mine = await api(service, 'POST', '/v1/asks', SECRETS.teamA, { questions: [pm] })
    const theirs = await api(service, 'POST', '/v1/asks', SECRETS.teamB, { questions: [pm], channel: TEAM_B_CHANNEL })
    const id = mine.body.id as string

    const listed = await api(service, 'GET', '/v1/asks', SECRETS.teamB)
    const listedByName = await api(service, 'GET', '/v1/asks?key=teamA', SECRETS.teamB)
    const got = await api(service, 'GET', `/v1/asks/${id}`, SECRETS.teamB)
    const started = Date.now()
    const waited = await api(service, 'GET', `/v1/asks/${id}?wait=5`, SECRETS.teamB)
    const waitedMs = Date.now() - started
    const events = await api(service, 'GET', `/v1/asks/${id}/events`, SECRETS.teamB)
    const withdrawn = await api(service, 'DELETE', `/v1/asks/${id}`, SECRETS.teamB)
    const absent = await api(service, 'GET', '/v1/asks/no-such-ask', SECRETS.teamB)

    expect([mine.status, theirs.status]).toEqual([201, 201])
    expect(ids(listed.body as never)).toEqual([theirs.body.id])
    expect(listedByName).toEqual({ status: 200, body: { asks: [] } })
    for (const refused of [got, waited, events, withdrawn]) expect(refused).toEqual({ status: 404, body: { error: { code: 'NOT_FOUND', message: `no ask ${JSON.stringify(id)}` } } })
    expect(absent.body.error.message).toBe('no ask "no-such-ask"')
    expect(waitedMs).toBeLessThan(2000)
    expect((await api(service, 'GET', `/v1/asks/${id}`, SECRETS.teamA)).body).toMatchObject({ id, status: 'pending' })
  })

  it('lets teamA list, read, read the events of and withdraw its own ask, and the withdrawal\'s event names teamA', async () => {
    const service = await serve(store)
    const mine = await api(service, 'POST', '/v1/asks', SECRETS.teamA, { questions: [pm] })
    const id = mine.body.id as string

    const listed = await api(service, 'GET', '/v1/asks', SECRETS.teamA)
    const withdrawn = await api(service, 'DELETE', `/v1/asks/${id}`, SECRETS.teamA)
    const waited = await api(service, 'GET', `/v1/asks/${id}?wait=5`, SECRETS.teamA)
    const events = await api(service, 'GET', `/v1/asks/${id}/events`, SECRETS.teamA)

    expect(ids(listed.body as never)).toEqual([id])
    expect(withdrawn.body).toEqual({ id, status: 'aborted' })
    expect(waited.body).toMatchObject({ id, status: 'aborted' })
    expect(events.body.events.map((event: { type: string }) => event.type)).toEqual(['posted', 'aborted'])
    expect(events.body.events[1]).toMatchObject({ key: 'teamA', detail: { byKey: 'teamA' } })
  })

  it('gives a read: all key every ask but no withdrawal (403, nothing changes), and a withdraw: all key both, its withdrawal named in the audit', async () => {
    const service = await serve(store)
    const a = await api(service, 'POST', '/v1/asks', SECRETS.teamA, { questions: [pm] })
    const b = await api(service, 'POST', '/v1/asks', SECRETS.teamB, { questions: [pm], channel: TEAM_B_CHANNEL })

    const audited = await api(service, 'GET', '/v1/asks', SECRETS.audit)
    const auditedB = await api(service, 'GET', '/v1/asks?key=teamB', SECRETS.audit)
    const read = await api(service, 'GET', `/v1/asks/${a.body.id}/events`, SECRETS.audit)
    const refused = await api(service, 'DELETE', `/v1/asks/${a.body.id}`, SECRETS.audit)
    const stillPending = await api(service, 'GET', `/v1/asks/${a.body.id}`, SECRETS.teamA)
    const withdrawn = await api(service, 'DELETE', `/v1/asks/${a.body.id}`, SECRETS.admin)
    const events = await api(service, 'GET', `/v1/asks/${a.body.id}/events`, SECRETS.teamA)

    expect(ids(audited.body as never).sort()).toEqual([a.body.id, b.body.id].sort())
    expect(ids(auditedB.body as never)).toEqual([b.body.id])
    expect(read.status).toBe(200)
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('POLICY_FORBIDDEN')
    expect(stillPending.body.status).toBe('pending')
    expect(withdrawn.body).toEqual({ id: a.body.id, status: 'aborted' })
    expect(events.body.events.at(-1)).toMatchObject({ type: 'aborted', key: 'teamA', detail: { byKey: 'admin' } })
  })
})

describe('an Idempotency-Key', () => {
  it('belongs to the API key that sent it: another key reusing it makes its own ask and learns nothing of the first', async () => {
    const service = await serve('sqlite')
    const post = (key: string) => fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'deploy-42' }, body: JSON.stringify({ questions: [pm], ...(key === SECRETS.teamB ? { channel: TEAM_B_CHANNEL } : {}) }) }).then(async (response) => (await response.json()) as { id: string; channel: string })

    const first = await post(SECRETS.teamA)
    const other = await post(SECRETS.teamB)
    const repeat = await post(SECRETS.teamA)

    expect(other.id).not.toBe(first.id)
    expect(other.channel).toBe(TEAM_B_CHANNEL)
    expect(repeat.id).toBe(first.id)
  })
})

describe('an Idempotency-Key and the API key it belongs to', () => {
  const keys = { a: 'key-a-secret-0123456789', ab: 'key-ab-secret-0123456789' }
  const policy = `defaults:\n  channel: ${TEAM_A_CHANNEL}\nkeys:\n  - name: a\n    sha256: ${sha256(keys.a)}\n  - name: ab\n    sha256: ${sha256(keys.ab)}\n`

  it.each(['sqlite', 'postgres'] as const)('on %s, never run together: key a with bc and key ab with c are two asks, and each repeat finds its own', async (store) => {
    const { service } = await services.serve(policy, { store })
    const post = (secret: string, idempotencyKey: string) =>
      fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey }, body: JSON.stringify({ questions: [pm] }) }).then(async (response) => ((await response.json()) as { id: string }).id)

    const aBc = await post(keys.a, 'bc')
    const abC = await post(keys.ab, 'c')

    expect(abC).not.toBe(aBc)
    expect(await post(keys.a, 'bc')).toBe(aBc)
    expect(await post(keys.ab, 'c')).toBe(abC)
  })
})

describe('the one-key form', () => {
  it('keeps DSH_SLACK_API_KEY\'s access to every ask, named keys\' asks included', async () => {
    const { service } = await services.serve(POLICY, { env: { DSH_SLACK_API_KEY: 'the-one-key-0123456789' } })
    const a = await api(service, 'POST', '/v1/asks', SECRETS.teamA, { questions: [pm] })

    const listed = await api(service, 'GET', '/v1/asks', 'the-one-key-0123456789')
    const withdrawn = await api(service, 'DELETE', `/v1/asks/${a.body.id}`, 'the-one-key-0123456789')

    expect(ids(listed.body as never)).toEqual([a.body.id])
    expect(withdrawn.body).toEqual({ id: a.body.id, status: 'aborted' })
  })
})
