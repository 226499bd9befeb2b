import { randomUUID } from 'node:crypto'
import WebSocket from 'ws'
import { z } from 'zod'
import type { Logger } from '../log/logger.js'
import { backoffDelay, formatDelay } from './backoff.js'
import { parseFrame, type HostFrame } from './frames.js'
import { HostAccess } from './host-access.js'
import type { HostHttp } from './host-http.js'
import type { HostEndpoints } from './host-url.js'
import { RelayError } from './relay-error.js'
import { receiptSchema, type ClientResponse, type Receipt } from './responses.js'
import type { Scheduler } from './scheduler.js'
import type { RelayTiming } from './timing.js'

/** A `server-response` to `POST /api/<method>`; only `ok` and `value` are read. */
const callReplySchema = z.object({ result: z.object({ ok: z.boolean(), value: z.unknown().optional() }) })

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'waiting' | 'stopped'

export interface HostClientOptions {
  endpoints: HostEndpoints
  accessSecret?: string
  http: HostHttp
  logger: Logger
  scheduler: Scheduler
  timing: RelayTiming
  onFrame(frame: HostFrame): void
  /** A login shared with another stream of the same host (one cookie, one login budget); else its own. */
  access?: HostAccess
  /** A socket opened; `connection` counts them, so late work for an old socket can tell. */
  onConnected(connection: number): void
}

/** The outcome of one `POST /api/respond`. */
export type RespondResult =
  | { kind: 'receipt'; receipt: Receipt }
  /** No receipt; worth retrying later. */
  | { kind: 'unreachable'; error: RelayError }
  /** A status that retrying will not change (403, 415, …). */
  | { kind: 'refused'; error: RelayError }

/** Why a connection attempt ended. `loginNeeded`: the upgrade got 401 and a secret is configured. */
type Ending = { opened: boolean; error: RelayError; closeCode?: number; loginNeeded?: boolean }

/**
 * One harness host's event stream: logs in when a secret is configured,
 * opens `/api/events.mux` with the `Host` header and no `Origin`, hands each
 * parsed frame on, and reconnects with backoff, saying so in one log line per
 * change. It never sends on the socket: the host closes a socket that does.
 */
export class HostClient {
  readonly #options: HostClientOptions
  readonly #access: HostAccess
  #state: ConnectionState = 'idle'
  #socket: WebSocket | undefined
  #connections = 0
  #stopped = false
  #cancelSleep: (() => void) | undefined
  #running: Promise<void> | undefined
  /** The last failure logged at warn/error, so a repeat goes to debug. */
  #lastReported: string | undefined
  #lastError: RelayError | undefined

  constructor(options: HostClientOptions) {
    this.#options = options
    this.#access = options.access ?? new HostAccess(options.endpoints, options.accessSecret, options.http, options.scheduler)
  }

  /** This host's login, for a second stream to share. */
  get access(): HostAccess {
    return this.#access
  }

  get state(): ConnectionState {
    return this.#state
  }

  get connected(): boolean {
    return this.#state === 'connected'
  }

  /** The last reason the connection failed, while it is not connected. */
  get lastError(): RelayError | undefined {
    return this.#state === 'connected' ? undefined : this.#lastError
  }

  start(): void {
    this.#running ??= this.#run()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#cancelSleep?.()
    // terminate, not close: a close frame is the only thing we would ever send.
    this.#socket?.terminate()
    await this.#running
    this.#state = 'stopped'
  }

  /**
   * Sends a response. A 401 means the cookie expired or the host restarted
   * with a new key: log in again and retry once.
   */
  async respond(body: ClientResponse): Promise<RespondResult> {
    let result = await this.#postRespond(body)
    if (result.kind === 'unauthorized') {
      this.#access.invalidate()
      this.#access.markGated()
      const login = await this.#login()
      if (!login.ok) return { kind: 'unreachable', error: login.error }
      result = await this.#postRespond(body)
    }
    if (result.kind === 'unauthorized') return { kind: 'unreachable', error: new RelayError('HOST_REFUSED', 'the host refused the access cookie') }
    return result
  }

  /**
   * Another call of the host's API (`POST /api/<method>` with a
   * `client-request` envelope, DSH-HOST.md): resolves with the result's
   * value, or throws a `RelayError` (unreachable, refused, or an error result).
   */
  async call(method: string, payload: unknown): Promise<unknown> {
    const login = await this.#login()
    if (!login.ok) throw login.error
    const body = { type: 'client-request', rpcId: randomUUID(), method, payload }
    const response = await this.#options.http.postJson(`${this.#options.endpoints.api}/${method}`, this.#access.headers(), body)
    if (response.status !== 200) throw new RelayError(response.status >= 500 ? 'HOST_UNREACHABLE' : 'HOST_REFUSED', `${method} answered HTTP ${response.status}`)
    let json: unknown
    try {
      json = JSON.parse(response.text)
    } catch {
      throw new RelayError('HOST_REFUSED', `${method} answered something that is not JSON`)
    }
    const reply = callReplySchema.safeParse(json)
    if (!reply.success) throw new RelayError('HOST_REFUSED', `${method} answered something that is not a server-response`)
    if (!reply.data.result.ok) throw new RelayError('HOST_REFUSED', `${method} failed on the host`)
    return reply.data.result.value
  }

