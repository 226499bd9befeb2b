/**
 * The attacks on the `/v1` API from a web page, performed by a real
 * Chromium: a page on another site posting with `mode: 'no-cors'` and a
 * `text/plain` body (no preflight), a page trying a JSON POST, and a DNS
 * name rebound to 127.0.0.1 (Chromium's host resolver maps
 * attacker.example to loopback, as a rebinding DNS server would). Each
 * test also records what the server answered, so a browser that never sent
 * the request cannot make it pass.
 * Skipped, with the reason printed, where Chromium is not installed.
 */
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { FakeBridge, oneQuestion } from './fake-bridge.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.warn(`browser-attacks.test.ts: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`)

let browser: Browser
const cleanups: (() => Promise<unknown>)[] = []

beforeAll(async () => {
  if (!hasChromium) return
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP attacker.example 127.0.0.1'],
  })
})

afterAll(async () => {
  await browser?.close()
})

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

/** The API with a fake bridge, and the status of every response it sent. */
async function startApi(): Promise<{ bridge: FakeBridge; api: ApiServer; port: number; answered: { method: string; path: string; status: number }[] }> {
  const bridge = new FakeBridge()
  const api = createApiServer({ bridge, logger: silentLogger })
  cleanups.push(() => api.close())
  const answered: { method: string; path: string; status: number }[] = []
  api.server.on('request', (req, res) => res.on('finish', () => answered.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode })))
  const { port } = await api.listen('127.0.0.1', 0)
  return { bridge, api, port, answered }
}

/** The attacker's site: one harmless page, its scripts run by page.evaluate. */
async function startAttackerSite(): Promise<number> {
  const site: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>cute cats</title><p>cats'))
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise((resolve) => site.close(resolve)))
  return (site.address() as AddressInfo).port
}

async function openPage(url: string): Promise<Page> {
  const context = await browser.newContext()
  cleanups.push(() => context.close())
  const page = await context.newPage()
  await page.goto(url)
  return page
}

describe.skipIf(!hasChromium)('a web page attacking the /v1 API in Chromium', () => {
  it('cannot post a question with a no-cors text/plain fetch', async () => {
    const { bridge, port, answered } = await startApi()
    const page = await openPage(`http://attacker.example:${await startAttackerSite()}/`)

    await page.evaluate(
      async ({ target, body }) => {
        await fetch(target, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body })
      },
      { target: `http://127.0.0.1:${port}/v1/asks`, body: JSON.stringify({ ...oneQuestion, channel: 'C0VICTIM01' }) },
    )

    expect(answered).toEqual([{ method: 'POST', path: '/v1/asks', status: 403 }])
    expect(bridge.opened).toHaveLength(0)
  })

  it('cannot post a question with a JSON fetch: the preflight is refused', async () => {
    const { bridge, port, answered } = await startApi()
    const page = await openPage(`http://attacker.example:${await startAttackerSite()}/`)

    const outcome = await page.evaluate(
      async ({ target, body }) => {
        try {
          await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
          return 'sent'
        } catch (error) {
          return `failed: ${(error as Error).name}`
        }
      },
      { target: `http://127.0.0.1:${port}/v1/asks`, body: JSON.stringify(oneQuestion) },
    )

    expect(outcome).toBe('failed: TypeError')
    expect(answered).toEqual([{ method: 'OPTIONS', path: '/v1/asks', status: 403 }])
    expect(bridge.opened).toHaveLength(0)
  })

  it('cannot read an answer through a rebound DNS name', async () => {
    const { bridge, port, answered } = await startApi()
    await bridge.open(oneQuestion)
    const rebound = `http://attacker.example:${port}`

    const page = await openPage(`${rebound}/healthz`)
    const read = await page.evaluate(async () => {
      const response = await fetch('/v1/asks/ask1')
      return { status: response.status, body: await response.text() }
    })

    expect(read.status).toBe(403)
    expect(read.body).not.toContain('ask1')
    expect(answered).toContainEqual({ method: 'GET', path: '/v1/asks/ask1', status: 403 })
    expect(answered.every((entry) => entry.status === 403)).toBe(true)
  })

  it('cannot withdraw an ask through a rebound DNS name', async () => {
    const { bridge, port } = await startApi()
    await bridge.open(oneQuestion)

    const page = await openPage(`http://attacker.example:${port}/healthz`)
    const status = await page.evaluate(async () => (await fetch('/v1/asks/ask1', { method: 'DELETE' })).status)

    expect(status).toBe(403)
    expect((await bridge.get('ask1'))?.status).toBe('pending')
  })
})

describe.skipIf(!hasChromium)('a web page attacking the local Slack stand-in in Chromium', () => {
  it('cannot post as the bot with a no-cors GET carrying the stand-in’s public token', async () => {
    const slack = await startSandbox()
    cleanups.push(() => slack.close())
    const page = await openPage(`http://attacker.example:${await startAttackerSite()}/`)
    const target = `${slack.apiUrl}chat.postMessage?${new URLSearchParams({ token: slack.botToken, channel: slack.defaultChannel, text: 'pwned' })}`

    await page.evaluate(async (url) => {
      await fetch(url, { mode: 'no-cors' })
    }, target)

    expect(slack.messages(slack.defaultChannel)).toHaveLength(0)
    expect(await (await fetch(target)).json()).toMatchObject({ ok: true })
  })
})
