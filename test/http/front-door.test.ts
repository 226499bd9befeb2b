/**
 * The HTTP server's front door, attacked with real HTTP requests carrying
 * what a browser would send for a cross-site page or a rebound DNS name
 * (node:http, because fetch will not let a caller set Host or Origin).
 */
import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger, type Logger } from '../../src/log/logger.js'
import { FakeBridge, oneQuestion } from './fake-bridge.js'

const servers: ApiServer[] = []

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Record<string, any> | undefined
}

async function start(options: { allowedHosts?: string[]; bindHost?: string; logger?: Logger } = {}) {
  const bridge = new FakeBridge()
  bridge.slackRequestListener = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('bolt')
  const server = createApiServer({ bridge, logger: options.logger ?? silentLogger, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) })
  servers.push(server)
  const { port } = await server.listen(options.bindHost ?? '127.0.0.1', 0)
  const connectTo = (options.bindHost ?? '127.0.0.1').replace(/^\[|\]$/g, '')
  /** One raw request; `headers` replace the defaults (Host included). */
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<Reply>((resolve, reject) => {
      const req = httpRequest({ host: connectTo, port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, setHost: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let parsed: Record<string, any> | undefined
          try {
            parsed = text === '' ? undefined : (JSON.parse(text) as Record<string, any>)
          } catch {
            parsed = { text }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed })
        })
      })
      req.on('error', reject)
      req.end(body)
    })
  return { bridge, port, send }
}

const json = { 'content-type': 'application/json' }
const question = JSON.stringify(oneQuestion)

describe('the front door: content type', () => {
  it('refuses a text/plain POST, as a no-cors fetch from a web page sends it, with 415 and posts nothing', async () => {
    const { bridge, send } = await start()

    const reply = await send('POST', '/v1/asks', { 'content-type': 'text/plain;charset=UTF-8' }, question)

    expect(reply.status).toBe(415)
    expect(reply.body?.error.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(bridge.opened).toHaveLength(0)
  })

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])('refuses a %s POST, as an HTML form sends it', async (type) => {
    const { bridge, send } = await start()

    const reply = await send('POST', '/v1/asks', { 'content-type': type }, question)

    expect(reply.status).toBe(415)
    expect(bridge.opened).toHaveLength(0)
  })

  it('refuses a POST with no content type at all', async () => {
    const { bridge, send } = await start()

    const reply = await send('POST', '/v1/asks', {}, question)

    expect(reply.status).toBe(415)
    expect(bridge.opened).toHaveLength(0)
  })

  it('accepts application/json with a charset', async () => {
    const { send } = await start()

    const reply = await send('POST', '/v1/asks', { 'content-type': 'application/json; charset=utf-8' }, question)

    expect(reply.status).toBe(201)
  })

  it('accepts Slack’s form-encoded body on /slack/events and refuses text/plain there', async () => {
    const { send } = await start()

    const form = await send('POST', '/slack/events', { 'content-type': 'application/x-www-form-urlencoded' }, 'payload=x')
    const plain = await send('POST', '/slack/events', { 'content-type': 'text/plain' }, 'payload=x')

    expect(form.body).toEqual({ text: 'bolt' })
    expect(plain.status).toBe(415)
  })
})

