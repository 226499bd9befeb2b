import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { USER_INTERACTION_CODES, UserInteractionError, type AskUserQuestionAnswer, type UserInteractionCode } from '../contract/index.js'
import { TIMING } from '../slack/timing.js'
import { ServiceCallError, type AskState, type CreatedAsk, type ServiceHttp } from './service-http.js'

/** Progress a person may want to see (the CLI prints it on stderr; the library logs it at debug). */
export interface AskProgress {
  posted?(ask: CreatedAsk): void
  /** The service could not be reached or is restarting; asking again after a pause. */
  retrying?(reason: string): void
  /** The withdrawal on abort: the ask's status afterwards, or why it failed. */
  withdrawn?(id: string, outcome: { status: string } | { failed: string }): void
}

export interface AskThroughServiceOptions {
  http: ServiceHttp
  /** The `POST /v1/asks` body, sent as it is: the service validates it with the seam's codes. */
  body: Record<string, unknown>
  /** Withdraws the ask (`DELETE`) and rejects with `ASK_ABORTED`. */
  signal?: AbortSignal
  progress?: AskProgress
}

/**
 * One ask through a running service: `POST /v1/asks`, then long-polls until
 * it settles, through service restarts (a service keeps its open asks), and
 * settles exactly as the in-process bridge does: the answer, or the
 * `UserInteractionError` the settlement names (`ASK_CANCELLED`,
 * `ASK_EXPIRED`, `ASK_ABORTED`, `SLACK_API_ERROR`, a validation code). A
 * failure of the service itself is a `ServiceCallError`.
 */
export async function askThroughService(options: AskThroughServiceOptions): Promise<AskUserQuestionAnswer> {
  const { http, signal, progress } = options
  if (signal?.aborted) throw new UserInteractionError('ASK_ABORTED', 'the request was aborted before it was asked')
  // The POST itself is never aborted: cut short, the service might post the
  // question anyway and nobody would withdraw it. An abort meanwhile
  // withdraws it once its id is known. One key for every try: a POST that
  // reached the service before the connection broke (or the answer timed
  // out) is answered with its ask when sent again, never posted twice, so
  // every failure that might be passing is worth another try.
  // A service never reached (the first try refused, no such host) is a
  // wrong URL or no service: said at once. Once it has answered or a try
  // broke mid-way, it is a service restarting or an outage: the client waits.
  const key = randomUUID()
  let reached = false
  const created = await retrying(
    () =>
      http.create(options.body, key).catch((error: unknown) => {
        if (!(error instanceof ServiceCallError) || error.mayHaveReachedService) reached = true
        throw error
      }),
    { retryWhen: (error) => error.retryable && reached, what: 'the question was not posted', ...(progress ? { progress } : {}) },
  )
  progress?.posted?.(created)
  if (signal?.aborted) return settledOrThrow(await withdraw(http, created.id, progress))

  const state = await retrying(() => http.state(created.id, TIMING.longPollMaxSeconds, signal), {
    retryWhen: (error) => error.retryable,
    until: (polled) => polled.status !== 'pending',
    what: `ask ${created.id} may still be open`,
    ...(signal ? { signal } : {}),
    ...(progress ? { progress } : {}),
  }).catch(async (error: unknown) => {
    if (signal?.aborted) return withdraw(http, created.id, progress)
    if (error instanceof ServiceCallError && error.status === 404) {
      throw new UserInteractionError('ASK_ABORTED', `the service at ${http.base} no longer knows ask ${created.id} (restarted without its state? keep DSH_SLACK_STATE on disk or in PostgreSQL)`)
    }
    throw error
  })
  return settledOrThrow(state)
}

interface RetryOptions<T> {
  retryWhen: (error: ServiceCallError) => boolean
  /** Repeat the call (without pausing) until this holds; default: the first result. */
  until?: (result: T) => boolean
  what?: string
  signal?: AbortSignal
  progress?: AskProgress
}

/** Repeats `call` through a lost service, pausing a little longer each time, for up to TIMING.serviceGiveUpAfterMs. */
async function retrying<T>(call: () => Promise<T>, options: RetryOptions<T>): Promise<T> {
  let failingSince: number | undefined
  let delay: number = TIMING.serviceRetryFirstMs
  for (;;) {
    try {
      const result = await call()
      failingSince = undefined
      delay = TIMING.serviceRetryFirstMs
      if (!options.until || options.until(result)) return result
    } catch (error) {
      if (options.signal?.aborted || !(error instanceof ServiceCallError) || !options.retryWhen(error)) throw error
      failingSince ??= Date.now()
      if (Date.now() - failingSince > TIMING.serviceGiveUpAfterMs) {
        throw new ServiceCallError(error.code, `${error.message}; gave up after ${TIMING.serviceGiveUpAfterMs / 60_000} minutes${options.what ? ` (${options.what})` : ''}`, error.status, { cause: error })
      }
      options.progress?.retrying?.(error.message)
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : {}).catch(() => undefined)
      if (options.signal?.aborted) throw error
      delay = Math.min(delay * 2, TIMING.serviceRetryMaxMs)
    }
  }
}

/** `DELETE`: the message says the agent withdrew the question. A settled ask keeps its own outcome. */
async function withdraw(http: ServiceHttp, id: string, progress: AskProgress | undefined): Promise<AskState> {
  try {
    const { status } = await http.withdraw(id)
    progress?.withdrawn?.(id, { status })
    // Settled a moment before the abort: that outcome stands, as in-process.
    if (status !== 'aborted') return await http.state(id, 0)
  } catch (error) {
    progress?.withdrawn?.(id, { failed: error instanceof Error ? error.message : String(error) })
  }
  return { id, status: 'aborted', error: { code: 'ASK_ABORTED', message: 'the question was withdrawn' } }
}

const isSeamCode = (code: string): code is UserInteractionCode => (USER_INTERACTION_CODES as readonly string[]).includes(code)

/** The settled state as `ask()`'s result: the same mapping as the bridge's answerOrError. */
function settledOrThrow(state: AskState): AskUserQuestionAnswer {
  if (state.status === 'answered' && state.answer) return state.answer
  if (state.error && isSeamCode(state.error.code)) throw new UserInteractionError(state.error.code, state.error.message)
  throw new UserInteractionError('ASK_ABORTED', state.error?.message ?? `the question was closed (${state.status})`)
}
