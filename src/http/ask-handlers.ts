import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AskOrigin } from '../bridge/ask-policy.js'
import type { AskLimits } from '../policy/operator-policy.js'
import type { SlackBridge } from '../bridge/types.js'
import type { AskUserQuestionRequest } from '../contract/index.js'
import { isUserInteractionError } from '../contract/index.js'
import type { Logger } from '../log/logger.js'
import type { AskRecord } from '../store/ask-record.js'
import { PendingCapReached } from '../store/pending-caps.js'
import type { QueuedAsk } from '../bridge/types.js'
import { TIMING } from '../slack/timing.js'
import { ApiError } from './api-error.js'
import { askCreatedResponse, askStateResponse } from './ask-response.js'
import { parseCreateAskBody } from './create-ask-body.js'
import { readJsonBody } from './read-json-body.js'
import { mayRead, mayWithdraw, type Caller } from './caller.js'
import { sendJson } from './send-json.js'

export interface AskHandlerContext {
  bridge: SlackBridge
  logger: Logger
  /** Aborted when the server closes (a POST stops waiting for another request's post). */
  closing: AbortSignal
  /**
   * The long-polls in flight, each by what ends its wait: the server ends
   * them all when it closes. A set the server walks once at close, rather
   * than a listener each poll adds to `closing` and takes off again: an
   * AbortSignal's listener costs a validated options object and a listener
   * record per request, for an event that comes once in the server's life.
   */
  waits: Set<AbortController>
  /** Called after an ask is posted (the service logs it). */
  onOpened?: (record: AskRecord) => void
  /** Caps on pending asks (the operator's policy, read per request so a reload applies). */
  limits?: () => AskLimits
  /** How long a POST waits for its message before answering `queued`. */
  postAnswerWithinMs: number
}

/** How long a client told "too many pending" should wait before asking again. */
const PENDING_RETRY_AFTER_S = 30

/** The 429 for an ask past the operator's caps on pending asks (the store counts them as it records the ask). */
function tooManyPending(reached: PendingCapReached): ApiError {
  const { count, caps, key } = reached
  const retry = { 'retry-after': String(PENDING_RETRY_AFTER_S) }
  if (reached.perKey) {
    return new ApiError(429, 'TOO_MANY_PENDING', `API key ${key} has ${count.forKey} asks still pending, its limit (limits.pendingPerKey ${caps.pendingPerKey}): wait for answers, or withdraw asks with DELETE /v1/asks/:id, before asking more`, retry)
  }
  return new ApiError(429, 'TOO_MANY_PENDING', `the service has ${count.total} asks pending, its limit (limits.pending ${caps.pending}): ask again once some are answered`, retry)
}

/**
 * `POST /v1/asks`: validate, record, post, answer `201` with where the
 * message is. A post still waiting for its turn after TIMING.postAnswerWithinMs
 * (a burst to one channel goes out at Slack's pace), or as soon as it is
 * queued when the client sends `Prefer: respond-async`, is answered with
 * `queued` and when it is expected instead: it goes out all the same, and
 * an agent with a 30 s timeout never gives up on an ask that is then posted.
 * With an `Idempotency-Key`, a repeat answers with the same ask.
 */
