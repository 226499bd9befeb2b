import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AskOrigin } from '../bridge/ask-policy.js'
import type { AskLimits } from '../policy/operator-policy.js'
import type { SlackBridge } from '../bridge/types.js'
import type { AskUserQuestionRequest } from '../contract/index.js'
import { isUserInteractionError } from '../contract/index.js'
import type { Logger } from '../log/logger.js'
import type { AskRecord } from '../store/ask-record.js'
import { TIMING } from '../slack/timing.js'
import { ApiError } from './api-error.js'
import { askCreatedResponse, askStateResponse } from './ask-response.js'
import { parseCreateAskBody } from './create-ask-body.js'
import { readJsonBody } from './read-json-body.js'
import { sendJson } from './send-json.js'

export interface AskHandlerContext {
  bridge: SlackBridge
  logger: Logger
  /** Aborts every long-poll in flight when the server closes. */
  closing: AbortSignal
  /** Called after an ask is posted (the service logs it). */
  onOpened?: (record: AskRecord) => void
  /** Caps on pending asks (the operator's policy, read per request so a reload applies). */
  limits?: () => AskLimits
}

/** How long a client told "too many pending" should wait before asking again. */
const PENDING_RETRY_AFTER_S = 30

/**
 * Refuses a new ask while too many are pending, in total or for this key:
 * each open ask holds its body, and a flood of them (150 plans of 1 MiB)
 * once took the service past a gigabyte. Counted in the store, without
 * reading any ask's body. Concurrent requests may pass the cap by a few.
 */
async function checkPendingCaps(context: AskHandlerContext, key: string | undefined): Promise<void> {
  const limits = context.limits?.()
  if (!limits) return
  const count = await context.bridge.store.countPending(key)
  const retry = { 'retry-after': String(PENDING_RETRY_AFTER_S) }
  if (key !== undefined && count.forKey >= limits.pendingPerKey) {
    throw new ApiError(429, 'TOO_MANY_PENDING', `API key ${key} has ${count.forKey} asks still pending, its limit (limits.pendingPerKey ${limits.pendingPerKey}): wait for answers, or withdraw asks with DELETE /v1/asks/:id, before asking more`, retry)
  }
  if (count.total >= limits.pending) {
    throw new ApiError(429, 'TOO_MANY_PENDING', `the service has ${count.total} asks pending, its limit (limits.pending ${limits.pending}): ask again once some are answered`, retry)
  }
}

/** `POST /v1/asks`: validate, post, answer `201` with where the message is. */
export async function createAsk(context: AskHandlerContext, req: IncomingMessage, res: ServerResponse, origin: AskOrigin = {}): Promise<void> {
  const body = parseCreateAskBody(await readJsonBody(req))
  await checkPendingCaps(context, origin.key)
  const request = { questions: body.questions, ...(body.agent ? { agent: body.agent } : {}) } as AskUserQuestionRequest
  let record: AskRecord
  try {
    record = await context.bridge.open(request, {
      ...(body.channel !== undefined ? { channel: body.channel } : {}),
      ...(body.timeoutMs !== undefined ? { timeoutMs: body.timeoutMs } : {}),
      ...(body.policy !== undefined ? { policy: body.policy } : {}),
      ...(origin.key !== undefined ? { origin } : {}),
    })
  } catch (error) {
    if (!isUserInteractionError(error)) throw error
    // Slack refused the post: the request was fine, the upstream was not.
    // Looser than the operator's policy: understood, and not allowed.
    throw new ApiError(error.code === 'SLACK_API_ERROR' ? 502 : error.code === 'POLICY_FORBIDDEN' ? 403 : 400, error.code, error.message)
  }
  context.onOpened?.(record)
  sendJson(res, 201, askCreatedResponse(record))
}

/** `GET /v1/asks/:id?wait=SECONDS`: the state now, or once settled within the wait. */
export async function getAsk(context: AskHandlerContext, id: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const waitMs = parseWait(url.searchParams.get('wait'))
  let record = await context.bridge.get(id)
  if (!record) throw notFound(id)
  if (record.status === 'pending' && waitMs > 0) {
    // A client that hangs up stops its own wait and nothing else: the ask
    // stays open (only DELETE withdraws it), and the bridge drops its watcher.
    const gone = new AbortController()
    const onClose = () => gone.abort()
    res.once('close', onClose)
    const signal = AbortSignal.any([gone.signal, context.closing])
    try {
      record = (await context.bridge.waitForSettlement(id, waitMs, signal)) ?? record
    } finally {
      res.off('close', onClose)
    }
    if (gone.signal.aborted) return
    // The server is closing: let this connection end with the response.
    if (context.closing.aborted) res.setHeader('connection', 'close')
  }
  sendJson(res, 200, askStateResponse(record))
}

/** `DELETE /v1/asks/:id`: the agent withdraws the ask; a settled ask keeps its status. */
export async function deleteAsk(context: AskHandlerContext, id: string, res: ServerResponse): Promise<void> {
  const record = await context.bridge.abort(id)
  if (!record) throw notFound(id)
  sendJson(res, 200, { id: record.id, status: record.status })
}

function notFound(id: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `no ask ${JSON.stringify(id)}`)
}

/** `wait` in seconds, capped at the long-poll maximum; absent means answer now. */
function parseWait(value: string | null): number {
  if (value === null || value === '') return 0
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds < 0) throw new ApiError(400, 'BAD_REQUEST', `wait must be a number of seconds from 0 to ${TIMING.longPollMaxSeconds}`)
  return Math.min(seconds, TIMING.longPollMaxSeconds) * 1000
}
