import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { openStore } from '../../src/store/open-store.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { FakeBridge } from './fake-bridge.js'

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-validation-'))
let database: FreshDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database?.drop()
  rmSync(dir, { recursive: true, force: true })
})

const open: { server?: ApiServer; store?: AskStore }[] = []
afterEach(async () => {
  for (const { server, store } of open.splice(0)) {
    await server?.close()
    await store?.close()
  }
})

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

const STORES = [
  ['SQLite', () => join(dir, `state-${Math.random().toString(36).slice(2)}.sqlite`)],
  ['PostgreSQL', () => database.url],
] as const

describe.each(STORES)('bad input answers the same on %s: checked before any query', (_name, state) => {
  async function serve(): Promise<string> {
    const store = await openStore(state(), { logger: silentLogger })
    const server = createApiServer({ bridge: new FakeBridge(store), logger: silentLogger })
    open.push({ server, store })
    return (await server.listen('127.0.0.1', 0)).url
  }

  it.each([
    ['a 40-digit since', '/v1/asks?since=' + '9'.repeat(40), 400],
    ['a cursor with a fractional time', `/v1/asks?cursor=${cursorOf([1.5, 'x'])}`, 400],
    ['a cursor with a time beyond any date', `/v1/asks?cursor=${cursorOf([1e20, 'x'])}`, 400],
    ['a cursor with a NUL in its id', `/v1/asks?cursor=${cursorOf([1, 'a\u0000b'])}`, 400],
    ['an id of %00', '/v1/asks/%00', 404],
    ['the events of an id of %00', '/v1/asks/%00/events', 404],
  ])('answers %s with the status a person can act on, never 500', async (_what, path, status) => {
    const base = await serve()

    const response = await fetch(base + path)

    expect(response.status).toBe(status)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(status === 400 ? 'BAD_REQUEST' : 'NOT_FOUND')
  })

  it('answers DELETE of an id of %00 with 404', async () => {
    const base = await serve()

    expect((await fetch(`${base}/v1/asks/%00`, { method: 'DELETE' })).status).toBe(404)
  })

  it('refuses a NUL character in the question text with 400 BAD_REQUEST', async () => {
    const base = await serve()

    const response = await fetch(`${base}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ questions: [{ id: 'q', question: 'Ship\u0000it?' }] }) })

    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: { code: 'BAD_REQUEST', message: expect.stringContaining('questions[0].question') } })
  })
  it.each([
    ['the question text', { questions: [{ id: 'q', question: 'Ship\ud800 it?' }] }, 'questions[0].question'],
    ['the agent\'s title', { questions: [{ id: 'q', question: 'Ship it?' }], agent: { id: 's1', title: 'Pay\udc00ments' } }, 'agent.title'],
    ['a question id', { questions: [{ id: 'q\ud800', question: 'Ship it?' }] }, 'questions[0].id'],
    ['an option label', { questions: [{ id: 'q', question: 'Ship it?', options: [{ label: 'yes' }, { label: '\ud800' }] }] }, 'questions[0].options[1].label'],
  ])('refuses a lone surrogate in %s with 400 BAD_REQUEST naming the field, never 500', async (_what, body, field) => {
    const base = await serve()

    const response = await fetch(`${base}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: { code: 'BAD_REQUEST', message: expect.stringContaining(`${field} holds a lone surrogate`) } })
  })
})
