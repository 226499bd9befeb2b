import { askThroughService } from '../client/ask-through-service.js'
import { ServiceCallError, ServiceHttp } from '../client/service-http.js'
import { isUserInteractionError } from '../contract/index.js'
import type { AskOutcome } from './ask-outcome.js'
import { outcomeOfCode } from './ask-outcome.js'

export interface AskViaServiceOptions {
  /** Base URL of a running `dsh-slack serve`, e.g. http://127.0.0.1:3000. */
  url: string
  apiKey?: string
  /** The request JSON as read; `channel` and `timeoutMs` override its own. */
  request: Record<string, unknown>
  channel?: string
  timeoutMs?: number
  /** Ctrl-C: withdraw the ask (DELETE) and stop. */
  interrupt: AbortSignal
  /** Progress lines for a person (stderr). */
  log: (line: string) => void
}

/**
 * `dsh-slack ask --url`: the library's thin client (src/client) with
 * progress on stderr. The request goes as read, so the service judges it
 * with the seam's codes. A failure of the service itself (unreachable,
 * wrong key) is thrown and ends the command with exit 1.
 */
export async function askViaService(options: AskViaServiceOptions): Promise<AskOutcome> {
  const http = new ServiceHttp(options.url, options.apiKey)
  const body = { ...options.request }
  if (options.channel !== undefined) body.channel = options.channel
  if (options.timeoutMs !== undefined) body.timeoutMs = options.timeoutMs
  try {
    const answer = await askThroughService({
      http,
      body,
      signal: options.interrupt,
      progress: {
        posted: (ask) => options.log(`asked in ${ask.channel ?? 'Slack'}${ask.permalink ? ` (${ask.permalink})` : ''}; waiting for an answer…`),
        retrying: (reason) => options.log(`${reason}; retrying…`),
        withdrawn: (id, outcome) =>
          options.log('failed' in outcome ? `could not withdraw ask ${id} (${outcome.failed}); it stays open in Slack` : outcome.status === 'aborted' ? `withdrew ask ${id}` : `ask ${id} was already ${outcome.status}`),
      },
    })
    return { kind: 'answered', answer }
  } catch (error) {
    if (isUserInteractionError(error)) return outcomeOfCode(error.code, error.message)
    // A body over the service's limit is the request's fault, like a bad one.
    if (error instanceof ServiceCallError && error.status === 413) return { kind: 'failed', status: 'invalid', code: error.code, message: error.message }
    // The service's words are for HTTP clients ("send Authorization: …"); a person at the CLI passes a flag.
    if (error instanceof ServiceCallError && error.code === 'UNAUTHORIZED') throw new ServiceCallError(error.code, keyAdvice(options.url, options.apiKey !== undefined), error.status, { cause: error })
    throw error
  }
}

function keyAdvice(url: string, keyGiven: boolean): string {
  return keyGiven
    ? `the service at ${url} refused the API key (from --api-key or DSH_SLACK_API_KEY): it is not the DSH_SLACK_API_KEY the service was started with`
    : `the service at ${url} needs an API key: pass --api-key KEY, or set DSH_SLACK_API_KEY to the key the service was started with`
}
