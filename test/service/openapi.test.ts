import { Validator } from '@seriousme/openapi-schema-validator'
import { afterEach, describe, expect, it } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { openApiDocument } from '../../src/http/openapi.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { openApiClient } from '../support/openapi-client.js'
import { sandboxEnv } from '../support/sandbox-env.js'

const ALICE = 'U0SANDBOX01'
const API_KEY = 'k'.repeat(32)
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

type Document = Parameters<typeof openApiClient>[0] & { paths: Record<string, any> }

/** The real service (real bridge, real Bolt) on the stand-in, and a client that checks every exchange against the document it serves. */
async function serviceOnSandbox(): Promise<{ slack: Sandbox; service: RunningService; api: ReturnType<typeof openApiClient>; doc: Document }> {
  const slack = await startSandbox()
  cleanups.push(() => slack.close())
  const config = configFromEnv({
    ...sandboxEnv(slack),
    DSH_SLACK_STATE: ':memory:',
    DSH_SLACK_API_KEY: API_KEY,
    PORT: '0',
  })
  const service = await startService(config, await serviceDeps(), silentLogger)
  cleanups.push(() => service.stop())
  const doc = (await (await fetch(`${service.url}/v1/openapi.json`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as Document
  return { slack, service, doc, api: openApiClient(doc, service.url, { authorization: `Bearer ${API_KEY}` }) }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator()

    const result = await validator.validate(openApiDocument() as Parameters<Validator["validate"]>[0])

    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('describes every route of the fixed HTTP API', () => {
    const doc = openApiDocument() as Document
    const routes = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))

    expect(routes.sort()).toEqual(['DELETE /v1/asks/{id}', 'GET /healthz', 'GET /metrics', 'GET /v1/asks', 'GET /v1/asks/{id}', 'GET /v1/asks/{id}/events', 'GET /v1/openapi.json', 'POST /v1/asks'])
  })

  it('is served at GET /v1/openapi.json, behind the API key like the rest of /v1', async () => {
    const { api, service } = await serviceOnSandbox()

    const served = await api.call('GET', '/v1/openapi.json')
    const withoutKey = await api.call('GET', '/v1/openapi.json', { headers: { authorization: '' } })

    expect(served.body).toEqual(openApiDocument())
    expect(withoutKey.status).toBe(401)
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:/)
  })
})

