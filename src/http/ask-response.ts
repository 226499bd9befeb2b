import type { AskUserQuestionAnswer } from '../contract/index.js'
import type { AskRecord, AskStatus } from '../store/ask-record.js'

/** `GET /v1/asks/:id` (ARCHITECTURE.md, fixed). */
export interface AskStateResponse {
  id: string
  status: AskStatus
  answer?: AskUserQuestionAnswer
  /** Who settled it in Slack: who answered, dismissed it or decided an approval. */
  answeredBy?: { id: string; name?: string }
  /** Every status but `answered` and `pending`: the seam's code and a sentence. */
  error?: { code: string; message: string }
}

/** `POST /v1/asks` (ARCHITECTURE.md, fixed), plus the message's permalink when Slack gave one. */
export interface AskCreatedResponse {
  id: string
  /** `pending` for a new ask; a repeat (same Idempotency-Key) of one settled since says how it settled. */
  status: AskStatus
  channel: string
  /** Absent only while the ask is queued. */
  ts?: string
  permalink?: string
  /** Recorded, waiting for its turn to be posted. */
  queued?: true
  /** With `queued`: when the post is expected (ISO 8601). */
  expectedPostAt?: string
}

/** The one mapping from a stored ask to what the API says about it. */
export function askStateResponse(record: AskRecord): AskStateResponse {
  const response: AskStateResponse = { id: record.id, status: record.status }
  const settlement = record.settlement
  if (!settlement) return response
  if (settlement.answer) response.answer = settlement.answer
  const outcome = settlement.outcome
  // `settled-elsewhere` names a person only to say their answer was lost: not who answered.
  if ('by' in outcome && outcome.kind !== 'settled-elsewhere' && outcome.by) response.answeredBy = outcome.by.name === undefined ? { id: outcome.by.id } : { id: outcome.by.id, name: outcome.by.name }
  if (settlement.error) response.error = { code: settlement.error.code, message: settlement.error.message }
  return response
}

/** The 201 of `POST /v1/asks`: where the message is, or (not posted yet) that it is queued and when it is expected. */
export function askCreatedResponse(record: AskRecord, expectedPostAt?: number): AskCreatedResponse {
  if (!record.message) {
    const queued: AskCreatedResponse = { id: record.id, status: record.status, channel: record.target, queued: true }
    if (expectedPostAt !== undefined) queued.expectedPostAt = new Date(expectedPostAt).toISOString()
    return queued
  }
  const response: AskCreatedResponse = { id: record.id, status: record.status, channel: record.message.channel, ts: record.message.ts }
  if (record.message.permalink) response.permalink = record.message.permalink
  return response
}
