/**
 * A stand-in for a harness web host's question and approval relay, written
 * from shared/DSH-HOST.md (harness 0.1.0-rc.8) and nothing else: the relay's
 * tests talk to it exactly as they would to `dsh web`.
 *
 * What it enforces, as the host does: the loopback `Host` header, the Origin
 * and `sec-fetch-site` rules, the access cookie (when started with a secret)
 * with its failed-login limit, `Content-Type: application/json` on respond,
 * the one-way socket (any client message closes it with 1008), replay of every
 * pending request on every connect, strict answer checks and first-valid-wins.
 *
 * An approval given `arguments` is preceded by the model's tool call, a
 * `session/event` of type `tool/call` (`{ callId, name, arguments }`), as
 * harness web clients read it; session events are not replayed on reconnect.
 *
 * A host started without a secret has no login: `POST /__dsh/access` answers
 * 405 there, as a real one does.
 *
 * One fact DSH-HOST.md leaves open is the `approval/resolved` payload; it
 * follows the harness's wire schema: `{ sessionId, approvalId, outcome }`
 * with `outcome` `allowed-once | rejected | cancelled | unavailable`.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '../../src/contract/index.js'

/** How a question ended on the host. `by` says who settled it. */
export type QuestionOutcome =
  | { kind: 'answered'; answer: AskUserQuestionAnswer; by: 'client' | 'web-ui' }
  | { kind: 'cancelled'; by: 'client' | 'web-ui' | 'abort'; message?: string }
  /** The host restarted and forgot it. */
  | { kind: 'forgotten' }

/** How an approval ended on the host. */
export type ApprovalOutcome =
  | { kind: 'decided'; outcome: 'allowed-once' | 'rejected'; by: 'client' | 'web-ui' }
  | { kind: 'cancelled'; by: 'abort' }
  | { kind: 'forgotten' }

export interface ApprovalInput {
  sessionId: string
  toolName: string
  reason?: string
  callId?: string
  /**
   * The call's arguments: the host streams the model's tool call (a
   * `session/event` of type `tool/call`) before the approval it triggers.
   * Not replayed on reconnect (only pending requests are).
   */
  arguments?: string | Record<string, unknown>
}

/** Every `POST /api/respond` the host received, with what it answered. */
export interface ReceivedResponse {
  body: unknown
  status: number
  receipt?: { accepted: true } | { accepted: false; reason: 'not-pending' | 'bad-response' }
}

export interface FakeHostCounters {
  /** WebSocket connections accepted. */
  connections: number
  /** Upgrades refused (trust checks, missing cookie). */
  refusedUpgrades: number
  /** `POST /__dsh/access` calls, whatever their result. */
  loginAttempts: number
  /** Login calls that carried this host's own secret. */
  goodLogins: number
  failedLogins: number
  /** `/api/respond` calls, whatever their result (refused ones too). */
  responses: number
}

export interface FakeHostOptions {
  /** `DSH_ACCESS_SECRET`: every /api request and the upgrade then need the cookie. */
  accessSecret?: string
  /** A host name trusted besides loopback (the host's `--trusted-host`). */
  trustedHostName?: string
  /** Sends a noise frame (`session/event`) before each request frame, as a busy host does. */
  noise?: boolean
}

