import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from '../log/logger.js'
import { TIMING } from './timing.js'

/**
 * Ours, not Slack's: the largest request body `/slack/events` reads. Slack's
 * payloads are a few KB (a view_submission of a full modal stays well under
 * 100 KB), so 1 MiB is generous and anything larger is not from Slack.
 */
export const SLACK_EVENTS_MAX_BODY_BYTES = 1024 * 1024

export interface SlackEventsGuardOptions {
  logger: Logger
  /** Defaults to SLACK_EVENTS_MAX_BODY_BYTES. */
  maxBodyBytes?: number
  /** How long the whole body may take to arrive; defaults to TIMING.slackEventsBodyTimeoutMs. */
  bodyTimeoutMs?: number
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/**
 * Wraps Bolt's HTTP request listener with what it lacks: Bolt reads the
 * whole body into memory before it checks the signature (an unsigned
 * 256 MiB POST was read whole), waits forever for a slow one, and checks
 * only that a request is not too old. Here a body declared too large is
 * refused with 413 before a byte is read, one found too large while
 * reading as soon as it passes the cap, a slow one with 408, and a
 * timestamp more than five minutes ahead with 401. The body read is
 * handed to Bolt as `rawBody`, which Bolt uses instead of reading again.
 */
export function guardSlackEvents(listener: Listener, options: SlackEventsGuardOptions): Listener {
  const maxBytes = options.maxBodyBytes ?? SLACK_EVENTS_MAX_BODY_BYTES
  const timeoutMs = options.bodyTimeoutMs ?? TIMING.slackEventsBodyTimeoutMs
  const now = options.now ?? Date.now

  return (req, res) => {
    const refuse = (status: number, reason: string, close: boolean) => {
      options.logger.warn(`refused a request to ${(req.url ?? '/').split('?')[0]}: ${reason}`)
      if (res.headersSent || res.destroyed) return
      // A body not read to the end cannot be left in the connection.
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...(close ? { connection: 'close' } : {}) })
      res.end(`${reason}\n`)
      if (close) res.once('finish', () => req.destroy())
    }

    const timestamp = Number(req.headers['x-slack-request-timestamp'])
    if (Number.isFinite(timestamp) && timestamp * 1000 > now() + TIMING.signatureMaxFutureMs) {
      refuse(401, 'the request timestamp is more than five minutes in the future', true)
      return
    }
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > maxBytes) {
      refuse(413, `the request body is larger than ${maxBytes} bytes`, true)
      return
    }

    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = () => {
      done = true
      clearTimeout(timer)
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    const timer = setTimeout(() => {
      if (done) return
      finish()
      refuse(408, `the request body did not arrive within ${timeoutMs} ms`, true)
    }, timeoutMs)
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) {
        chunks.push(chunk)
        return
      }
      finish()
      refuse(413, `the request body is larger than ${maxBytes} bytes`, true)
    }
    const onEnd = () => {
      finish()
      Object.assign(req, { rawBody: Buffer.concat(chunks) })
      listener(req, res)
    }
    const onError = () => finish()
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  }
}
