import { request } from 'undici'
import WebSocket from 'ws'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeHost, type FakeHost, type FakeHostOptions } from '../support/fake-host.js'

// The fake host is only as good as its fidelity to DSH-HOST.md: these pin it.

const SECRET = 'correct-horse-battery-staple'
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function hostWith(options: FakeHostOptions = {}): Promise<FakeHost> {
  const host = await startFakeHost(options)
  cleanups.push(() => host.close())
  return host
}

async function call(host: FakeHost, path: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}) {
  const response = await request(`${host.url}${path}`, { method: init.method ?? 'GET', headers: { host: `127.0.0.1:${host.port}`, ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) })
  const text = await response.body.text()
  return { status: response.statusCode, headers: response.headers, json: text ? (JSON.parse(text) as unknown) : undefined }
}

const respond = (host: FakeHost, body: unknown, headers: Record<string, string> = {}) =>
  call(host, '/api/respond', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

const answer = (rpcId: string, items: unknown[]) => ({ type: 'client-response', rpcId, result: { ok: true, value: { sessionId: 's', answer: { answers: items } } } })

describe('fake host: trust', () => {
  it('answers a plain GET of the event stream with 426', async () => {
    const host = await hostWith()

    expect((await call(host, '/api/events.mux')).status).toBe(426)
  })

  it.each([
    ['a non-loopback Host', { host: 'evil.example:80' }],
    ['an Origin of another authority', { origin: 'http://evil.example' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses %s with 403', async (_name, headers) => {
    const host = await hostWith()

    expect((await call(host, '/api/respond', { method: 'POST', headers })).status).toBe(403)
  })

  it('takes an Origin equal to the Host', async () => {
    const host = await hostWith()

    const result = await respond(host, answer('nope', []), { origin: `http://127.0.0.1:${host.port}` })

    expect(result.json).toEqual({ accepted: false, reason: 'not-pending' })
  })

  it('answers 415 to a respond that is not JSON', async () => {
    const host = await hostWith()

    expect((await call(host, '/api/respond', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415)
  })

  it('closes the socket with 1008 when a client sends anything', async () => {
    const host = await hostWith()
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events.mux`)
    cleanups.push(async () => socket.terminate())
    await new Promise((resolve) => socket.once('open', resolve))

    socket.send('hello')
    const [code] = await new Promise<[number]>((resolve) => socket.once('close', (closeCode) => resolve([closeCode])))

    expect(code).toBe(1008)
  })
})

describe('fake host: access secret', () => {
  it('issues the cookie for the right secret and wants it on every /api call', async () => {
    const host = await hostWith({ accessSecret: SECRET })

    const login = await call(host, '/__dsh/access', { method: 'POST', body: JSON.stringify({ secret: SECRET }) })
    const cookie = String(login.headers['set-cookie']).split(';')[0]!

    expect(login.status).toBe(204)
    expect(String(login.headers['set-cookie'])).toMatch(/^dsh_access=\d+\.[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=604800$/)
    expect((await respond(host, answer('x', []))).status).toBe(401)
    expect((await respond(host, answer('x', []), { cookie })).status).toBe(200)
  })

  it('refuses a wrong secret with 401, and with 429 after five failures in a minute', async () => {
    const host = await hostWith({ accessSecret: SECRET })
    const statuses: number[] = []

    for (let i = 0; i < 6; i++) statuses.push((await call(host, '/__dsh/access', { method: 'POST', body: JSON.stringify({ secret: 'wrong-wrong-wrong' }) })).status)

    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
  })
})

describe('fake host: strict answers', () => {
  const pick = { id: 'pick', question: 'Pick?', options: [{ label: 'A' }, { label: 'B' }] }
  const many = { id: 'many', question: 'Many?', multiSelect: true, options: [{ label: 'A' }, { label: 'B' }] }

  it.each([
    ['a missing item', [pick, many], [{ id: 'pick', selected: ['A'] }]],
    ['items out of order', [pick, many], [{ id: 'many', selected: [] }, { id: 'pick', selected: ['A'] }]],
    ['a label not offered', [pick], [{ id: 'pick', selected: ['C'] }]],
    ['a duplicate label', [many], [{ id: 'many', selected: ['A', 'A'] }]],
    ['a blank custom', [pick], [{ id: 'pick', selected: [], custom: '  ' }]],
    ['a single-select label with custom', [pick], [{ id: 'pick', selected: ['A'], custom: 'also this' }]],
  ])('refuses %s as bad-response', async (_name, questions, items) => {
    const host = await hostWith()
    const { rpcId } = host.ask('s', questions)

    expect((await respond(host, answer(rpcId, items))).json).toEqual({ accepted: false, reason: 'bad-response' })
    expect(host.pending()).toEqual([rpcId])
  })

  it('keeps the first valid response and answers later ones not-pending', async () => {
    const host = await hostWith()
    const { rpcId, outcome } = host.ask('s', [pick])

    const first = await respond(host, answer(rpcId, [{ id: 'pick', selected: ['A'] }]))
    const second = await respond(host, answer(rpcId, [{ id: 'pick', selected: ['B'] }]))

    expect([first.json, second.json]).toEqual([{ accepted: true }, { accepted: false, reason: 'not-pending' }])
    expect(await outcome).toEqual({ kind: 'answered', by: 'client', answer: { answers: [{ id: 'pick', selected: ['A'] }] } })
  })
})
