/**
 * Why talking to a harness host failed. The codes are declared once and the
 * union derived, as for the seam's errors; log lines and tests key on them.
 */
export const RELAY_ERROR_CODES = [
  /** No connection, a reset, a timeout, a 5xx: retried. */
  'HOST_UNREACHABLE',
  /** `DSH_HOST_ACCESS_SECRET` is wrong (401 on login). */
  'WRONG_SECRET',
  /** The host runs with an access secret and none is configured. */
  'SECRET_REQUIRED',
  /** Too many failed logins (429): the host's limit is 5 a minute. */
  'LOGIN_RATE_LIMITED',
  /** The host refused the request for good (403 trust checks, 415, …). */
  'HOST_REFUSED',
] as const

export type RelayErrorCode = (typeof RELAY_ERROR_CODES)[number]

export class RelayError extends Error {
  readonly code: RelayErrorCode
  /**
   * For `HOST_UNREACHABLE`: whether the request may have reached the host
   * before the failure (a reset after sending), so a later `not-pending`
   * receipt may be our own earlier answer.
   */
  readonly maybeDelivered: boolean

  constructor(code: RelayErrorCode, message: string, options?: ErrorOptions & { maybeDelivered?: boolean }) {
    super(message, options)
    this.name = 'RelayError'
    this.code = code
    this.maybeDelivered = options?.maybeDelivered ?? false
  }
}
