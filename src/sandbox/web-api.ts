/**
 * The Web API endpoint, `/api/<method>`: parses what @slack/web-api sends
 * (form-encoded with JSON-encoded fields, JSON bodies, multipart, or a GET
 * query), checks the token and its scopes, applies injected faults and rate
 * limits, and answers like Slack: HTTP 200 with `{ ok, … }`, or 429 with
 * `Retry-After`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

import { argumentMessages } from './args.js'
import type { SandboxCore } from './core.js'
import { SlackRefusal } from './errors.js'
import { METHODS } from './methods/index.js'

/** Reads a request body whole. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The arguments of a call, and whether they came as JSON (which needs the token in the header). */
export async function parseArguments(req: IncomingMessage, url: URL): Promise<{ args: Record<string, unknown>; isJson: boolean }> {
  const args: Record<string, unknown> = Object.fromEntries(url.searchParams)
  if (req.method !== 'POST') return { args, isJson: false }
  const body = await readBody(req)
  const type = (req.headers['content-type'] ?? '').toLowerCase()
  if (type.startsWith('application/json')) {
    const parsed = body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as unknown)
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SlackRefusal('invalid_json')
    return { args: { ...args, ...(parsed as Record<string, unknown>) }, isJson: true }
  }
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData()
    for (const [key, value] of form) args[key] = typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer())
    return { args, isJson: false }
  }
  for (const [key, value] of new URLSearchParams(body.toString('utf8'))) args[key] = value
  return { args, isJson: false }
}

function send(res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  res.end(JSON.stringify(body))
}

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined
}

function tokenKind(core: SandboxCore, token: string): 'bot' | 'app' | undefined {
  if (token === core.botToken) return 'bot'
  if (token === core.appToken) return 'app'
  return undefined
}

/** Handles one `/api/<method>` request. */
export async function handleWebApi(core: SandboxCore, req: IncomingMessage, res: ServerResponse, name: string, url: URL): Promise<void> {
  core.calls.set(name, (core.calls.get(name) ?? 0) + 1)
  const fault = core.faults.take(name)
  if (fault && 'delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
  else if (fault && 'status' in fault && fault.status === 429) return send(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(fault.retryAfter) })
  else if (fault && 'status' in fault) {
    res.writeHead(fault.status, { 'content-type': 'text/html' })
    return void res.end('<html><body>Service unavailable</body></html>')
  }

  let parsed: { args: Record<string, unknown>; isJson: boolean }
  try {
    parsed = await parseArguments(req, url)
  } catch (error) {
    return send(res, 200, { ok: false, error: error instanceof SlackRefusal ? error.error : 'invalid_form_data' })
  }
  const { args, isJson } = parsed
  // A JSON body cannot carry the token: Slack reads it from the Authorization header only.
  const token = bearer(req) ?? (isJson || typeof args.token !== 'string' ? undefined : args.token)
  const kind = token === undefined ? undefined : tokenKind(core, token)
  const scopesHeader: Record<string, string> = kind === 'bot' ? { 'x-oauth-scopes': [...core.scopes].join(',') } : kind === 'app' ? { 'x-oauth-scopes': 'connections:write' } : {}

  const spec = METHODS[name]
  if (!spec) return send(res, 200, { ok: false, error: 'unknown_method' }, scopesHeader)
  if (fault && 'error' in fault) return send(res, 200, { ok: false, error: fault.error }, scopesHeader)
  if (token === undefined) return send(res, 200, { ok: false, error: 'not_authed' })
  if (kind === undefined) return send(res, 200, { ok: false, error: 'invalid_auth' })
  if (spec.token !== 'any' && spec.token !== kind) return send(res, 200, { ok: false, error: 'not_allowed_token_type' }, scopesHeader)
  const headers = { ...scopesHeader, ...(spec.scope ? { 'x-accepted-oauth-scopes': spec.scope } : {}) }
  if (spec.scope && kind === 'bot' && !core.scopes.has(spec.scope)) {
    return send(res, 200, { ok: false, error: 'missing_scope', needed: spec.scope, provided: [...core.scopes].join(',') }, headers)
  }

  const result = spec.args.safeParse(args)
  if (!result.success) {
    return send(res, 200, { ok: false, error: 'invalid_arguments', response_metadata: { messages: argumentMessages(result.error) } }, headers)
  }
  const rate = spec.rate?.(result.data, core)
  if (rate) {
    const wait = core.limiter.takeAll(Array.isArray(rate) ? rate : [rate])
    if (wait > 0) return send(res, 429, { ok: false, error: 'ratelimited' }, { ...headers, 'retry-after': String(wait) })
  }
  try {
    const answer = await spec.run(result.data, core)
    if (fault && 'answerAfterMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.answerAfterMs))
    return send(res, 200, { ok: true, ...answer }, headers)
  } catch (error) {
    if (error instanceof SlackRefusal) return send(res, 200, { ok: false, error: error.error, ...error.extra }, headers)
    return send(res, 200, { ok: false, error: 'internal_error', response_metadata: { messages: [`[ERROR] ${String(error)}`] } }, headers)
  }
}
