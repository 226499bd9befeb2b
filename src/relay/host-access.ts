import type { HostEndpoints } from './host-url.js'
import type { HostHttp } from './host-http.js'
import { RelayError } from './relay-error.js'
import type { Scheduler } from './scheduler.js'

const COOKIE_NAME = 'dsh_access'
// Log in again this long before the cookie's Max-Age runs out, so no request
// races the expiry.
const RENEW_MARGIN_MS = 60_000
// When the host sends no Max-Age: DSH-HOST.md's observed value (7 days).
const DEFAULT_MAX_AGE_S = 604_800

export type LoginResult = { ok: true } | { ok: false; error: RelayError }

/**
 * The host's access cookie (DSH-HOST.md "Trust and access"): keeps the
 * `dsh_access` cookie and supplies the headers every request and the upgrade
 * carry. The secret is sent only after this host asked for one (a 401), so
 * it never goes to a host that runs without an access gate; a host that
 * answers the login with 404/405 has no gate, which is not a failure.
 */
export class HostAccess {
  readonly #endpoints: HostEndpoints
  readonly #secret: string | undefined
  readonly #http: HostHttp
  readonly #scheduler: Scheduler
  #cookie: { value: string; renewAt: number } | undefined
  /** The host answered 401: it runs with an access secret. */
  #gated = false
  #loggingIn: Promise<LoginResult> | undefined
  #lastFailure: RelayError | undefined

  constructor(endpoints: HostEndpoints, secret: string | undefined, http: HostHttp, scheduler: Scheduler) {
    this.#endpoints = endpoints
    this.#secret = secret
    this.#http = http
    this.#scheduler = scheduler
  }

  get hasSecret(): boolean {
    return this.#secret !== undefined
  }

  /** The last login failed and nothing has worked since (callers should not hammer the login). */
  get lastFailure(): RelayError | undefined {
    return this.#lastFailure
  }

  /** `Host` (the URL's authority; never an Origin) and, once logged in, the cookie. */
  headers(): Record<string, string> {
    const headers: Record<string, string> = { host: this.#endpoints.authority }
    if (this.#cookie) headers.cookie = `${COOKIE_NAME}=${this.#cookie.value}`
    return headers
  }

  /** The host answered 401: it wants the secret from now on. */
  markGated(): void {
    this.#gated = true
  }

  /** Whether the host has asked for the secret (and so is sent it). */
  get gated(): boolean {
    return this.#gated
  }

  /** Logs in when the host has asked for the secret and no fresh cookie is held. */
  async ensure(): Promise<LoginResult> {
    if (this.#secret === undefined || !this.#gated) return { ok: true }
    if (this.#cookie && this.#scheduler.now() < this.#cookie.renewAt) return { ok: true }
    return this.login()
  }

  /** The host refused the cookie (401): forget it so the next call logs in. */
  invalidate(): void {
    this.#cookie = undefined
  }

  /** One login at a time: concurrent callers share it. */
  login(): Promise<LoginResult> {
    this.#loggingIn ??= this.#login().finally(() => (this.#loggingIn = undefined))
    return this.#loggingIn
  }

  async #login(): Promise<LoginResult> {
    const secret = this.#secret
    if (secret === undefined) return { ok: true }
    let response
    try {
      response = await this.#http.postJson(this.#endpoints.access, { host: this.#endpoints.authority }, { secret })
    } catch (error) {
      return this.#fail(error instanceof RelayError ? error : new RelayError('HOST_UNREACHABLE', String(error), { cause: error }))
    }
    if (response.status === 401) return this.#fail(new RelayError('WRONG_SECRET', 'the host refused its DSH_HOST_ACCESS_SECRET'))
    // No login endpoint: the host runs without an access gate, so there is nothing to log in to.
    if (response.status === 404 || response.status === 405) {
      this.#gated = false
      this.#lastFailure = undefined
      return { ok: true }
    }
    if (response.status === 429) return this.#fail(new RelayError('LOGIN_RATE_LIMITED', 'too many failed logins (the host allows 5 a minute)'))
    if (response.status >= 500) return this.#fail(new RelayError('HOST_UNREACHABLE', `login answered HTTP ${response.status}`))
    const cookie = response.status < 300 ? readCookie(response.headers['set-cookie']) : undefined
    if (!cookie) return this.#fail(new RelayError('HOST_REFUSED', `login answered HTTP ${response.status} without a ${COOKIE_NAME} cookie`))
    const lifetimeMs = cookie.maxAgeS * 1000
    this.#cookie = { value: cookie.value, renewAt: this.#scheduler.now() + Math.max(lifetimeMs / 2, lifetimeMs - RENEW_MARGIN_MS) }
    this.#lastFailure = undefined
    return { ok: true }
  }

  #fail(error: RelayError): LoginResult {
    this.#cookie = undefined
    this.#lastFailure = error
    return { ok: false, error }
  }
}

function readCookie(header: string | string[] | undefined): { value: string; maxAgeS: number } | undefined {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
  for (const line of lines) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim())
    if (!pair?.startsWith(`${COOKIE_NAME}=`)) continue
    const value = pair.slice(COOKIE_NAME.length + 1)
    if (value === '') continue
    const maxAge = attributes.find((attribute) => attribute.toLowerCase().startsWith('max-age='))
    const seconds = maxAge === undefined ? NaN : Number(maxAge.slice('max-age='.length))
    return { value, maxAgeS: Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_MAX_AGE_S }
  }
  return undefined
}
