import { z } from 'zod'
import { scrubSecrets } from '../log/scrub.js'
import { TIMING } from '../slack/timing.js'
import { HarnessError, USER_INTERACTION_CODES, UserInteractionError, type AskUserQuestionAnswer } from '../contract/index.js'

/** The part of `POST /v1/asks`'s 201 body a client uses (ARCHITECTURE.md, fixed). */
const createdSchema = z.looseObject({ id: z.string(), channel: z.string().optional(), ts: z.string().optional(), permalink: z.string().optional() })

/** `GET /v1/asks/:id` (ARCHITECTURE.md, fixed). The answer is the seam's shape, checked by the service that settled it. */
const stateSchema = z.looseObject({
  id: z.string(),
  status: z.enum(['pending', 'answered', 'cancelled', 'aborted', 'expired', 'failed']),
  answer: z.looseObject({ answers: z.array(z.looseObject({ id: z.string() })) }).optional(),
  answeredBy: z.looseObject({ id: z.string(), name: z.string().optional() }).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
})

const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) })

export type CreatedAsk = z.infer<typeof createdSchema>
/** An ask's state as the service reports it. */
export interface AskState {
  id: string
  status: z.infer<typeof stateSchema>['status']
  answer?: AskUserQuestionAnswer
  answeredBy?: { id: string; name?: string }
  error?: { code: string; message: string }
}

/**
 * Why a call to the service failed before it said anything about the ask:
 * it could not be reached (`SERVICE_UNREACHABLE`), or answered with an error
 * of its own (`UNAUTHORIZED`, `PAYLOAD_TOO_LARGE`, `INTERNAL_ERROR`, an
 * `HTTP_<status>`). A `HarnessError`, so a harness keeps `{ name, code }`;
 * the seam's own codes come out as `UserInteractionError`s instead.
 */
export class ServiceCallError extends HarnessError {
  /** The HTTP status, when the service answered. */
  readonly status: number | undefined

  constructor(code: string, message: string, status?: number, options?: ErrorOptions) {
    super(message, code, options)
    this.status = status
  }

  /**
   * Whether the request may have reached a service: it answered, or the
   * connection broke or timed out after it was made. A refused connection,
   * an unknown host or a port fetch will not use never left this process:
   * at the first POST that is a wrong URL or no service there, which is
   * said at once rather than after minutes of retries.
   */
  get mayHaveReachedService(): boolean {
    if (this.status !== undefined) return true
    for (let cause: unknown = this.cause, depth = 0; cause !== undefined && cause !== null && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
      const { code, name } = cause as { code?: unknown; name?: unknown }
      if (typeof code === 'string' && AFTER_CONNECTING.has(code)) return true
      if (name === 'TimeoutError') return true
    }
    return false
  }

  /** A network failure or a status a restart produces (502/503/504): worth asking again. */
  get retryable(): boolean {
    return this.status === undefined || this.status === 502 || this.status === 503 || this.status === 504
  }
}

/** What the service's error body says, as the error the in-process bridge would have thrown. */
export function errorFromResponse(status: number, body: unknown): UserInteractionError | ServiceCallError {
  const parsed = errorBodySchema.safeParse(body)
  if (!parsed.success) return new ServiceCallError(`HTTP_${status}`, `HTTP_${status}: the service answered ${status} without an error body`, status)
  const { code, message } = parsed.data.error
  if ((USER_INTERACTION_CODES as readonly string[]).includes(code)) return new UserInteractionError(code as (typeof USER_INTERACTION_CODES)[number], message)
  return new ServiceCallError(code, `${code}: ${message}`, status)
}

/** Failures of a connection that was made: the request may have been received. */
const AFTER_CONNECTING = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CLOSED'])

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}

/**
 * The three calls of the HTTP API a thin client makes, each response parsed
 * where it arrives. Nothing here retries: that is the caller's decision
 * (a repeated POST could post the question twice).
 */
export class ServiceHttp {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:3000. */
  readonly base: string
  readonly #headers: Record<string, string>

