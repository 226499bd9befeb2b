/**
 * The stand-in's Web API and Socket Mode endpoint attacked as a web page
 * would (cross-site requests, a DNS name rebound to 127.0.0.1), with real
 * HTTP requests and a real WebSocket handshake. Its tokens are fixed and
 * public, so without these checks any page could post as the bot.
 */
import { request as httpRequest } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'

let slack: Sandbox

beforeEach(async () => {
  slack = await startSandbox()
})

afterEach(async () => {
  await slack.close()
})

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: slack.port, method, path, headers: { host: `127.0.0.1:${slack.port}`, ...headers }, setHost: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, any> }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const postByQuery = () => `/api/chat.postMessage?${new URLSearchParams({ token: slack.botToken, channel: slack.defaultChannel, text: 'pwned' })}`

describe('the stand-in refuses requests from web pages', () => {
  it('refuses a cross-site GET /api/chat.postMessage?token=… and posts nothing', async () => {
    const reply = await send('GET', postByQuery(), { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' })

    expect(reply.status).toBe(403)
    expect(reply.body).toMatchObject({ ok: false, error: 'bad_origin' })
    expect(slack.messages(slack.defaultChannel)).toHaveLength(0)
  })

  it('refuses a POST carrying another site’s Origin', async () => {
    const body = new URLSearchParams({ token: slack.botToken, channel: slack.defaultChannel, text: 'pwned' }).toString()

    const reply = await send('POST', '/api/chat.postMessage', { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://attacker.example' }, body)

    expect(reply.status).toBe(403)
    expect(slack.messages(slack.defaultChannel)).toHaveLength(0)
  })

  it('refuses a POST for a rebound DNS name (Host: evil.example) and posts nothing', async () => {
    const body = new URLSearchParams({ token: slack.botToken, channel: slack.defaultChannel, text: 'pwned' }).toString()

    const reply = await send('POST', '/api/chat.postMessage', { 'content-type': 'application/x-www-form-urlencoded', host: `evil.example:${slack.port}` }, body)

    expect(reply.status).toBe(403)
    expect(reply.body).toMatchObject({ ok: false, error: 'bad_host' })
    expect(slack.messages(slack.defaultChannel)).toHaveLength(0)
  })

  it('still answers a program’s request with its own Host and no Origin', async () => {
    const reply = await send('GET', postByQuery(), { host: `localhost:${slack.port}` })

    expect(reply.body.ok).toBe(true)
    expect(slack.messages(slack.defaultChannel)).toHaveLength(1)
  })

  it('refuses a Socket Mode handshake from a web page, and accepts the same one from a program', async () => {
    const connect = async (headers: Record<string, string>) => {
      const opened = (await send('POST', '/api/apps.connections.open', { authorization: `Bearer ${slack.appToken}`, 'content-type': 'application/x-www-form-urlencoded' }, '')).body as { url: string }
      return new Promise<string>((resolve) => {
        const socket = new WebSocket(opened.url, { headers })
        socket.on('open', () => {
          socket.close()
          resolve('open')
        })
        socket.on('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`))
        socket.on('error', () => resolve('error'))
      })
    }

    expect(await connect({ origin: 'http://attacker.example' })).toBe('refused 403')
    expect(await connect({})).toBe('open')
  })
})
