import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log/logger.js'
import { guardSlackEvents } from '../../src/slack/events-guard.js'

const servers: Server[] = []

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A real server with the guard in front of a listener that records what reached it. */
async function start(options: { maxBodyBytes?: number; bodyTimeoutMs?: number; now?: () => number } = {}) {
  const reached: { rawBody: string }[] = []
  const warnings: string[] = []
  const listener = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    reached.push({ rawBody: String((req as IncomingMessage & { rawBody?: Buffer }).rawBody) })
    res.writeHead(200).end('ok')
  }
  const server = createServer(guardSlackEvents(listener, { logger: { ...silentLogger, warn: (line) => warnings.push(line) }, ...options }))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, reached, warnings }
}

/** Sends the headers and `first`, then nothing more, and resolves with the server's answer. */
function stall(url: string, headers: Record<string, string>, first: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume()
      res.on('end', () => {
        req.destroy()
        resolve(res.statusCode ?? 0)
      })
    })
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)))
    req.write(first)
  })
}

describe('guardSlackEvents', () => {
  it('hands the whole body to the listener as rawBody, so Bolt does not read it again', async () => {
    const { url, reached } = await start()

    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payload=%7B%7D' })

    expect(response.status).toBe(200)
    expect(reached).toEqual([{ rawBody: 'payload=%7B%7D' }])
  })

  it('answers a body that stops arriving with 408 and never calls the listener', async () => {
    const { url, reached, warnings } = await start({ bodyTimeoutMs: 100 })

    const status = await stall(url, { 'content-length': '1000' }, 'payload=')

    expect(status).toBe(408)
    expect(reached).toHaveLength(0)
    expect(warnings[0]).toContain('did not arrive')
  })

  it('refuses a declared length over the cap with 413 before reading, and one of exactly the cap is read', async () => {
    const { url, reached } = await start({ maxBodyBytes: 10 })

    const over = await stall(url, { 'content-length': '11' }, 'a')
    const exact = await fetch(url, { method: 'POST', body: 'a'.repeat(10) })

    expect(over).toBe(413)
    expect(exact.status).toBe(200)
    expect(reached).toEqual([{ rawBody: 'a'.repeat(10) }])
  })

  it('refuses a timestamp more than five minutes ahead with 401 before reading the body', async () => {
    const now = Date.UTC(2026, 0, 1)
    const { url, reached } = await start({ now: () => now })

    const ahead = await stall(url, { 'x-slack-request-timestamp': String(now / 1000 + 5 * 60 + 1), 'content-length': '100' }, 'x')
    const skewed = await fetch(url, { method: 'POST', headers: { 'x-slack-request-timestamp': String(now / 1000 + 5 * 60) }, body: 'x' })

    expect(ahead).toBe(401)
    expect(skewed.status).toBe(200)
    expect(reached).toHaveLength(1)
  })
})
