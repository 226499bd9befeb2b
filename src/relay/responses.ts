import { z } from 'zod'
import type { AskUserQuestionAnswer } from '../contract/index.js'
import type { AskRecord } from '../store/ask-record.js'

/** What the relay remembers of a host's request: enough to address the answer. */
export type HostRequest =
  | { kind: 'question'; rpcId: string; sessionId: string }
  | { kind: 'approval'; rpcId: string; sessionId: string; approvalId: string }

/** The body of `POST /api/respond` (DSH-HOST.md "Answering"). */
export interface ClientResponse {
  type: 'client-response'
  rpcId: string
  result:
    | { ok: true; value: { sessionId: string; answer: AskUserQuestionAnswer } }
    | { ok: true; value: { sessionId: string; approvalId: string; outcome: 'allowed-once' | 'rejected' } }
    | { ok: false; error: { code: 'cancelled'; message: string; details: Record<string, never> } }
}

export const receiptSchema = z.union([
  z.object({ accepted: z.literal(true) }),
  // `not-pending` and `bad-response` today; another reason is treated like `bad-response`.
  z.object({ accepted: z.literal(false), reason: z.string() }),
])

export type Receipt = z.infer<typeof receiptSchema>

function cancelled(rpcId: string, message: string): ClientResponse {
  return { type: 'client-response', rpcId, result: { ok: false, error: { code: 'cancelled', message, details: {} } } }
}

function decided(request: HostRequest & { kind: 'approval' }, outcome: 'allowed-once' | 'rejected'): ClientResponse {
  const { rpcId, sessionId, approvalId } = request
  return { type: 'client-response', rpcId, result: { ok: true, value: { sessionId, approvalId, outcome } } }
}

/**
 * What the host hears when an ask of its request settles in Slack, or
 * `null` when it hears nothing:
 * - answered → the answer; decided → the decision;
 * - dismissed → `cancelled` (the agent gets ASK_CANCELLED); a dismissed
 *   approval is a rejection, since an approval has no "cancel" reply;
 * - expired (DSH_SLACK_TIMEOUT) → `cancelled` for a question, `rejected` for
 *   an approval: the operator set a timeout so that an agent is not blocked
 *   forever, and an undecided permission fails closed;
 * - aborted or stopped → nothing: dsh-slack withdrew its own message, and the
 *   host keeps the request for its web UI or the next run;
 * - settled elsewhere or failed → nothing: the host already knows, or refused.
 */
export function responseFor(record: AskRecord, request: HostRequest): ClientResponse | null {
  const settlement = record.settlement
  if (!settlement) return null
  const outcome = settlement.outcome
  switch (outcome.kind) {
    case 'answered': {
      if (request.kind !== 'question' || !settlement.answer) return null
      return { type: 'client-response', rpcId: request.rpcId, result: { ok: true, value: { sessionId: request.sessionId, answer: settlement.answer } } }
    }
    case 'decided':
      return request.kind === 'approval' ? decided(request, outcome.decision) : null
    case 'dismissed': {
      if (request.kind === 'approval') return decided(request, 'rejected')
      return cancelled(request.rpcId, `dismissed in Slack by ${outcome.by.name ?? outcome.by.id}`)
    }
    case 'expired':
      return request.kind === 'approval' ? decided(request, 'rejected') : cancelled(request.rpcId, 'expired in Slack without an answer')
    case 'aborted':
    case 'stopped':
    case 'settled-elsewhere':
    case 'failed':
      return null
    default: {
      const unknown: never = outcome
      return unknown
    }
  }
}

/** A line for logs: what the response says, never the answer's text. */
export function describeResponse(response: ClientResponse): string {
  const result = response.result
  if (!result.ok) return 'cancelled'
  return 'answer' in result.value ? 'an answer' : result.value.outcome
}
