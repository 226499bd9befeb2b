/**
 * Whether an error from a store call means the store could not be reached
 * (the database is down, restarting, or the connection to it broke), as
 * opposed to a bug or a refused write. Callers answer the first with "try
 * again in a moment" (HTTP 503 with Retry-After, a person told privately),
 * never with a 500: nothing the caller did was wrong, and a retry will work
 * once the store is back.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown }
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || isPostgresUnavailable(code) || SQLITE_UNAVAILABLE.has(code))) return true
    if (typeof message === 'string' && LOST_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true
  }
  return false
}

/** Node's codes for a socket that could not connect or broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/**
 * PostgreSQL's SQLSTATEs for "not now": class 08 (connection exception),
 * 57P01–57P03 (the server is shutting down, crashed, or not yet accepting
 * connections), 53300 (too many connections).
 */
function isPostgresUnavailable(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300'
}

/** SQLite: the file is locked by another process for longer than the busy timeout, or cannot be opened. */
const SQLITE_UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR'])

/** node-postgres reports a dropped or timed-out connection with these messages and no code. */
const LOST_CONNECTION_MESSAGES = [/Connection terminated/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i, /connection timeout/i]