  constructor(url: string, apiKey?: string) {
    this.base = url.replace(/\/+$/, '')
    this.#headers = { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) }
  }

  /**
   * `POST /v1/asks` → the created ask; an invalid request rejects with the
   * seam's code. With `idempotencyKey`, sending it again (after a timeout or
   * a broken connection) answers with the same ask instead of posting twice.
   * No answer within the service's own limit plus a grace is a
   * `SERVICE_UNREACHABLE` (a frozen instance holds the connection open).
   */
  async create(body: Record<string, unknown>, idempotencyKey?: string): Promise<CreatedAsk> {
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}
    const response = await this.#fetch('/v1/asks', { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(TIMING.postAnswerWithinMs + TIMING.serviceResponseGraceMs) }, headers)
    const json = await response.json().catch(() => undefined)
    if (response.status !== 201) throw errorFromResponse(response.status, json)
    return this.#parse(createdSchema, json, 'POST /v1/asks')
  }

  /** `GET /v1/asks/:id?wait=` → the state once settled, or still pending after `waitSeconds`. */
  async state(id: string, waitSeconds: number, signal?: AbortSignal): Promise<AskState> {
    // A frozen instance keeps the connection open without ever answering: give up a while after the wait and ask again.
    const timeout = AbortSignal.timeout(waitSeconds * 1000 + TIMING.serviceResponseGraceMs)
    const response = await this.#fetch(`/v1/asks/${encodeURIComponent(id)}${waitSeconds > 0 ? `?wait=${waitSeconds}` : ''}`, { method: 'GET', signal: signal ? AbortSignal.any([signal, timeout]) : timeout }, {}, signal)
    const json = await response.json().catch(() => undefined)
    if (response.status !== 200) throw errorFromResponse(response.status, json)
    return this.#parse(stateSchema, json, 'GET /v1/asks/:id') as unknown as AskState
  }

  /** `DELETE /v1/asks/:id` → the status after withdrawing (a settled ask keeps its own). */
  async withdraw(id: string): Promise<{ status: AskState['status'] }> {
    const response = await this.#fetch(`/v1/asks/${encodeURIComponent(id)}`, { method: 'DELETE' })
    const json = await response.json().catch(() => undefined)
    if (response.status !== 200) throw errorFromResponse(response.status, json)
    return this.#parse(z.looseObject({ status: stateSchema.shape.status }), json, 'DELETE /v1/asks/:id')
  }

  /** `caller`: the caller's own abort (rethrown as it is); any other failure, a timeout included, is SERVICE_UNREACHABLE. */
  async #fetch(path: string, init: RequestInit, headers: Record<string, string> = {}, caller?: AbortSignal): Promise<Response> {
    let response: Response
    try {
      // Never followed: a redirect to another origin would carry the question
      // (and, on a 307, the whole POST) somewhere the caller never named.
      response = await fetch(`${this.base}${path}`, { ...init, headers: { ...this.#headers, ...headers }, redirect: 'manual' })
    } catch (error) {
      if (caller?.aborted) throw error
      throw new ServiceCallError('SERVICE_UNREACHABLE', `cannot reach ${this.base} (${causeOf(error)}): is \`dsh-slack serve\` running there?`, undefined, { cause: error })
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined)
      const location = response.headers.get('location')
      throw new ServiceCallError('REDIRECTED', `${this.base} answered ${response.status} with a redirect${location ? ` to ${scrubSecrets(location)}` : ''}, which is not followed: give the service's own address (the one it prints at start)`, response.status)
    }
    return response
  }

  #parse<T>(schema: z.ZodType<T>, json: unknown, call: string): T {
    const result = schema.safeParse(json)
    if (!result.success) throw new ServiceCallError('BAD_RESPONSE', `${call} answered something that is not dsh-slack's API (${result.error.issues[0]?.message ?? 'malformed'}): is ${this.base} a dsh-slack service?`)
    return result.data
  }
}