  async #login(): Promise<{ ok: true } | { ok: false; error: RelayError }> {
    // After a wrong secret or a 429 only the connect loop logs in, with its
    // backoff; a burst of answers must not spend the host's login budget.
    const last = this.#access.lastFailure
    if (last && last.code !== 'HOST_UNREACHABLE') return { ok: false, error: last }
    return this.#access.ensure()
  }

  async #postRespond(body: ClientResponse): Promise<RespondResult | { kind: 'unauthorized' }> {
    const login = await this.#login()
    if (!login.ok) return { kind: 'unreachable', error: login.error }
    let response
    try {
      response = await this.#options.http.postJson(this.#options.endpoints.respond, this.#access.headers(), body)
    } catch (error) {
      return { kind: 'unreachable', error: error instanceof RelayError ? error : new RelayError('HOST_UNREACHABLE', String(error), { cause: error }) }
    }
    if (response.status === 401 && this.#access.hasSecret) return { kind: 'unauthorized' }
    if (response.status === 429 || response.status >= 500) {
      return { kind: 'unreachable', error: new RelayError('HOST_UNREACHABLE', `respond answered HTTP ${response.status}`) }
    }
    if (response.status !== 200) {
      return { kind: 'refused', error: new RelayError('HOST_REFUSED', `respond answered HTTP ${response.status}${hint(response.status, this.#access.hasSecret)}`) }
    }
    let json: unknown
    try {
      json = JSON.parse(response.text)
    } catch {
      json = undefined
    }
    const receipt = receiptSchema.safeParse(json)
    if (!receipt.success) return { kind: 'refused', error: new RelayError('HOST_REFUSED', 'respond answered something that is not a receipt') }
    return { kind: 'receipt', receipt: receipt.data }
  }

  async #run(): Promise<void> {
    const { scheduler, timing, logger, endpoints } = this.#options
    let attempt = 0
    while (!this.#stopped) {
      if (this.#lastReported === undefined) logger.info(`relay ${endpoints.base}: connecting`)
      else logger.debug(`relay ${endpoints.base}: connecting (attempt ${attempt + 1})`)
      this.#state = 'connecting'
      const ending = await this.#connectOnce()
      if (this.#stopped) break
      if (ending.opened) attempt = 0
      this.#lastError = ending.error
      let delay = backoffDelay(attempt, { initialMs: timing.backoffInitialMs, maxMs: timing.backoffMaxMs }, scheduler.random)
      attempt += 1
      // Logging in again before the host's window has passed only earns more 429s.
      if (ending.error.code === 'LOGIN_RATE_LIMITED') delay = Math.max(delay, timing.loginRateWindowMs)
      // A refused secret is a configuration error: retrying soon would only
      // spend the host's 5-a-minute login budget, which the person's own
      // browser shares. Try again after minutes, in case the host changed.
      if (ending.error.code === 'WRONG_SECRET') delay = Math.max(delay, timing.wrongSecretRetryMs)
      this.#report(ending, delay)
      this.#state = 'waiting'
      await this.#sleep(delay)
    }
  }

  #report(ending: Ending, delay: number): void {
    const { logger, endpoints } = this.#options
    const key = `${ending.error.code}:${ending.error.message}`
    const line = `relay ${endpoints.base}: ${describeEnding(ending)}; retrying in ${formatDelay(delay)}`
    if (key === this.#lastReported) return logger.debug(line)
    this.#lastReported = key
    const serious = ending.error.code === 'WRONG_SECRET' || ending.error.code === 'SECRET_REQUIRED' || ending.error.code === 'HOST_REFUSED'
    if (serious) logger.error(line)
    else logger.warn(line)
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.#options.scheduler.after(ms, () => {
        this.#cancelSleep = undefined
        resolve()
      })
      this.#cancelSleep = () => {
        cancel()
        this.#cancelSleep = undefined
        resolve()
      }
    })
  }

  async #connectOnce(): Promise<Ending> {
    const login = await this.#access.ensure()
    if (!login.ok) return { opened: false, error: login.error }
    if (this.#stopped) return { opened: false, error: new RelayError('HOST_UNREACHABLE', 'stopped') }
    const ending = await new Promise<Ending>((resolve) => this.#open(resolve))
    if (!ending.loginNeeded || this.#stopped) return ending
    // The host just asked for the secret: log in and upgrade again at once.
    const again = await this.#access.ensure()
    if (!again.ok) return { opened: false, error: again.error }
    if (this.#stopped) return ending
    return new Promise<Ending>((resolve) => this.#open(resolve))
  }

  #open(resolve: (ending: Ending) => void): void {
    const { endpoints, timing, logger } = this.#options
    // No `origin` option: ws then sends no Origin header, which the host accepts.
    const socket = new WebSocket(endpoints.events, {
      headers: this.#access.headers(),
      handshakeTimeout: timing.handshakeTimeoutMs,
      perMessageDeflate: false,
      followRedirects: false,
    })
    this.#socket = socket
    let opened = false
    let failure: RelayError | undefined
    let loginNeeded = false
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0
      response.resume()
      if (status === 401) {
        // Sent with a cookie: it expired or the host's key changed. Sent without: the host has a gate.
        loginNeeded = this.#access.hasSecret && !this.#access.headers().cookie
        this.#access.invalidate()
        this.#access.markGated()
        failure = this.#access.hasSecret
          ? new RelayError('HOST_UNREACHABLE', loginNeeded ? 'the host asks for its access secret; logging in' : 'the host refused the access cookie; logging in again')
          : new RelayError('SECRET_REQUIRED', 'the host requires an access secret: set DSH_HOST_ACCESS_SECRET (one entry per host of DSH_HOST_URL)')
      } else if (status === 429 || status >= 500) {
        failure = new RelayError('HOST_UNREACHABLE', `the upgrade answered HTTP ${status}`)
      } else {
        failure = new RelayError('HOST_REFUSED', `the host refused the connection: HTTP ${status}${hint(status, this.#access.hasSecret)}`)
      }
      // With this listener ws leaves the handshake hanging; terminate ends it with 'close'.
      socket.terminate()
    })
    socket.on('open', () => {
      opened = true
      this.#connections += 1
      this.#state = 'connected'
      this.#lastReported = undefined
      this.#lastError = undefined
      logger.info(`relay ${endpoints.base}: connected`)
      this.#options.onConnected(this.#connections)
    })
    socket.on('message', (data, isBinary) => {
      if (isBinary) return logger.warn(`relay ${endpoints.base}: skipped a binary frame`)
      this.#onText(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'))
    })
    socket.on('error', (error) => {
      failure ??= new RelayError('HOST_UNREACHABLE', errorText(error), { cause: error })
    })
    socket.on('close', (code, reason) => {
      if (this.#socket === socket) this.#socket = undefined
      const error = opened
        ? new RelayError('HOST_UNREACHABLE', `disconnected: ${describeClose(code, reason.toString('utf8'))}`)
        : (failure ?? new RelayError('HOST_UNREACHABLE', 'the connection closed before it opened'))
      resolve({ opened, error, closeCode: code, ...(loginNeeded ? { loginNeeded } : {}) })
    })
  }

  #onText(text: string): void {
    const { logger, endpoints } = this.#options
    const parsed = parseFrame(text)
    if (parsed.ok) return this.#options.onFrame(parsed.frame)
    if (parsed.ignored) return logger.debug(`relay ${endpoints.base}: ignored a ${parsed.method} frame`)
    logger.warn(`relay ${endpoints.base}: skipped a frame: ${parsed.problem}`)
  }
}