export async function createAsk(context: AskHandlerContext, req: IncomingMessage, res: ServerResponse, origin: AskOrigin = {}): Promise<void> {
  const key = idempotencyKey(req)
  const body = parseCreateAskBody(await readJsonBody(req))
  const caps = context.limits?.()
  const request = { questions: body.questions, ...(body.agent ? { agent: body.agent } : {}) } as AskUserQuestionRequest
  const early = respondAsync(req)
  let queued: QueuedAsk | undefined
  let tellQueued = () => {}
  const queuedNow = new Promise<void>((resolve) => (tellQueued = resolve))
  // Armed once the ask is recorded, for what is left of the window: an ask recorded only after it (a slow store) is answered queued at once.
  let answerQueuedLater: NodeJS.Timeout | undefined
  const answerQueuedBy = Date.now() + context.postAnswerWithinMs
  const opening = context.bridge.open(request, {
    ...(body.channel !== undefined ? { channel: body.channel } : {}),
    ...(body.timeoutMs !== undefined ? { timeoutMs: body.timeoutMs } : {}),
    ...(body.policy !== undefined ? { policy: body.policy } : {}),
    ...(key !== undefined ? { idempotencyKey: scopedIdempotencyKey(origin.key, key) } : {}),
    ...(origin.key !== undefined ? { origin } : {}),
    // Counted as the ask is recorded; a repeated Idempotency-Key finds its ask before any count.
    ...(caps ? { caps } : {}),
    onQueued: (ask) => {
      queued = ask
      if (early) tellQueued()
      else answerQueuedLater ??= setTimeout(tellQueued, Math.max(0, answerQueuedBy - Date.now()))
    },
  })
  const outcome = await Promise.race([opening.then(() => 'done' as const, () => 'done' as const), queuedNow.then(() => 'queued' as const)])
  clearTimeout(answerQueuedLater)
  if (outcome === 'queued') {
    // The post goes on after the answer; the lifecycle logs and settles Slack's refusal, anything else is logged here.
    opening.then(
      (record) => context.onOpened?.(record),
      (error: unknown) => {
        if (!isUserInteractionError(error)) context.logger.error(`ask ${queued!.record.id}, answered as queued, could not be posted: ${error instanceof Error ? error.message : String(error)}`)
      },
    )
    sendJson(res, 201, askCreatedResponse(queued!.record, queued!.expectedPostAt))
    return
  }
  let record: AskRecord
  try {
    record = await opening
  } catch (error) {
    throw refusalOf(error)
  }
  // A repeat of a key whose ask another request is still posting: wait for that post like the first request does.
  if (!record.message && record.status === 'pending' && !early) record = await postedOrQueued(context, record)
  if (record.status === 'failed' && record.settlement?.error?.code === 'SLACK_API_ERROR') throw new ApiError(502, 'SLACK_API_ERROR', record.settlement.error.message)
  context.onOpened?.(record)
  // Still unposted (its first poster died mid-post, another instance takes over): when it is due, as the lifecycle said.
  sendJson(res, 201, askCreatedResponse(record, queued?.expectedPostAt))
}

/** Idempotency keys start with it: apart from the relay's keys (a host URL) in the store's one unique column. */
const IDEMPOTENCY_PREFIX = 'http-idempotency:'

/**
 * The store's key for an Idempotency-Key: it belongs to its API key, so
 * another key's agent cannot reach (or learn of) an ask by reusing it. The
 * API key's name (no `:` in it, the policy file's rule) is always followed
 * by `:`, empty when the service has no keys, so `a` + `b:c` and `a:b` +
 * `c` can never build the same key.
 */
export function scopedIdempotencyKey(apiKey: string | undefined, idempotencyKey: string): string {
  return `${IDEMPOTENCY_PREFIX}${apiKey ?? ''}:${idempotencyKey}`
}

/** Printable ASCII, as the IETF draft's examples and every client library's UUIDs are. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

/** The request's `Idempotency-Key` header, checked; absent: undefined. */
function idempotencyKey(req: IncomingMessage): string | undefined {
  const value = req.headers['idempotency-key']
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new ApiError(400, 'BAD_REQUEST', 'Idempotency-Key must be 1 to 255 printable characters without spaces (a UUID is a good key), sent once')
  }
  return value
}

/** `Prefer: respond-async` (RFC 7240): answer once the ask is recorded and queued, not once it is posted. */
function respondAsync(req: IncomingMessage): boolean {
  const prefer = req.headers.prefer
  return typeof prefer === 'string' && prefer.split(',').some((part) => part.trim().toLowerCase() === 'respond-async')
}

