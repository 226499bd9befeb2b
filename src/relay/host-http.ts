import { Agent, request } from 'undici'
import { RelayError } from './relay-error.js'

/** What the relay needs of HTTP: JSON POSTs with explicit headers (the host checks `Host`). */
export interface HostHttp {
  /** Throws a `RelayError` `HOST_UNREACHABLE` when no response arrives. */
  postJson(url: string, headers: Record<string, string>, body: unknown): Promise<HostHttpResponse>
  close(): Promise<void>
}

export interface HostHttpResponse {
  status: number
  /** Lower-case names; `set-cookie` may repeat. */
  headers: Record<string, string | string[] | undefined>
  text: string
}

// Failures where the request certainly never reached the host.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])

function errorCode(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code
  if (typeof own === 'string') return own
  const cause = (error as { cause?: unknown } | null)?.cause
  return cause === undefined ? undefined : errorCode(cause)
}

/**
 * undici's `request` rather than `fetch`: it lets the `Host` header be set
 * explicitly and exposes every `set-cookie`. Its own connection pool, closed
 * with the relay, so no keep-alive socket outlives it.
 */
export function createHostHttp(timeoutMs: number): HostHttp {
  const dispatcher = new Agent({ connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
  return {
    async postJson(url, headers, body) {
      try {
        const response = await request(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          dispatcher,
        })
        const text = await response.body.text()
        return { status: response.statusCode, headers: response.headers, text }
      } catch (error) {
        const code = errorCode(error)
        throw new RelayError('HOST_UNREACHABLE', code ?? (error instanceof Error ? error.message : String(error)), {
          cause: error,
          maybeDelivered: code === undefined || !NOT_SENT.has(code),
        })
      }
    },
    close: () => dispatcher.close(),
  }
}
