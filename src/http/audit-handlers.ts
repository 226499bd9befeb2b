import type { ServerResponse } from 'node:http'
import { parseDuration } from '../config/duration.js'
import { askKindOf } from '../bridge/ask-policy.js'
import type { AskStore } from '../store/ask-store.js'
import type { AskRecord, AskStatus } from '../store/ask-record.js'
import { decodeAskCursor, MAX_EPOCH_MS } from '../store/team-records.js'
import { ApiError } from './api-error.js'
import { askStateResponse } from './ask-response.js'
import { listedKey, mayRead, type Caller } from './caller.js'
import { sendJson } from './send-json.js'

const STATUSES: readonly AskStatus[] = ['pending', 'answered', 'cancelled', 'aborted', 'expired', 'failed']
/** The largest page of `GET /v1/asks`. */
export const MAX_LIST_LIMIT = 200
const DEFAULT_LIST_LIMIT = 50

/**
 * `since` as people write it: epoch milliseconds, an ISO date/time, or an
 * age like `7d` (that long before `now`).
 */
export function parseSince(value: string, now: number): number | null {
  // Epoch ms a Date can hold: a 40-digit number would overflow PostgreSQL's bigint.
  if (/^\d{12,}$/.test(value)) return Number(value) <= MAX_EPOCH_MS ? Number(value) : null
  const age = parseDuration(value)
  if (age !== null && !/^\d+(\.\d+)?$/.test(value)) return now - age
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : date
}

/** One ask as the list shows it: its state, plus where and when (question text only in the events). */
function listed(record: AskRecord): Record<string, unknown> {
  return {
    ...askStateResponse(record),
    kind: askKindOf(record),
    createdAt: new Date(record.createdAt).toISOString(),
    ...(record.message ? { channel: record.message.channel, ts: record.message.ts, ...(record.message.permalink ? { permalink: record.message.permalink } : {}) } : {}),
    ...(record.agent ? { agent: record.agent } : {}),
    ...(record.policy ? { policy: record.policy } : {}),
    ...(record.rule !== undefined ? { rule: record.rule } : {}),
    ...(record.apiKey !== undefined ? { key: record.apiKey } : {}),
  }
}

/** A key or rule name to filter by: what the policy file allows as names, so nothing odd reaches a query. */
function nameParam(params: URLSearchParams, name: 'key' | 'rule'): string | undefined {
  const value = params.get(name) || undefined
  if (value !== undefined && (value.length > 200 || /[\u0000-\u001f]/.test(value))) throw new ApiError(400, 'BAD_REQUEST', `${name} must be the name of ${name === 'key' ? 'an API key' : 'a policy rule'}`)
  return value
}

/** `GET /v1/asks?status=&since=&limit=&cursor=&key=&rule=`: the asks `caller` may read, newest first, a page at a time. */
export async function listAsks(store: AskStore, url: URL, res: ServerResponse, now: number, caller: Caller): Promise<void> {
  const params = url.searchParams
  const status = params.get('status') || undefined
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new ApiError(400, 'BAD_REQUEST', `status must be one of ${STATUSES.join(', ')}`)
  const sinceText = params.get('since') || undefined
  const since = sinceText === undefined ? undefined : parseSince(sinceText, now)
  if (since === null) throw new ApiError(400, 'BAD_REQUEST', 'since must be an age like 7d or 12h, an ISO date like 2026-01-31, or epoch milliseconds')
  const limitText = params.get('limit') || undefined
  const limit = limitText === undefined ? DEFAULT_LIST_LIMIT : Number(limitText)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw new ApiError(400, 'BAD_REQUEST', `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`)
  const cursor = params.get('cursor') || undefined
  if (cursor !== undefined && decodeAskCursor(cursor) === null) throw new ApiError(400, 'BAD_REQUEST', 'cursor is not one this API gave out (pass nextCursor from the previous page)')
  const key = listedKey(caller, nameParam(params, 'key'))
  const rule = nameParam(params, 'rule')
  // Another key's asks, to a key that reads only its own: none, as if that key had none.
  if (key === null) return sendJson(res, 200, { asks: [] })
  const page = await store.listAsks({ limit, ...(key !== undefined ? { key } : {}), ...(rule !== undefined ? { rule } : {}), ...(status ? { status: status as AskStatus } : {}), ...(since !== undefined ? { since } : {}), ...(cursor ? { cursor } : {}) })
  sendJson(res, 200, { asks: page.asks.map(listed), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) })
}

/**
 * `GET /v1/asks/:id/events`: the ask's audit trail, oldest first. Another
 * key's ask is absent to a key that reads only its own; so are events whose
 * ask is gone (pruned), whose owner can no longer be told.
 */
export async function askEvents(store: AskStore, id: string, res: ServerResponse, caller: Caller): Promise<void> {
  const record = await store.get(id)
  if (record ? !mayRead(caller, record) : caller.access.read !== 'all') throw new ApiError(404, 'NOT_FOUND', `no ask ${JSON.stringify(id)}`)
  const events = await store.events(id)
  if (!record && events.length === 0) throw new ApiError(404, 'NOT_FOUND', `no ask ${JSON.stringify(id)}`)
  sendJson(res, 200, { id, events: events.map((event) => ({ ...event, at: new Date(event.at).toISOString() })) })
}
