import { ErrorCode, type WebAPICallError } from '@slack/web-api'

/**
 * A Web API call that failed, with Slack's own error string (`channel_not_found`,
 * `ratelimited`, `http_500`, `request_failed`, …). Internal: where it reaches
 * the provider it becomes a `UserInteractionError('SLACK_API_ERROR', …)`.
 */
export class SlackCallError extends Error {
  readonly method: string
  /** Slack's error code, or our name for a transport failure. */
  readonly slackError: string
  /** Seconds Slack asked us to wait (`ratelimited` only). */
  readonly retryAfterSeconds?: number

  constructor(method: string, slackError: string, detail: string, options?: ErrorOptions & { retryAfterSeconds?: number }) {
    super(`${method} failed: ${slackError}${detail ? ` (${detail})` : ''}`, options)
    this.name = 'SlackCallError'
    this.method = method
    this.slackError = slackError
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds
  }
}

/** Seconds to wait when Slack answered 429 (1 when it named none); undefined for any other failure. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof SlackCallError && error.slackError === 'ratelimited' ? error.retryAfterSeconds ?? 1 : undefined
}

function isWebApiError(error: unknown): error is WebAPICallError {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined
  return typeof code === 'string' && code.startsWith('slack_webapi_')
}

/** Wraps whatever a Web API call threw into a `SlackCallError` naming Slack's error. */
export function toSlackCallError(method: string, error: unknown): SlackCallError {
  if (error instanceof SlackCallError) return error
  if (isWebApiError(error)) {
    switch (error.code) {
      case ErrorCode.PlatformError: {
        const messages = error.data.response_metadata?.messages
        return new SlackCallError(method, error.data.error, messages?.slice(0, 3).join('; ') ?? '', { cause: error })
      }
      case ErrorCode.RateLimitedError:
        return new SlackCallError(method, 'ratelimited', `retry after ${error.retryAfter}s`, { cause: error, retryAfterSeconds: error.retryAfter })
      case ErrorCode.HTTPError:
        return new SlackCallError(method, `http_${error.statusCode}`, error.statusMessage, { cause: error })
      case ErrorCode.RequestError:
        return new SlackCallError(method, 'request_failed', error.original.message, { cause: error })
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return new SlackCallError(method, 'request_failed', message, { cause: error })
}

/** Told of every Web API call once it finished: Slack's error (`ratelimited`, `channel_not_found`, …) when it failed. */
export type SlackCallObserver = (method: string, slackError: string | undefined) => void

/** Runs one Web API call; whatever it throws comes out as a `SlackCallError` naming `method`. */
export async function callSlack<T>(method: string, run: () => Promise<T>, observe?: SlackCallObserver): Promise<T> {
  try {
    const result = await run()
    observe?.(method, undefined)
    return result
  } catch (error) {
    const failure = toSlackCallError(method, error)
    observe?.(method, failure.slackError)
    throw failure
  }
}