export interface FakeHost {
  /** `http://127.0.0.1:<port>`: what `DSH_HOST_URL` is set to. */
  readonly url: string
  readonly port: number
  readonly counters: FakeHostCounters
  readonly received: ReceivedResponse[]
  /** The headers of every upgrade request, accepted or not. */
  readonly upgradeHeaders: IncomingHttpHeaders[]
  /** A question from an agent session; `outcome` settles when anyone settles it. */
  ask(sessionId: string, questions: AskUserQuestionItem[]): { rpcId: string; outcome: Promise<QuestionOutcome> }
  /** A tool asking for permission. */
  requestApproval(input: ApprovalInput): { rpcId: string; approvalId: string; outcome: Promise<ApprovalOutcome> }
  /** The person answers in the host's web UI: an answer, `'cancel'` (dismiss all), or an approval decision. */
  answerFromWebUi(rpcId: string, answer: AskUserQuestionAnswer | 'cancel' | 'allowed-once' | 'rejected'): void
  /** The agent gives up (turn cancelled): the request is settled as cancelled. */
  abort(rpcId: string): void
  /** rpcIds still pending, in the order they were asked. */
  pending(): string[]
  /** Streams a session event (`session/event`, e.g. a `tool/call` or an `assistant/message`) to every connected client. */
  sessionEvent(sessionId: string, event: { type: string; data: unknown }): void
  /** Sends a raw text frame to every connected client (malformed and noise frames). */
  broadcastRaw(text: string): void
  /**
   * Holds the replay of pending requests on connections opened from now on
   * (a busy host replays a moment after the socket opens); the returned
   * function sends the held replays and stops holding.
   */
  holdReplay(): () => void
  /** Invalidates every issued cookie (as a host restarted with a new key does). */
  rotateAccessKey(): void
  /** Stops listening and drops every socket; `forgetPending` forgets what was pending (a real restart). */
  goDown(options?: { forgetPending?: boolean }): Promise<void>
  /** Listens again on the same port. */
  comeUp(): Promise<void>
  /** `goDown` then `comeUp`. */
  restart(options?: { forgetPending?: boolean }): Promise<void>
  /** Resolves once at least `count` clients are connected. */
  waitForConnections(count: number): Promise<void>
  /**
   * Someone archives a session in the web UI (`workspace.archiveSession`):
   * the host stream (`events.host`) gets the whole archived set, and
   * `workspace.list` answers with it from now on.
   */
  archiveSession(sessionId: string): void
  /** Sockets open on the host stream (`/api/events.host`), apart from the question stream's. */
  hostStreamConnections(): number
  close(): Promise<void>
}

type PendingRequest =
  | {
      kind: 'question'
      rpcId: string
      sessionId: string
      questions: AskUserQuestionItem[]
      settle: (outcome: QuestionOutcome) => void
    }
  | {
      kind: 'approval'
      rpcId: string
      sessionId: string
      approvalId: string
      input: ApprovalInput
      settle: (outcome: ApprovalOutcome) => void
    }

const COOKIE_NAME = 'dsh_access'
const COOKIE_MAX_AGE_S = 604_800
const FAILED_LOGIN_LIMIT = 5
const FAILED_LOGIN_WINDOW_MS = 60_000

