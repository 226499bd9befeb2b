import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SlackBridge } from '../bridge/types.js'
import type { Logger } from '../log/logger.js'
import type { AskRecord } from '../store/ask-record.js'
import { ApiError } from './api-error.js'
import { createAsk, deleteAsk, getAsk, type AskHandlerContext } from './ask-handlers.js'
import { askEvents, listAsks } from './audit-handlers.js'
import { checkBearer, keyOf } from './check-bearer.js'
import type { Caller } from './caller.js'
import { EVERY_ASK, OWN_ASKS } from '../policy/operator-policy.js'
import type { OperatorPolicy } from '../policy/operator-policy.js'
import { checkFrontDoor, createFrontDoor, type FrontDoor } from './front-door.js'
import { openApiDocument } from './openapi.js'
import { TIMING } from '../slack/timing.js'
import { healthOf } from './health.js'
import { sendJson } from './send-json.js'
import { refusalLog } from '../log/refusal-log.js'
import { storeOutage } from './store-outage.js'
import { OutageLog } from './outage-log.js'

export interface ApiServerOptions {
  bridge: SlackBridge
  /** Bearer key for `/v1/*`; absent: no key needed (loopback only, enforced by the config). */
  apiKey?: string
  logger: Logger
  /** The bridge talks to the built-in local stand-in: `/healthz` says `slack: 'local'`. */
  local?: boolean
  /** Called after each ask is posted through the API. */
  onOpened?: (record: AskRecord) => void
  /** `DSH_SLACK_ALLOWED_HOSTS`: `Host` names answered besides loopback, IP literals and the bound address. */
  allowedHosts?: readonly string[]
  /**
   * The operator's policy in force (read on every request, so a reload
   * applies at once): its named keys replace `apiKey` when it has any, and
   * `/healthz` reports its version.
   */
  policy?: () => OperatorPolicy
  /** The policy comes from a file (DSH_SLACK_POLICY): only then has it a version for `/healthz` to report. */
  policyFromFile?: boolean
  /** `GET /metrics` (Prometheus text); absent: no such route. Behind `apiKey` like `/v1`. */
  metrics?: { contentType: string; render(): Promise<string> }
  /** Told of each request refused with 401, 403 POLICY_FORBIDDEN or 429 TOO_MANY_PENDING (`dsh_slack_refused_total`). */
  onRefused?: (reason: RequestRefusal) => void
  /** How long a POST waits for its message before answering `queued` (default TIMING.postAnswerWithinMs; tests shorten it). */
  postAnswerWithinMs?: number
}

/** A refusal worth counting: a wrong or missing key, a request looser than the policy, too many pending asks. */
export type RequestRefusal = 'unauthorized' | 'policy-forbidden' | 'too-many-pending'

/** The refusals counted and logged (rate-limited), by the error they answer with. */
const COUNTED_REFUSALS: Partial<Record<string, RequestRefusal>> = { UNAUTHORIZED: 'unauthorized', POLICY_FORBIDDEN: 'policy-forbidden', TOO_MANY_PENDING: 'too-many-pending' }

export interface ApiServer {
  readonly server: Server
  /** Resolves with the address once listening; port 0 picks a free one. */
  listen(host: string, port: number): Promise<{ host: string; port: number; url: string }>
  /**
   * Stops taking new asks (`POST` → 503, `/healthz` → 503) and resolves once
   * the requests already being handled (a POST waiting for its Slack post)
   * have answered. Everything else keeps working.
   */
  drain(): Promise<void>
  /** Drains, ends long-polls in flight (they answer with the pending state), stops listening, closes connections. */
  close(): Promise<void>
}

/** The OpenAPI document, generated on first request: it is the same for the process's lifetime. */
let openApiCache: Record<string, unknown> | undefined
const openApi = () => (openApiCache ??= openApiDocument())

/** How long close() lets answered long-polls flush before it cuts the remaining connections. */
const CLOSE_GRACE_MS = 1000

/**
 * How long a client may take to send its whole request (headers and body).
 * Every legitimate body is small (1 MiB at most); a client trickling one
 * byte a second only holds a connection. Long-polls are unaffected: this
 * bounds receiving the request, not answering it.
 */
const REQUEST_RECEIVE_TIMEOUT_MS = 30_000

/** Refused Host names are logged once each (up to this many), so an attack cannot flood the log. */
const LOGGED_HOSTS_MAX = 20