describe('the front door: Origin', () => {
  it('refuses a JSON POST carrying another site’s Origin with 403 and posts nothing', async () => {
    const { bridge, send } = await start()

    const reply = await send('POST', '/v1/asks', { ...json, origin: 'http://attacker.example' }, question)

    expect(reply.status).toBe(403)
    expect(reply.body?.error.code).toBe('BAD_ORIGIN')
    expect(bridge.opened).toHaveLength(0)
  })

  it('refuses Origin: null, as sandboxed frames and file: pages send it', async () => {
    const { send } = await start()

    expect((await send('POST', '/v1/asks', { ...json, origin: 'null' }, question)).status).toBe(403)
  })

  it('refuses a cross-site request a browser marks with Sec-Fetch-Site even without an Origin', async () => {
    const { send } = await start()

    const reply = await send('GET', '/v1/asks/ask1', { 'sec-fetch-site': 'cross-site' })

    expect(reply.status).toBe(403)
    expect(reply.body?.error.code).toBe('BAD_ORIGIN')
  })

  it('refuses a DELETE from another site, so a page cannot withdraw asks', async () => {
    const { bridge, send } = await start()
    await send('POST', '/v1/asks', json, question)

    const reply = await send('DELETE', '/v1/asks/ask1', { origin: 'http://attacker.example' })

    expect(reply.status).toBe(403)
    expect((await bridge.get('ask1'))?.status).toBe('pending')
  })

  it('accepts an Origin that is this server’s own', async () => {
    const { port, send } = await start()

    const reply = await send('POST', '/v1/asks', { ...json, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' }, question)

    expect(reply.status).toBe(201)
  })

  it('refuses the same host on another port, which is another origin', async () => {
    const { port, send } = await start()

    expect((await send('POST', '/v1/asks', { ...json, origin: `http://127.0.0.1:${port + 1}` }, question)).status).toBe(403)
  })
})

describe('the front door: Host', () => {
  it('refuses a rebound DNS name with 403, so a page cannot read answers through it', async () => {
    const { bridge, port, send } = await start()
    await send('POST', '/v1/asks', json, question)

    const reply = await send('GET', '/v1/asks/ask1', { host: `attacker.example:${port}` })

    expect(reply.status).toBe(403)
    expect(reply.body?.error.code).toBe('BAD_HOST')
    expect(reply.body?.error.message).toContain('DSH_SLACK_ALLOWED_HOSTS')
    expect(bridge.opened).toHaveLength(1)
  })

  it('refuses a POST for a rebound name and posts nothing', async () => {
    const { bridge, port, send } = await start()

    const reply = await send('POST', '/v1/asks', { ...json, host: `attacker.example:${port}` }, question)

    expect(reply.status).toBe(403)
    expect(bridge.opened).toHaveLength(0)
  })

  it.each(['/healthz', '/metrics', '/slack/events', '/no-such-route'])('guards %s too: the check comes before routing', async (path) => {
    const { port, send } = await start()

    const reply = await send('GET', path, { host: `attacker.example:${port}` })

    expect(reply.status).toBe(403)
    expect(reply.body?.error.code).toBe('BAD_HOST')
  })

  it('refuses a request without a Host header', async () => {
    const { send } = await start()

    const reply = await send('GET', '/healthz', { host: '' })

    expect(reply.status).toBe(403)
  })

  it('refuses a Host that smuggles a loopback name before an @', async () => {
    const { send } = await start()

    expect((await send('GET', '/healthz', { host: '127.0.0.1@attacker.example' })).status).toBe(403)
  })

  it.each(['localhost:3000', '127.0.0.1', '127.0.0.5:80', '[::1]:3000', '10.1.2.3:3000', 'LOCALHOST'])('answers Host %s (loopback or an IP address)', async (host) => {
    const { send } = await start()

    expect((await send('GET', '/healthz', { host })).status).toBe(200)
  })

  it('answers the names in DSH_SLACK_ALLOWED_HOSTS, with or without their port', async () => {
    const { send } = await start({ allowedHosts: ['dsh.example.com', 'api.example.org:8443', '.corp.example'] })

    expect((await send('GET', '/healthz', { host: 'dsh.example.com' })).status).toBe(200)
    expect((await send('GET', '/healthz', { host: 'dsh.example.com:443' })).status).toBe(200)
    expect((await send('GET', '/healthz', { host: 'api.example.org:8443' })).status).toBe(200)
    expect((await send('GET', '/healthz', { host: 'api.example.org' })).status).toBe(403)
    expect((await send('GET', '/healthz', { host: 'team.corp.example' })).status).toBe(200)
    expect((await send('GET', '/healthz', { host: 'corp.example' })).status).toBe(200)
    expect((await send('GET', '/healthz', { host: 'evilcorp.example' })).status).toBe(403)
  })

  it('answers any Host when DSH_SLACK_ALLOWED_HOSTS is *', async () => {
    const { send } = await start({ allowedHosts: ['*'] })

    expect((await send('GET', '/healthz', { host: 'anything.example' })).status).toBe(200)
  })

  it('still checks the Origin when any Host is allowed', async () => {
    const { send } = await start({ allowedHosts: ['*'] })

    expect((await send('POST', '/v1/asks', { ...json, host: 'dsh.example.com', origin: 'https://attacker.example' }, question)).status).toBe(403)
  })

  it('accepts the Origin a proxy’s public https name gives, when the proxy passes its Host on', async () => {
    const { send } = await start({ allowedHosts: ['dsh.example.com'] })

    expect((await send('POST', '/v1/asks', { ...json, host: 'dsh.example.com', origin: 'https://dsh.example.com' }, question)).status).toBe(201)
  })

  it('logs a refused Host once, naming the variable that allows it', async () => {
    const warnings: string[] = []
    const logger = { ...silentLogger, warn: (line: string) => warnings.push(line) }
    const { send } = await start({ logger })

    await send('GET', '/healthz', { host: 'proxy.example' })
    await send('GET', '/healthz', { host: 'proxy.example' })

    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('"proxy.example"')
    expect(warnings[0]).toContain('DSH_SLACK_ALLOWED_HOSTS')
  })

  it('listens on HOST=[::1] written with brackets, as in URLs', async () => {
    const { send } = await start({ bindHost: '[::1]' })

    expect((await send('GET', '/healthz', { host: 'localhost' })).status).toBe(200)
  })
})

describe('edges of the /v1 API', () => {
  it('answers 400 for a malformed %-escape in an ask id instead of failing with 500', async () => {
    const { send } = await start()

    const reply = await send('GET', '/v1/asks/%E0%A4%A', {})

    expect(reply.status).toBe(400)
    expect(reply.body?.error.code).toBe('BAD_REQUEST')
  })

  it('refuses a timeoutMs beyond 30 days with 400 instead of a misleading 502', async () => {
    const { bridge, send } = await start()

    const reply = await send('POST', '/v1/asks', json, JSON.stringify({ ...oneQuestion, timeoutMs: 9007199254740991 }))

    expect(reply.status).toBe(400)
    expect(reply.body?.error).toEqual({ code: 'BAD_REQUEST', message: 'timeoutMs must be at most 30 days (2592000000)' })
    expect(bridge.opened).toHaveLength(0)
  })

  it('refuses unknown keys in an intent with 400 BAD_INTENT', async () => {
    const { send } = await start()
    const plan = { id: 'plan-review', question: 'Approve?', detail: '# Plan', options: [{ label: 'Approve' }], intent: { kind: 'plan-review', approve: 'Approve', aprove: 'x' } }

    const reply = await send('POST', '/v1/asks', json, JSON.stringify({ questions: [plan] }))

    expect(reply.status).toBe(400)
    expect(reply.body?.error.code).toBe('BAD_INTENT')
  })

  it('refuses a deeply nested key in an intent with 400 BAD_INTENT, not a 500 stack overflow', async () => {
    const { send } = await start()
    const depth = 50_000
    const nested = '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth)
    const body = `{"questions":[{"id":"plan-review","question":"Approve?","detail":"# Plan","options":[{"label":"Approve"}],"intent":{"kind":"plan-review","approve":"Approve","x":${nested}}}]}`

    const reply = await send('POST', '/v1/asks', json, body)

    expect(reply.status).toBe(400)
    expect(reply.body?.error.code).toBe('BAD_INTENT')
  })
})