export async function startFakeHost(options: FakeHostOptions = {}): Promise<FakeHost> {
  let accessKey = randomUUID()
  const pending = new Map<string, PendingRequest>()
  const sockets = new Set<WebSocket>()
  /** The host stream's sockets: kept apart, so the question stream's counts stay what tests assert. */
  const hostSockets = new Set<WebSocket>()
  const archived: string[] = []
  const rawSockets = new Set<Socket>()
  const failedLoginTimes: number[] = []
  const counters: FakeHostCounters = { connections: 0, refusedUpgrades: 0, loginAttempts: 0, goodLogins: 0, failedLogins: 0, responses: 0 }
  const received: ReceivedResponse[] = []
  const upgradeHeaders: IncomingHttpHeaders[] = []
  const connectionWaiters: { count: number; resolve: () => void }[] = []
  let heldReplays: Set<WebSocket> | undefined
  const wss = new WebSocketServer({ noServer: true })
  let port = 0
  let server: Server | undefined

  // ---- trust and access ----------------------------------------------------

  function hostProblem(req: IncomingMessage): string | null {
    const host = req.headers.host
    if (!host) return 'no Host header'
    const loopback = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
    const trusted = options.trustedHostName ? [options.trustedHostName, `${options.trustedHostName}:${port}`] : []
    if (!loopback.includes(host) && !trusted.includes(host)) return `untrusted Host ${host}`
    const origin = req.headers.origin
    if (origin !== undefined) {
      let authority: string | undefined
      try {
        authority = new URL(origin).host
      } catch {
        authority = undefined
      }
      if (authority !== host) return `Origin ${origin} does not match Host ${host}`
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') return 'cross-site request'
    return null
  }

  function sign(expiry: string): string {
    return createHmac('sha256', accessKey).update(expiry).digest('base64url')
  }

  function hasValidCookie(req: IncomingMessage): boolean {
    if (options.accessSecret === undefined) return true
    const cookies = (req.headers.cookie ?? '').split(';').map((part) => part.trim())
    const value = cookies.find((part) => part.startsWith(`${COOKIE_NAME}=`))?.slice(COOKIE_NAME.length + 1)
    if (!value) return false
    const [expiry, mac] = value.split('.')
    if (!expiry || !mac) return false
    const expected = Buffer.from(sign(expiry))
    const given = Buffer.from(mac)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false
    return Number(expiry) * 1000 > Date.now()
  }

  function login(body: unknown, res: ServerResponse): void {
    counters.loginAttempts += 1
    // A host started without DSH_ACCESS_SECRET has no login: the route answers 405.
    if (options.accessSecret === undefined) return sendJson(res, 405, { error: 'method not allowed' })
    const now = Date.now()
    while (failedLoginTimes.length > 0 && failedLoginTimes[0]! <= now - FAILED_LOGIN_WINDOW_MS) failedLoginTimes.shift()
    if (failedLoginTimes.length >= FAILED_LOGIN_LIMIT) return sendJson(res, 429, { error: 'too many failed logins' })
    const secret = (body as { secret?: unknown } | null)?.secret
    if (typeof secret !== 'string' || secret !== options.accessSecret) {
      counters.failedLogins += 1
      failedLoginTimes.push(now)
      return sendJson(res, 401, { error: 'wrong secret' })
    }
    counters.goodLogins += 1
    const expiry = String(Math.floor(now / 1000) + COOKIE_MAX_AGE_S)
    res.writeHead(204, {
      'set-cookie': `${COOKIE_NAME}=${expiry}.${sign(expiry)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}`,
    })
    res.end()
  }

  // ---- frames ----------------------------------------------------------------

  function frame(rpcId: string, payload: { type: string } & Record<string, unknown>): string {
    return JSON.stringify({ type: 'server-request', rpcId, method: payload.type, payload })
  }

  function requestFrame(request: PendingRequest): string {
    if (request.kind === 'question') {
      return frame(request.rpcId, { type: 'question/requested', sessionId: request.sessionId, questions: request.questions })
    }
    const { sessionId, toolName, reason, callId } = request.input
    return frame(request.rpcId, {
      type: 'approval/requested',
      sessionId,
      approvalId: request.approvalId,
      toolName,
      ...(callId !== undefined ? { callId } : {}),
      ...(reason !== undefined ? { reason } : {}),
    })
  }

  function noiseFrame(sessionId: string): string {
    return frame(randomUUID(), {
      type: 'session/event',
      sessionId,
      event: { type: 'message', seq: 1, time: Date.now(), data: { role: 'assistant', text: 'thinking…' } },
    })
  }

  let seq = 0
  function sessionEventFrame(sessionId: string, event: { type: string; data: unknown }): string {
    seq += 1
    return frame(randomUUID(), { type: 'session/event', sessionId, event: { ...event, seq, time: Date.now() } })
  }

  function broadcast(text: string): void {
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(text)
  }

  function resolve(request: PendingRequest, how: { question: QuestionOutcome } | { approval: ApprovalOutcome }): void {
    pending.delete(request.rpcId)
    if (request.kind === 'question' && 'question' in how) {
      const outcome = how.question.kind === 'answered' ? 'answered' : 'cancelled'
      broadcast(frame(randomUUID(), { type: 'question/resolved', sessionId: request.sessionId, questionRpcId: request.rpcId, outcome }))
      request.settle(how.question)
    } else if (request.kind === 'approval' && 'approval' in how) {
      const outcome = how.approval.kind === 'decided' ? how.approval.outcome : 'cancelled'
      broadcast(frame(randomUUID(), { type: 'approval/resolved', sessionId: request.sessionId, approvalId: request.approvalId, outcome }))
      request.settle(how.approval)
    } else {
      throw new Error(`fake host: ${request.rpcId} is a ${request.kind}`)
    }
  }

  // ---- answers ---------------------------------------------------------------

  /** The host's strict checks (DSH-HOST.md "Answering"); true when the answer passes. */
  function answerIsValid(questions: AskUserQuestionItem[], answer: unknown): answer is AskUserQuestionAnswer {
    const items = (answer as { answers?: unknown } | null)?.answers
    if (!Array.isArray(items) || items.length !== questions.length) return false
    return questions.every((question, index) => {
      const item = items[index] as { id?: unknown; selected?: unknown; custom?: unknown } | null
      if (typeof item !== 'object' || item === null || item.id !== question.id) return false
      if (!Array.isArray(item.selected) || !item.selected.every((label) => typeof label === 'string')) return false
      const selected = item.selected as string[]
      const labels = new Set((question.options ?? []).map((option) => option.label))
      if (!selected.every((label) => labels.has(label))) return false
      if (new Set(selected).size !== selected.length) return false
      if (item.custom !== undefined && (typeof item.custom !== 'string' || item.custom.trim() === '')) return false
      if (!question.multiSelect && (selected.length > 1 || (selected.length === 1 && item.custom !== undefined))) return false
      return true
    })
  }

  function respond(body: unknown): ReceivedResponse['receipt'] {
    const message = body as { type?: unknown; rpcId?: unknown; result?: unknown } | null
    if (message?.type !== 'client-response' || typeof message.rpcId !== 'string') return { accepted: false, reason: 'bad-response' }
    const request = pending.get(message.rpcId)
    if (!request) return { accepted: false, reason: 'not-pending' }
    const result = message.result as
      | { ok: true; value?: { sessionId?: unknown; answer?: unknown; approvalId?: unknown; outcome?: unknown } }
      | { ok: false; error?: { code?: unknown; message?: unknown; details?: unknown } }
      | null
      | undefined
    if (!result || typeof result !== 'object') return { accepted: false, reason: 'bad-response' }
    if (request.kind === 'question') {
      if (result.ok === false) {
        if (result.error?.code !== 'cancelled' || typeof result.error.message !== 'string') return { accepted: false, reason: 'bad-response' }
        resolve(request, { question: { kind: 'cancelled', by: 'client', message: result.error.message } })
        return { accepted: true }
      }
      if (result.ok !== true || result.value?.sessionId !== request.sessionId || !answerIsValid(request.questions, result.value.answer)) {
        return { accepted: false, reason: 'bad-response' }
      }
      resolve(request, { question: { kind: 'answered', answer: result.value.answer, by: 'client' } })
      return { accepted: true }
    }
    const value = result.ok === true ? result.value : undefined
    if (value?.sessionId !== request.sessionId || value.approvalId !== request.approvalId) return { accepted: false, reason: 'bad-response' }
    if (value.outcome !== 'allowed-once' && value.outcome !== 'rejected') return { accepted: false, reason: 'bad-response' }
    resolve(request, { approval: { kind: 'decided', outcome: value.outcome, by: 'client' } })
    return { accepted: true }
  }

  // ---- HTTP --------------------------------------------------------------------

  function sendJson(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }

  function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
    try {
      return { ok: true, value: JSON.parse(text) as unknown }
    } catch {
      return { ok: false }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname
    if (path === '/__dsh/access' && req.method === 'POST') {
      const parsed = parseJson(await readBody(req))
      return login(parsed.ok ? parsed.value : null, res)
    }
    if (!path.startsWith('/api/')) return sendJson(res, 404, { error: 'not found' })
    if (path === '/api/respond') counters.responses += 1
    const problem = hostProblem(req)
    if (problem) return sendJson(res, 403, { error: problem })
    if (!hasValidCookie(req)) return sendJson(res, 401, { error: 'login required' })
    if (path === '/api/events.mux' || path === '/api/events.host') return sendJson(res, 426, { error: 'upgrade required' })
    if (path === '/api/workspace.list' && req.method === 'POST') {
      await readBody(req)
      return sendJson(res, 200, { type: 'server-response', result: { ok: true, value: { items: [], archivedSessionIds: [...archived] } } })
    }
    if (path !== '/api/respond') return sendJson(res, 404, { error: 'not found' })
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' })
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (contentType !== 'application/json') {
      received.push({ body: undefined, status: 415 })
      return sendJson(res, 415, { error: 'unsupported media type' })
    }
    const parsed = parseJson(await readBody(req))
    if (!parsed.ok) {
      received.push({ body: undefined, status: 400 })
      return sendJson(res, 400, { error: 'invalid JSON' })
    }
    const receipt = respond(parsed.value)
    received.push({ body: parsed.value, status: 200, receipt })
    sendJson(res, 200, receipt)
  }

  function refuseUpgrade(socket: Socket, status: number, text: string): void {
    counters.refusedUpgrades += 1
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  }

  function onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://placeholder').pathname
    if (path === '/api/events.host') {
      // Refused as the question stream is, but not counted with it (tests count that stream's).
      if (hostProblem(req)) return void socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      if (!hasValidCookie(req)) return void socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      wss.handleUpgrade(req, socket, head, (ws) => {
        hostSockets.add(ws)
        ws.on('close', () => hostSockets.delete(ws))
        ws.on('message', () => ws.close(1008, 'clients do not send'))
      })
      return
    }
    upgradeHeaders.push({ ...req.headers })
    if (path !== '/api/events.mux') return refuseUpgrade(socket, 404, 'Not Found')
    if (hostProblem(req)) return refuseUpgrade(socket, 403, 'Forbidden')
    if (!hasValidCookie(req)) return refuseUpgrade(socket, 401, 'Unauthorized')
    wss.handleUpgrade(req, socket, head, (ws) => {
      counters.connections += 1
      sockets.add(ws)
      ws.on('close', () => sockets.delete(ws))
      // One-way: the host only sends.
      ws.on('message', () => ws.close(1008, 'clients do not send'))
      ws.send(frame(randomUUID(), { type: 'session/subscribed', sessionId: 'session-noise', lastSeq: 0 }))
      if (heldReplays) heldReplays.add(ws)
      else for (const request of pending.values()) ws.send(requestFrame(request))
      for (const waiter of [...connectionWaiters]) {
        if (sockets.size >= waiter.count) {
          connectionWaiters.splice(connectionWaiters.indexOf(waiter), 1)
          waiter.resolve()
        }
      }
    })
  }

  async function listen(): Promise<void> {
    const next = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: String(error) })
      })
    })
    next.on('upgrade', onUpgrade)
    next.on('connection', (socket) => {
      rawSockets.add(socket)
      socket.on('close', () => rawSockets.delete(socket))
    })
    await new Promise<void>((resolveListen, reject) => {
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => resolveListen())
    })
    port = (next.address() as AddressInfo).port
    server = next
  }

  async function goDown(downOptions: { forgetPending?: boolean } = {}): Promise<void> {
    const current = server
    server = undefined
    for (const socket of sockets) socket.terminate()
    sockets.clear()
    for (const socket of hostSockets) socket.terminate()
    hostSockets.clear()
    for (const socket of rawSockets) socket.destroy()
    if (current) await new Promise<void>((done) => current.close(() => done()))
    if (downOptions.forgetPending) {
      for (const request of pending.values()) {
        if (request.kind === 'question') request.settle({ kind: 'forgotten' })
        else request.settle({ kind: 'forgotten' })
      }
      pending.clear()
    }
  }

  await listen()

  return {
    get url() {
      return `http://127.0.0.1:${port}`
    },
    get port() {
      return port
    },
    counters,
    received,
    upgradeHeaders,

    ask(sessionId, questions) {
      const rpcId = randomUUID()
      let settle!: (outcome: QuestionOutcome) => void
      const outcome = new Promise<QuestionOutcome>((done) => (settle = done))
      const request: PendingRequest = { kind: 'question', rpcId, sessionId, questions: structuredClone(questions), settle }
      pending.set(rpcId, request)
      if (options.noise) broadcast(noiseFrame(sessionId))
      broadcast(requestFrame(request))
      return { rpcId, outcome }
    },

    requestApproval(input) {
      const rpcId = randomUUID()
      const approvalId = randomUUID()
      let settle!: (outcome: ApprovalOutcome) => void
      const outcome = new Promise<ApprovalOutcome>((done) => (settle = done))
      const request: PendingRequest = { kind: 'approval', rpcId, sessionId: input.sessionId, approvalId, input: { ...input }, settle }
      pending.set(rpcId, request)
      if (options.noise) broadcast(noiseFrame(input.sessionId))
      if (input.arguments !== undefined && input.callId !== undefined) {
        broadcast(sessionEventFrame(input.sessionId, { type: 'tool/call', data: { callId: input.callId, name: input.toolName, arguments: input.arguments } }))
      }
      broadcast(requestFrame(request))
      return { rpcId, approvalId, outcome }
    },

    answerFromWebUi(rpcId, answer) {
      const request = pending.get(rpcId)
      if (!request) throw new Error(`fake host: ${rpcId} is not pending`)
      if (request.kind === 'approval') {
        if (answer !== 'allowed-once' && answer !== 'rejected') throw new Error('fake host: an approval takes allowed-once or rejected')
        return resolve(request, { approval: { kind: 'decided', outcome: answer, by: 'web-ui' } })
      }
      if (answer === 'cancel') return resolve(request, { question: { kind: 'cancelled', by: 'web-ui' } })
      if (typeof answer === 'string' || !answerIsValid(request.questions, answer)) throw new Error('fake host: the web UI would not send that answer')
      resolve(request, { question: { kind: 'answered', answer, by: 'web-ui' } })
    },

    abort(rpcId) {
      const request = pending.get(rpcId)
      if (!request) return
      if (request.kind === 'question') resolve(request, { question: { kind: 'cancelled', by: 'abort' } })
      else resolve(request, { approval: { kind: 'cancelled', by: 'abort' } })
    },

    pending: () => [...pending.keys()],
    sessionEvent(sessionId, event) {
      broadcast(sessionEventFrame(sessionId, event))
    },
    broadcastRaw: broadcast,
    holdReplay() {
      const held = new Set<WebSocket>()
      heldReplays = held
      return () => {
        if (heldReplays === held) heldReplays = undefined
        for (const socket of held) if (socket.readyState === socket.OPEN) for (const request of pending.values()) socket.send(requestFrame(request))
      }
    },
    rotateAccessKey() {
      accessKey = randomUUID()
    },
    goDown,
    comeUp: listen,
    async restart(restartOptions) {
      await goDown(restartOptions)
      await listen()
    },
    waitForConnections(count) {
      if (sockets.size >= count) return Promise.resolve()
      return new Promise<void>((done) => connectionWaiters.push({ count, resolve: done }))
    },
    archiveSession(sessionId) {
      if (!archived.includes(sessionId)) archived.push(sessionId)
      const text = frame(randomUUID(), { type: 'host/archived-sessions-changed', archivedSessionIds: [...archived] })
      for (const socket of hostSockets) socket.send(text)
    },

    hostStreamConnections: () => hostSockets.size,

    async close() {
      await goDown()
      wss.close()
    },
  }
}
