import { readdirSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js'
import { SAMPLE_ASKS, sampleAskHook } from '../../src/service/sample-asks.js'
import { CONTENT_SECURITY_POLICY } from '../../src/sandbox/web/http.js'
import { startRig } from '../support/e2e.js'
import { webClient } from './clients.js'

const CLIENT_DIR = fileURLToPath(new URL('../../src/sandbox/web/client/', import.meta.url))

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const slack = await startSandbox(options)
  cleanups.push(() => slack.close())
  return slack
}

async function postJson(slack: Sandbox, path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(path, slack.webUrl), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

function act(slack: Sandbox, body: unknown) {
  return postJson(slack, '/web/act', JSON.stringify(body))
}

/** A raw GET with any Host header (fetch will not send a foreign one). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the web page server', () => {
  it('serves the page at webUrl with a Content-Security-Policy that allows no inline or foreign scripts', async () => {
    const slack = await sandbox()

    const response = await fetch(slack.webUrl)

    expect(slack.webUrl).toBe(`http://127.0.0.1:${slack.port}/`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'")
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await response.text()).toContain('<script src="/web/app.js" defer></script>')
  })

  it('serves the bundled client script, which never writes HTML from strings', async () => {
    const slack = await sandbox()
    const sources = readdirSync(CLIENT_DIR).filter((name) => name.endsWith('.ts'))

    const response = await fetch(`${slack.webUrl}web/app.js`)
    const script = await response.text()

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
    // Every client module is in the bundle (each starts with its path as a comment).
    for (const name of sources) expect(script).toContain(`src/sandbox/web/client/${name}`)
    // Agent text reaches the page as data; only textContent and DOM calls may show it.
    for (const text of [script, ...sources.map((name) => readFileSync(join(CLIENT_DIR, name), 'utf8'))]) {
      expect(text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/)
    }
  })

  it('still answers the Web API next to the page', async () => {
    const slack = await sandbox()

    const response = await fetch(`${slack.apiUrl}auth.test`, { method: 'POST', headers: { authorization: `Bearer ${slack.botToken}` } })

    expect(await response.json()).toMatchObject({ ok: true })
  })

  it('refuses a Host header other than its loopback address, as a rebound DNS name would send', async () => {
    const slack = await sandbox()

    expect(await getWithHost(`${slack.webUrl}web/state`, 'attacker.example')).toBe(403)
    expect(await getWithHost(`${slack.webUrl}web/state`, `localhost:${slack.port}`)).toBe(200)
  })

  it('answers a body that is not JSON with 400 and a message', async () => {
    const slack = await sandbox()

    const answer = await postJson(slack, '/web/act', '{"action": "click",')

    expect(answer.status).toBe(400)
    expect(answer.body.error.code).toBe('BAD_JSON')
    expect(answer.body.error.message).toMatch(/not JSON/)
  })

  it('answers an invalid action with 400 naming the field', async () => {
    const slack = await sandbox()

    const unknown = await act(slack, { action: 'explode', user: ALICE })
    const badUser = await act(slack, { action: 'close', user: 'alice' })
    const badTarget = await act(slack, { action: 'click', user: ALICE, target: { channel: 'C0SANDBOX01', ts: 'yesterday' }, label: 'OK' })

    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } })
    expect(badUser.body.error.message).toMatch(/^user: /)
    expect(badTarget.body.error.message).toMatch(/target/)
  })

  it('refuses posts that a cross-site form could send: no JSON content type, or a foreign Origin', async () => {
    const slack = await sandbox()

    const form = await fetch(new URL('/web/act', slack.webUrl), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    const foreign = await postJson(slack, '/web/act', JSON.stringify({ action: 'close', user: ALICE }), { origin: 'https://attacker.example' })

    expect(form.status).toBe(415)
    expect(foreign).toMatchObject({ status: 403, body: { error: { code: 'BAD_ORIGIN' } } })
  })

  it('closes every modal of the person on leave, as a reloaded client does, even with no app listening', async () => {
    const slack = await sandbox()
    const web = webClient(slack)
    const view = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'Form' }, notify_on_close: true, blocks: [] }
    await web.views.open({ trigger_id: slack.issueTriggerId(ALICE), view })
    await web.views.push({ trigger_id: slack.issueTriggerId(ALICE), view })

    const answer = await act(slack, { action: 'leave', user: ALICE })

    expect(answer).toEqual({ status: 200, body: { ok: true } })
    expect(slack.modal(ALICE)).toBeUndefined()
  })

  it('says a click reached no app when none is connected, rather than a transport error', async () => {
    const slack = await sandbox()
    const posted = await webClient(slack).chat.postMessage({
      channel: slack.defaultChannel,
      text: 'go?',
      blocks: [{ type: 'actions', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' } }] }],
    })

    const answer = await act(slack, { action: 'click', user: ALICE, target: { channel: slack.defaultChannel, ts: posted.ts }, label: 'Go' })

    expect(answer).toMatchObject({ status: 422, body: { error: { code: 'NO_RECEIVER', message: expect.stringContaining('was not sent to any app') } } })
  })

  it('refuses a body over its limit with 413', async () => {
    const slack = await sandbox()

    const answer = await postJson(slack, '/web/act', JSON.stringify({ action: 'fill', user: ALICE, blockId: 'b', value: 'x'.repeat(100_000) }))

    expect(answer).toMatchObject({ status: 413, body: { error: { code: 'TOO_LARGE' } } })
  })

  it('answers 422 with the scripted user\'s code when the button is not there', async () => {
    const slack = await sandbox()
    const web = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: slack.defaultChannel, text: 'no buttons here' }),
    })
    const { ts } = (await web.json()) as { ts: string }

    const answer = await act(slack, { action: 'click', user: ALICE, target: { channel: slack.defaultChannel, ts }, label: 'Approve' })

    expect(answer).toMatchObject({ status: 422, body: { error: { code: 'NOT_FOUND' } } })
  })

  it('shows each user only the channels they are in and their own ephemeral messages', async () => {
    const slack = await sandbox()
    slack.createChannel({ id: 'G0PRIVATE1', name: 'secret', isPrivate: true, members: [ALICE] })
    await fetch(`${slack.apiUrl}chat.postEphemeral`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: slack.defaultChannel, user: ALICE, text: 'only for alice' }),
    })

    const state = async (user: string) => (await (await fetch(new URL(`/web/state?user=${user}`, slack.webUrl))).json()) as Record<string, any>
    const alice = await state(ALICE)
    const bob = await state(BOB)

    expect(alice.channels.map((c: { name: string }) => c.name)).toEqual(['agents', 'general', 'secret'])
    expect(bob.channels.map((c: { name: string }) => c.name)).toEqual(['agents', 'general'])
    expect(alice.messages).toMatchObject([{ text: 'only for alice', ephemeral: true }])
    expect(bob.messages).toEqual([])
  })

  it('streams a change event for every workspace change', async () => {
    const slack = await sandbox()
    const response = await fetch(new URL('/web/events', slack.webUrl))
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let seen = ''
    const read = async (until: string) => {
      while (!seen.includes(until)) seen += decoder.decode((await reader.read()).value)
    }
    await read('event: hello')

    slack.workspace.postEphemeral({ channel: slack.defaultChannel, user: ALICE, text: 'hi' })
    await read('ephemeral_posted')

    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(seen).toContain('event: change\ndata: {"type":"ephemeral_posted"}')
    await reader.cancel()
  })

  it('answers 404 for a sample when the stand-in has none, and 400 for an unknown kind', async () => {
    const bare = await sandbox()
    const sent: string[] = []
    const withSamples = await sandbox({ samples: { kinds: ['question'], send: async (kind) => void sent.push(kind) } })

    const none = await postJson(bare, '/web/sample', JSON.stringify({ kind: 'question' }))
    const unknown = await postJson(withSamples, '/web/sample', JSON.stringify({ kind: 'haiku' }))
    const ok = await postJson(withSamples, '/web/sample', JSON.stringify({ kind: 'question' }))

    expect(none).toMatchObject({ status: 404, body: { error: { code: 'NO_SAMPLES' } } })
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } })
    expect(ok).toMatchObject({ status: 200, body: { ok: true } })
    expect(sent).toEqual(['question'])
  })

  it('answers 502 with the reason when a sample cannot be sent', async () => {
    const hook = sampleAskHook()
    const slack = await sandbox({ samples: hook.samples })

    const answer = await postJson(slack, '/web/sample', JSON.stringify({ kind: 'plan-review' }))

    expect(answer).toMatchObject({ status: 502, body: { error: { code: 'SAMPLE_FAILED' } } })
    expect(answer.body.error.message).toMatch(/still starting/)
  })
})

describe('page actions with the real bridge', () => {
  it('settles an ask with the option a click on the page names', async () => {
    const { slack, bridge } = await startRig('socket')
    const record = await bridge.open(SAMPLE_ASKS.question)
    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel))

    const answer = await act(slack, { action: 'click', user: ALICE, target: { channel: message.channel, ts: message.ts }, label: 'npm' })
    const settled = await bridge.waitForSettlement(record.id, 5000)

    expect(answer).toEqual({ status: 200, body: { ok: true } })
    expect(settled).toMatchObject({ status: 'answered', settlement: { answer: { answers: [{ id: 'package-manager', selected: ['npm'] }] } } })
  })

  it('submits a modal with the text typed on the page', async () => {
    const { slack, bridge } = await startRig('socket')
    const record = await bridge.open(SAMPLE_ASKS.question)
    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel))
    await act(slack, { action: 'click', user: ALICE, target: { channel: message.channel, ts: message.ts }, label: 'Other…' })
    const modal = await slack.waitFor(() => slack.modal(ALICE))
    const input = modal.blocks.find((b) => b.type === 'input')!

    const answer = await act(slack, { action: 'submit', user: ALICE, fills: { [String(input.block_id)]: 'bun, if CI supports it' } })
    const settled = await bridge.waitForSettlement(record.id, 5000)

    expect(answer.status).toBe(200)
    expect(settled).toMatchObject({ status: 'answered', settlement: { answer: { answers: [{ id: 'package-manager', selected: [], custom: 'bun, if CI supports it' }] } } })
  })

  it('asks the app for external select options as the person types, and picks one', async () => {
    const { slack, bridge } = await startRig('socket')
    const regions = Array.from({ length: 150 }, (_, i) => ({ label: `Region ${i + 1}` }))
    const record = await bridge.open({ questions: [{ id: 'region', question: 'Which region?', options: regions }] })
    const message = await slack.waitFor(() => slack.latestMessage(slack.defaultChannel))
    const target = { channel: message.channel, ts: message.ts }
    const select = JSON.stringify(message.blocks).match(/"action_id":"([^"]+)","placeholder"/)![1]!

    const suggested = await act(slack, { action: 'suggest', user: ALICE, target, actionId: select, query: 'Region 14' })
    const chosen = await act(slack, { action: 'choose', user: ALICE, target, actionId: select, option: 'Region 142', query: 'Region 14' })
    const settled = await bridge.waitForSettlement(record.id, 5000)

    expect(suggested.body.options.map((o: { text: string }) => o.text)).toContain('Region 142')
    expect(chosen.status).toBe(200)
    expect(settled).toMatchObject({ status: 'answered', settlement: { answer: { answers: [{ id: 'region', selected: ['Region 142'] }] } } })
  })
})