// The close codes a host's socket ends with in practice (RFC 6455 §7.4.1).
const CLOSE_REASONS: Record<number, string> = {
  1000: 'the host closed the connection',
  1001: 'the host is shutting down',
  1006: 'the connection was lost',
  1008: 'the host closed the connection for a policy violation',
  1011: 'the host hit an internal error',
}

function describeClose(code: number, reason: string): string {
  const what = CLOSE_REASONS[code] ?? 'the connection closed'
  return `${what} (${code}${reason ? `: ${reason}` : ''})`
}

function errorText(error: Error): string {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? `${code} (${error.message})` : error.message
}

function describeEnding(ending: Ending): string {
  const { error } = ending
  switch (error.code) {
    case 'WRONG_SECRET':
      return "login failed: wrong secret (check this host's entry in DSH_HOST_ACCESS_SECRET, then restart the relay)"
    case 'LOGIN_RATE_LIMITED':
      return `login refused: ${error.message}`
    case 'SECRET_REQUIRED':
      return error.message
    case 'HOST_REFUSED':
      return error.message
    case 'HOST_UNREACHABLE':
      if (ending.opened) return error.message
      return `cannot reach the host: ${error.message}`
    default: {
      const unknown: never = error.code
      return unknown
    }
  }
}

function hint(status: number, hasSecret: boolean): string {
  if (status === 403) return ' (the Host header is not trusted: use a loopback DSH_HOST_URL such as http://127.0.0.1:<port>, or start the host with a trusted host name)'
  if (status === 401 && !hasSecret) return ' (the host requires an access secret: set DSH_HOST_ACCESS_SECRET, one entry per host of DSH_HOST_URL)'
  return ''
}