/**
 * The service's HTTP API (ARCHITECTURE.md, fixed): `/v1/asks`, `/healthz`,
 * and, in Slack's HTTP mode, `/slack/events` on the same port. Plain
 * node:http: four routes need no framework.
 */
export function createApiServer(options: ApiServerOptions): ApiServer {
  const closing = new AbortController()
  let draining = false
  /** POSTs and DELETEs being handled: drain() lets them answer. */
  const handling = new Set<Promise<void>>()
  const tracked = (work: Promise<void>): Promise<void> => {
    handling.add(work)
    return work.finally(() => handling.delete(work))
  }
  const policy = options.policy
  const waits = new Set<AbortController>()
  const context: AskHandlerContext = { bridge: options.bridge, logger: options.logger, closing: closing.signal, waits, postAnswerWithinMs: options.postAnswerWithinMs ?? TIMING.postAnswerWithinMs, ...(options.onOpened ? { onOpened: options.onOpened } : {}), ...(policy ? { limits: () => policy().limits } : {}) }

  let door: FrontDoor = createFrontDoor({ bindHost: '127.0.0.1', ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) })
  const loggedHosts = new Set<string>()
  const logRefusal = refusalLog(options.logger)
  const outageLog = new OutageLog(options.bridge.store, options.logger)

  const server = createServer({ requestTimeout: REQUEST_RECEIVE_TIMEOUT_MS }, (req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof ApiError) {
        if (error.code === 'BAD_HOST') noteRefusedHost(req.headers.host)
        noteRefusal(req, error)
        // A body refused early was not read to the end: close rather than
        // leave the rest of it in the connection.
        const headers = error.status === 413 ? { ...error.headers, connection: 'close' } : error.headers
        sendJson(res, error.status, { error: { code: error.code, message: error.message } }, headers)
        return
      }
      void answerFailure(req, res, error)
    })
  })

  /**
   * Anything but a refusal: the state store being unreachable is a 503 the
   * client waits out (ARCHITECTURE.md: never a 500), anything else a 500.
   */
  async function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error)
    const outage = await storeOutage(options.bridge.store, error)
    if (res.headersSent || res.destroyed) return
    if (outage) {
      outageLog.refused(`${req.method} ${pathOf(req)}`, reason)
      sendJson(res, 503, { error: { code: 'STATE_UNAVAILABLE', message: outage } }, { 'retry-after': String(TIMING.storeRetryAfterSeconds) })
      return
    }
    options.logger.error(`${req.method} ${pathOf(req)} failed: ${reason}`)
    sendJson(res, 500, { error: { code: 'INTERNAL_ERROR', message: 'the service failed to handle the request; see its log' } })
  }

  /** Counts and logs (rate-limited) a refusal that may be an attack or a misconfigured agent; never the key itself. */
  function noteRefusal(req: IncomingMessage, error: ApiError): void {
    const reason = COUNTED_REFUSALS[error.code]
    if (reason === undefined) return
    options.onRefused?.(reason)
    logRefusal(reason, `${req.method} ${pathOf(req)} from ${req.socket.remoteAddress ?? 'an unknown address'}: ${error.status} ${error.code}: ${error.message.slice(0, 300)}`)
  }

  function noteRefusedHost(host: string | undefined): void {
    const shown = JSON.stringify(host ?? '(none)').slice(0, 200)
    if (loggedHosts.has(shown) || loggedHosts.size >= LOGGED_HOSTS_MAX) return
    loggedHosts.add(shown)
    options.logger.warn(`refused a request for Host ${shown}: not loopback, an IP address or HOST; if it is your proxy's name, add it to DSH_SLACK_ALLOWED_HOSTS`)
  }

  /**
   * Checks the bearer key: who is calling and how far it reaches. A named
   * key reaches its own asks unless the operator gave it more; a service
   * without named keys has one caller, who reaches every ask.
   */
  function authenticate(req: IncomingMessage): Caller {
    const keys = options.policy?.().keys ?? []
    if (keys.length > 0) {
      const key = keyOf(req, keys)
      return { key: key.name, access: key.access ?? OWN_ASKS }
    }
    checkBearer(req, options.apiKey)
    return { access: EVERY_ASK }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const path = url.pathname
    const method = req.method ?? 'GET'
    // The front door comes before routing, so every route (and any added later) gets it.
    checkFrontDoor(door, req, path)

    if (path === '/slack/events' && options.bridge.slackRequestListener) {
      options.bridge.slackRequestListener(req, res)
      return
    }
    if (path === '/healthz') {
      allow(method, ['GET', 'HEAD'])
      const health = await healthOf(options.bridge, { local: options.local === true, draining, ...(options.policy && options.policyFromFile ? { policy: options.policy().version } : {}) })
      sendJson(res, health.status, health.body)
      return
    }
    if (path === '/metrics' && options.metrics) {
      authenticate(req)
      allow(method, ['GET'])
      const text = await options.metrics.render()
      res.writeHead(200, { 'content-type': options.metrics.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' })
      res.end(text)
      return
    }
    if (path === '/v1/openapi.json') {
      authenticate(req)
      allow(method, ['GET', 'HEAD'])
      sendJson(res, 200, openApi())
      return
    }
    if (path === '/v1/asks') {
      const caller = authenticate(req)
      allow(method, ['POST', 'GET'])
      if (method === 'GET') {
        await listAsks(options.bridge.store, url, res, Date.now(), caller)
        return
      }
      // Behind a load balancer the client retries on another instance; a thin client waits and retries.
      if (draining) throw new ApiError(503, 'UNAVAILABLE', 'the service is stopping and takes no new asks; ask again in a moment (another instance, or this one once restarted)', { 'retry-after': '5' })
      await tracked(createAsk(context, req, res, caller.key === undefined ? {} : { key: caller.key }))
      return
    }
    const events = /^\/v1\/asks\/([^/]+)\/events$/.exec(path)
    if (events) {
      const caller = authenticate(req)
      allow(method, ['GET'])
      await askEvents(options.bridge.store, decodePathPart(events[1]!), res, caller)
      return
    }
    const match = /^\/v1\/asks\/([^/]+)$/.exec(path)
    if (match) {
      const caller = authenticate(req)
      allow(method, ['GET', 'DELETE'])
      const id = decodePathPart(match[1]!)
      if (method === 'DELETE') await tracked(deleteAsk(context, id, res, caller))
      else await getAsk(context, id, url, req, res, caller)
      return
    }
    throw new ApiError(404, 'NOT_FOUND', `no route ${path}: the API is POST and GET /v1/asks, GET and DELETE /v1/asks/:id, GET /v1/asks/:id/events, GET /healthz, GET /metrics; GET /v1/openapi.json describes it`)
  }

  async function drain(): Promise<void> {
    draining = true
    while (handling.size > 0) await Promise.allSettled([...handling])
  }

  return {
    server,
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject)
        door = createFrontDoor({ bindHost: host, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}) })
        server.listen(port, bindAddress(host), () => {
          server.off('error', reject)
          const address = server.address() as AddressInfo
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
          resolve({ host: address.address, port: address.port, url: `http://${shownHost}:${address.port}` })
        })
      }),
    drain,
    close: async () => {
      outageLog.stop()
      await drain()
      await new Promise<void>((resolve) => {
        closing.abort()
        // After `closing`: a wait that ends now sees the server closing and closes its connection.
        for (const waiting of waits) waiting.abort()
        if (!server.listening) {
          resolve()
          return
        }
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
        server.close(() => {
          clearTimeout(cut)
          resolve()
        })
        server.closeIdleConnections()
      })
    },
  }
}

/** `[::1]` as people write it in URLs; listen() wants the bare address. */
function bindAddress(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1')
}

function allow(method: string, methods: string[]): void {
  if (!methods.includes(method)) throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${methods.join(' or ')}`, { allow: methods.join(', ') })
}

/**
 * A malformed %-escape is the client's mistake (400), not ours (500). An id
 * with a NUL names no ask (ours never hold one): 404 here, on every store,
 * rather than an error from a database that cannot compare it.
 */
function decodePathPart(part: string): string {
  let id: string
  try {
    id = decodeURIComponent(part)
  } catch {
    throw new ApiError(400, 'BAD_REQUEST', `the ask id in the path is not valid percent-encoding: ${JSON.stringify(part.slice(0, 100))}`)
  }
  if (id.includes('\u0000')) throw new ApiError(404, 'NOT_FOUND', `no ask ${JSON.stringify(id.slice(0, 100))}`)
  return id
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!
}