describe('real requests and responses, checked against the document', () => {
  it('accepts each of its example requests and answers 201 as described', async () => {
    const { api, doc } = await serviceOnSandbox()
    const examples = doc.paths['/v1/asks'].post.requestBody.content['application/json'].examples as Record<string, { value: unknown }>

    const created = []
    for (const [name, example] of Object.entries(examples)) created.push({ name, ...(await api.call('POST', '/v1/asks', { body: example.value })) })

    expect(created.map(({ name, status }) => [name, status])).toEqual(Object.keys(examples).map((name) => [name, 201]))
  })

  it('describes a long-poll that returns the answer a person taps', async () => {
    const { api, slack } = await serviceOnSandbox()
    const created = await api.call('POST', '/v1/asks', { body: { questions: [pm], agent: { id: 'session-1', title: 'Refactor' } } })
    const polling = api.call('GET', '/v1/asks/{id}', { params: { id: created.body.id }, query: 'wait=30' })

    await slack.user(ALICE).click(await slack.waitFor(() => slack.latestMessage(slack.defaultChannel)), 'npm')

    expect((await polling).body).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'pm', selected: ['npm'] }] }, answeredBy: { id: ALICE } })
  })

  it('describes a dismissed ask, with its error', async () => {
    const { api, slack } = await serviceOnSandbox()
    const created = await api.call('POST', '/v1/asks', { body: { questions: [pm] } })

    await slack.user(ALICE).click(await slack.waitFor(() => slack.latestMessage(slack.defaultChannel)), 'Dismiss')
    const state = await api.call('GET', '/v1/asks/{id}', { params: { id: created.body.id }, query: 'wait=30' })

    expect(state.body).toMatchObject({ status: 'cancelled', error: { code: 'ASK_CANCELLED' } })
  })

  it('describes a pending ask, its withdrawal and an unknown id', async () => {
    const { api } = await serviceOnSandbox()
    const created = await api.call('POST', '/v1/asks', { body: { questions: [pm], timeoutMs: 600_000 } })

    const pending = await api.call('GET', '/v1/asks/{id}', { params: { id: created.body.id } })
    const withdrawn = await api.call('DELETE', '/v1/asks/{id}', { params: { id: created.body.id } })
    const unknown = await api.call('GET', '/v1/asks/{id}', { params: { id: 'no-such-ask' } })

    expect([pending.body.status, withdrawn.body.status, unknown.status]).toEqual(['pending', 'aborted', 404])
  })

  it('refuses a misspelt field in its schema as the service does', async () => {
    const { api } = await serviceOnSandbox()
    const body = { questions: [{ ...pm, multiselect: true }] }

    const refused = await api.call('POST', '/v1/asks', { rawBody: JSON.stringify(body) })

    expect(api.requestConforms('POST', '/v1/asks', body)).toBe(false)
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toBe('unknown field questions[0].multiselect — did you mean multiSelect?')
  })

  it('describes the refusals: an empty batch, a bad intent, a missing key, a body too large', async () => {
    const { api } = await serviceOnSandbox()
    const badIntent = { questions: [{ ...pm, detail: '# Plan', intent: { kind: 'plan-review', approve: 'Ship it' } }] }

    const empty = await api.call('POST', '/v1/asks', { rawBody: '{"questions": []}' })
    const intent = await api.call('POST', '/v1/asks', { body: badIntent })
    const unauthorized = await api.call('POST', '/v1/asks', { body: { questions: [pm] }, headers: { authorization: 'Bearer wrong-key-wrong-key' } })
    const tooLarge = await api.call('POST', '/v1/asks', { rawBody: JSON.stringify({ questions: [{ ...pm, detail: 'x'.repeat(1024 * 1024) }] }) })
    const notJson = await api.call('POST', '/v1/asks', { rawBody: JSON.stringify({ questions: [pm] }), headers: { 'content-type': 'text/plain' } })
    const fromAPage = await api.call('POST', '/v1/asks', { body: { questions: [pm] }, headers: { origin: 'https://evil.example' } })

    expect([empty.body.error.code, intent.body.error.code, unauthorized.status, tooLarge.status, notJson.status, fromAPage.status]).toEqual(['EMPTY_QUESTIONS', 'BAD_INTENT', 401, 413, 415, 403])
  })

  it('describes the ask list and an ask\'s events', async () => {
    const { api } = await serviceOnSandbox()
    const created = await api.call('POST', '/v1/asks', { body: { questions: [pm] } })

    const listed = await api.call('GET', '/v1/asks', { query: 'status=pending&limit=10' })
    const events = await api.call('GET', '/v1/asks/{id}/events', { params: { id: created.body.id } })

    expect(listed.body.asks.map((ask: { id: string }) => ask.id)).toContain(created.body.id)
    expect(events.body.events.map((event: { type: string }) => event.type)).toContain('posted')
  })

  it('lists each ask with its kind in the policy\'s words: a plan review is `plan-review`, as `policy explain` and the rules say', async () => {
    const { api } = await serviceOnSandbox()
    const question = await api.call('POST', '/v1/asks', { body: { questions: [pm] } })
    const plan = await api.call('POST', '/v1/asks', { body: { questions: [planReviewQuestion('# Plan\n\nDrop the table.')] } })

    const listed = await api.call('GET', '/v1/asks', { query: 'limit=10' })

    const kinds = Object.fromEntries(listed.body.asks.map((ask: { id: string; kind: string }) => [ask.id, ask.kind]))
    expect(kinds).toEqual({ [question.body.id]: 'question', [plan.body.id]: 'plan-review' })
  })

  it('describes /healthz', async () => {
    const { api } = await serviceOnSandbox()

    const health = await api.call('GET', '/healthz')

    expect(health.body).toMatchObject({ ok: true, slack: 'connected' })
  })
})