/** What an open that failed answers: Slack refusing the post is a 502, a request looser than the operator's policy a 403 (understood, and not allowed), an invalid request a 400, too many pending asks a 429. */
function refusalOf(error: unknown): unknown {
  if (error instanceof PendingCapReached) return tooManyPending(error)
  if (!isUserInteractionError(error)) return error
  return new ApiError(error.code === 'SLACK_API_ERROR' ? 502 : error.code === 'POLICY_FORBIDDEN' ? 403 : 400, error.code, error.message)
}

/** Re-reads an ask another request is posting until its message is known or it settles, for as long as a POST waits. */
async function postedOrQueued(context: AskHandlerContext, record: AskRecord): Promise<AskRecord> {
  const giveUpAt = Date.now() + context.postAnswerWithinMs
  let current = record
  while (!current.message && current.status === 'pending' && Date.now() < giveUpAt && !context.closing.aborted) {
    await new Promise((resolve) => setTimeout(resolve, TIMING.idempotentRepeatPollMs))
    current = (await context.bridge.get(record.id)) ?? current
  }
  return current
}

/** `GET /v1/asks/:id?wait=SECONDS`: the state now, or once settled within the wait. Another key's ask is absent. */
export async function getAsk(context: AskHandlerContext, id: string, url: URL, req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  const waitMs = parseWait(url.searchParams.get('wait'))
  if (waitMs === 0 || caller.access.read !== 'all') {
    // Checked before any wait: another key's ask answers 404 at once, so not even the time taken tells it exists.
    const record = await context.bridge.get(id)
    if (!record || !mayRead(caller, record)) throw notFound(id)
    if (waitMs === 0 || record.status !== 'pending') return sendJson(res, 200, askStateResponse(record))
  }
  // A client that hangs up stops its own wait and nothing else: the ask
  // stays open (only DELETE withdraws it), and the bridge drops its watcher.
  // (One controller for both, not AbortSignal.any: that costs a weak
  // registration per request, and every request here ends by itself.)
  const waiting = new AbortController()
  let clientGone = false
  const onClose = () => {
    clientGone = true
    waiting.abort()
  }
  res.once('close', onClose)
  context.waits.add(waiting)
  if (context.closing.aborted) waiting.abort()
  let record: AskRecord | undefined
  try {
    // One read at most: the wait reads the ask itself (none when it is open here), and answers at once when it is not pending.
    // Read-only: the record only becomes this response, so it may be the settler's own, not a copy.
    record = await context.bridge.waitForSettlement(id, waitMs, waiting.signal, { readOnly: true })
  } finally {
    res.off('close', onClose)
    context.waits.delete(waiting)
  }
  if (!record) throw notFound(id)
  if (clientGone) return
  // The server is closing: let this connection end with the response.
  if (context.closing.aborted) res.setHeader('connection', 'close')
  sendJson(res, 200, askStateResponse(record))
}

/**
 * `DELETE /v1/asks/:id`: the agent withdraws the ask; a settled ask keeps
 * its status. Another key's ask is absent (404), or, to a key that may read
 * but not withdraw it, a 403 that changes nothing.
 */
export async function deleteAsk(context: AskHandlerContext, id: string, res: ServerResponse, caller: Caller): Promise<void> {
  // A key that withdraws any ask needs no owner check (and no extra read): abort finds the ask or answers 404.
  if (caller.access.withdraw !== 'all') {
    const existing = await context.bridge.get(id)
    if (!existing || (!mayRead(caller, existing) && !mayWithdraw(caller, existing))) throw notFound(id)
    if (!mayWithdraw(caller, existing)) throw new ApiError(403, 'POLICY_FORBIDDEN', `API key ${caller.key ?? ''} may read ask ${JSON.stringify(id)} but not withdraw it (its policy entry has read: all, not withdraw: all)`)
  }
  const record = await context.bridge.abort(id, caller.key === undefined ? {} : { key: caller.key })
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
