/**
 * HTTP delivery, as Slack posts interactions to an app's Request URL:
 * `application/x-www-form-urlencoded` `payload=<json>`, signed with
 * `X-Slack-Signature: v0=hex(HMAC_SHA256(secret, "v0:" + ts + ":" + body))`.
 * The HTTP response body is the ack (it may carry a response_action).
 */
import { createHmac } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

import { TIMING } from '../slack/timing.js'
import { SandboxError } from './errors.js'

/** An interaction's type, or an event callback's event type, for messages. */
function what(payload: Record<string, unknown>): string {
  const event = payload.event
  return typeof event === 'object' && event !== null ? String((event as Record<string, unknown>).type) : String(payload.type)
}

/** Slack's request signature for `body` sent at `timestamp` (seconds). */
export function signRequest(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`
}

/**
 * POSTs one interaction payload (as a form, `payload=<json>`) or an Events
 * API callback (`json`: the JSON itself, as Slack sends events) and resolves
 * with the parsed ack body (`{}` when empty).
 */
export function postInteraction(url: string, signingSecret: string, timestampSeconds: number, payload: Record<string, unknown>, format: 'form' | 'json' = 'form'): Promise<Record<string, unknown>> {
  const body = format === 'json' ? JSON.stringify(payload) : new URLSearchParams({ payload: JSON.stringify(payload) }).toString()
  const target = new URL(url)
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        // One connection per delivery, closed after: nothing keeps the app's server from stopping.
        agent: false,
        headers: {
          'content-type': format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
          'x-slack-request-timestamp': String(timestampSeconds),
          'x-slack-signature': signRequest(signingSecret, timestampSeconds, body),
        },
        timeout: TIMING.ackDeadlineMs,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          if (res.statusCode !== 200) return reject(new SandboxError('DELIVERY_REFUSED', `${url} answered HTTP ${res.statusCode} to ${what(payload)}: ${text.slice(0, 200)}`))
          if (text.trim() === '') return resolve({})
          try {
            const parsed = JSON.parse(text) as unknown
            resolve(typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {})
          } catch {
            resolve({})
          }
        })
      },
    )
    req.on('timeout', () => req.destroy(new SandboxError('NOT_ACKNOWLEDGED', `${url} did not answer ${what(payload)} within ${TIMING.ackDeadlineMs} ms`)))
    req.on('error', (error) => reject(error instanceof SandboxError ? error : new SandboxError('DELIVERY_REFUSED', `could not deliver to ${url}: ${error.message}`, { cause: error })))
    req.end(body)
  })
}
