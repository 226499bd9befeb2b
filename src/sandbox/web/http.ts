/**
 * The page's HTTP plumbing: security headers, JSON answers, bounded JSON
 * bodies, and the checks that keep other web sites out. The stand-in listens
 * on 127.0.0.1 only, but a page elsewhere can still reach it through the
 * browser (a cross-site POST, or a DNS name rebound to 127.0.0.1), so every
 * page route checks the Host header and every POST needs a JSON content type
 * (which a cross-site form cannot send without a CORS preflight we never
 * answer) and, when the browser names one, our own Origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** Stand-in knob: the page's requests are small; anything bigger is a mistake or an attack. */
export const WEB_BODY_MAX_BYTES = 64 * 1024

/**
 * Scripts, styles and fetches from the stand-in itself only; no inline code,
 * no plugins, no framing. Images: the stand-in's own files and data: URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
}

/** The error codes of the page's endpoints, in `{ error: { code, message } }`. */
export const WEB_ERROR_CODES = ['BAD_JSON', 'BAD_REQUEST', 'BAD_HOST', 'BAD_ORIGIN', 'UNSUPPORTED_MEDIA_TYPE', 'TOO_LARGE', 'NO_SAMPLES', 'SAMPLE_FAILED', 'INTERNAL'] as const
export type WebErrorCode = (typeof WEB_ERROR_CODES)[number]

/** A refusal of a page endpoint, answered as JSON with its status. */
export class WebRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: WebErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'WebRequestError'
  }
}

export function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type })
  res.end(body)
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value))
}

export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } })
}

/** Only `127.0.0.1:PORT` and `localhost:PORT`: a rebound DNS name carries its own Host header. */
export function checkHost(req: IncomingMessage, port: number): void {
  const host = (req.headers.host ?? '').toLowerCase()
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new WebRequestError(403, 'BAD_HOST', `the page answers only on 127.0.0.1:${port} (Host was ${JSON.stringify(host)})`)
}

/** A POST from the page itself: JSON content type, and our own Origin when the browser sends one. */
export function checkPost(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').toLowerCase()
  if (!type.startsWith('application/json')) throw new WebRequestError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json')
  const origin = req.headers.origin
  if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`) throw new WebRequestError(403, 'BAD_ORIGIN', `requests from ${origin} are not accepted`)
}

/** Reads and parses a JSON body of at most WEB_BODY_MAX_BYTES. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > WEB_BODY_MAX_BYTES) throw new WebRequestError(413, 'TOO_LARGE', `the body is over ${WEB_BODY_MAX_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new WebRequestError(400, 'BAD_JSON', `the body is not JSON: ${(error as Error).message}`)
  }
}
