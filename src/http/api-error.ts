import type { UserInteractionCode } from '../contract/index.js'

/** Codes the API adds to the seam's own (which it passes through as they are). */
export const API_ERROR_CODES = [
  'UNAUTHORIZED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL_ERROR',
  'BAD_HOST',
  'BAD_ORIGIN',
  'UNSUPPORTED_MEDIA_TYPE',
  'REQUEST_TIMEOUT',
  'UNAVAILABLE',
  'TOO_MANY_PENDING',
  /** The state store (PostgreSQL, the SQLite file) cannot be reached: nothing was changed; ask again after Retry-After. */
  'STATE_UNAVAILABLE',
] as const

export type ApiErrorCode = UserInteractionCode | (typeof API_ERROR_CODES)[number]

/**
 * A request the API refuses: the HTTP status and the `{ error: { code,
 * message } }` body it answers with. Thrown by the handlers, turned into a
 * response in one place (api-server.ts).
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: ApiErrorCode
  /** Extra response headers (`Allow`, `WWW-Authenticate`). */
  readonly headers: Record<string, string>

  constructor(status: number, code: ApiErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.headers = headers
  }
}
