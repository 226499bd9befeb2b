/**
 * The stand-in's one HTTP server, on 127.0.0.1 only: the Web API under
 * `/api/`, the file upload URLs, uploaded files, the Socket Mode WebSocket
 * under `/link/`, and (through a route hook) the web page at `/` and `/web/`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import type { SandboxCore } from './core.js'
import { SandboxError } from './errors.js'
import { foreignRequest } from './request-checks.js'
import { handleWebApi, readBody } from './web-api.js'

/** Loopback only: the stand-in holds no secrets but must never be reachable from elsewhere. */
export const SANDBOX_HOST = '127.0.0.1'

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify({ ok: false, error: 'not_found' }))
}

/** The upload URL takes the bytes raw, as a multipart file, or form-encoded (`@slack/web-api` sends `body=`). */
async function upload(core: SandboxCore, req: IncomingMessage, res: ServerResponse, fileId: string): Promise<void> {
  const file = core.workspace.files.get(fileId)
  if (!file || req.method !== 'POST') return notFound(res)
  const raw = await readBody(req)
  const type = (req.headers['content-type'] ?? '').toLowerCase()
  let bytes = raw
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData()
    const part = form.get('file') ?? form.get('body') ?? [...form.values()][0]
    bytes = part === undefined || part === null ? Buffer.alloc(0) : typeof part === 'string' ? Buffer.from(part) : Buffer.from(await part.arrayBuffer())
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(raw.toString('utf8'))
    bytes = Buffer.from(form.get('body') ?? form.get('content') ?? '')
  }
  file.bytes = bytes
  file.size = bytes.length
  core.workspace.markDirty()
  res.writeHead(200, { 'content-type': 'text/plain' })
  res.end(`OK - ${bytes.length}`)
}

function download(core: SandboxCore, res: ServerResponse, fileId: string): void {
  const file = core.workspace.files.get(fileId)
  if (!file?.bytes || !file.completed) return notFound(res)
  res.writeHead(200, { 'content-type': 'application/octet-stream' })
  res.end(file.bytes)
}

/** Answers a request before the Web API routes do, or returns `false` (the web page's routes). */
export type RouteHook = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>

async function route(core: SandboxCore, req: IncomingMessage, res: ServerResponse, hook?: RouteHook): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${SANDBOX_HOST}`)
  if (hook && (await hook(req, res, url))) return
  const [, area, first, second] = url.pathname.split('/')
  if (area === 'api' || area === 'upload' || area === 'files') {
    const refusal = foreignRequest(req)
    if (refusal) {
      res.writeHead(403, { 'content-type': 'application/json; charset=utf-8' })
      return void res.end(JSON.stringify({ ok: false, ...refusal }))
    }
  }
  if (area === 'api' && first) return handleWebApi(core, req, res, first, url)
  if (area === 'upload' && first === 'v1' && second) return upload(core, req, res, second)
  if (area === 'files' && first) return download(core, res, first)
  return notFound(res)
}

/** Starts listening on 127.0.0.1:`port` (0: any free port). */
export async function listen(core: SandboxCore, port: number, hook?: RouteHook): Promise<Server> {
  const server = createServer((req, res) => {
    route(core, req, res, hook).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(error))
    })
  })
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://${SANDBOX_HOST}`)
    if (!url.pathname.startsWith('/link')) return void socket.destroy()
    // A page could otherwise open the bot's socket and answer for people.
    const refusal = foreignRequest(req)
    if (refusal) return void socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${refusal.message}\n`)
    core.socket.handleUpgrade(req, socket, head, url)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new SandboxError('PORT_TAKEN', `port ${port} on ${SANDBOX_HOST} is already in use (is another stand-in running, from dsh-slack serve, relay or sandbox?)`, { cause: error })
          : error,
      ),
    )
    server.listen(port, SANDBOX_HOST, () => resolve())
  })
  return server
}

export function addressOf(server: Server): AddressInfo {
  return server.address() as AddressInfo
}
