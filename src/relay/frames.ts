import { z } from 'zod'
import type { AskUserQuestionItem } from '../contract/index.js'

/**
 * The host's event-stream frames this relay acts on (DSH-HOST.md), parsed
 * once where they arrive. Every frame is
 * `{ type: 'server-request', rpcId, method?, payload: { type, … } }` and is
 * told apart by `payload.type`; everything else on the stream is noise.
 */
export type HostFrame =
  /** A question batch (a plan review too) waiting for an answer; reply with this `rpcId`. */
  | { kind: 'question'; rpcId: string; sessionId: string; questions: AskUserQuestionItem[] }
  /** A tool asking for permission; reply with this `rpcId` and the `approvalId`. */
  | { kind: 'approval'; rpcId: string; sessionId: string; approvalId: string; toolName: string; reason?: string; callId?: string }
  /** A question was settled by anyone (this relay, the web UI, an abort). */
  | { kind: 'question-resolved'; sessionId: string; questionRpcId: string; outcome: 'answered' | 'cancelled' }
  /** An approval was settled by anyone. */
  | { kind: 'approval-resolved'; sessionId: string; approvalId: string; outcome: string }

export type ParsedFrame =
  | { ok: true; frame: HostFrame }
  /** A frame of a kind the relay does not use (`session/event`, …): skipped quietly. */
  | { ok: false; ignored: true; method: string }
  /** Not JSON, not an envelope, or a known kind with a malformed payload: skipped with a warning. */
  | { ok: false; ignored: false; problem: string }

// Extra keys are kept out by zod, as the harness ignores them. The intent's
// kind stays a free string: an unknown kind is dropped later, with a log line,
// and the question is shown as a generic one (SEAM.md).
const questionItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  detail: z.string().optional(),
  header: z.string().optional(),
  options: z.array(z.object({ label: z.string(), description: z.string().optional() })).optional(),
  multiSelect: z.boolean().optional(),
  intent: z.looseObject({ kind: z.string(), approve: z.string().optional() }).optional(),
})

const envelopeSchema = z.object({
  type: z.literal('server-request'),
  rpcId: z.string().min(1),
  method: z.string().optional(),
  payload: z.looseObject({ type: z.string() }),
})

const payloadSchemas = {
  'question/requested': z.object({ sessionId: z.string().min(1), questions: z.array(questionItemSchema).min(1) }),
  'approval/requested': z.object({
    sessionId: z.string().min(1),
    approvalId: z.string().min(1),
    toolName: z.string(),
    reason: z.string().optional(),
    callId: z.string().optional(),
  }),
  'question/resolved': z.object({
    sessionId: z.string(),
    questionRpcId: z.string().min(1),
    outcome: z.enum(['answered', 'cancelled']),
  }),
  // The harness also reports `cancelled` and `unavailable`; any string is
  // taken, since all the relay needs is "settled elsewhere".
  'approval/resolved': z.object({ sessionId: z.string(), approvalId: z.string().min(1), outcome: z.string() }),
}

type KnownMethod = keyof typeof payloadSchemas

function isKnown(method: string): method is KnownMethod {
  return Object.hasOwn(payloadSchemas, method)
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'malformed'
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message
}

export function parseFrame(text: string): ParsedFrame {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { ok: false, ignored: false, problem: 'not JSON' }
  }
  const envelope = envelopeSchema.safeParse(raw)
  if (!envelope.success) {
    const type = (raw as { type?: unknown } | null)?.type
    // Frames of another envelope type are not ours to judge.
    if (typeof type === 'string' && type !== 'server-request') return { ok: false, ignored: true, method: type }
    return { ok: false, ignored: false, problem: `not a server-request frame (${describeIssue(envelope.error)})` }
  }
  const { rpcId, payload } = envelope.data
  const method = payload.type
  if (!isKnown(method)) return { ok: false, ignored: true, method }
  return parsePayload(method, rpcId, payload)
}

function parsePayload(method: KnownMethod, rpcId: string, payload: unknown): ParsedFrame {
  const fail = (error: z.ZodError): ParsedFrame => ({ ok: false, ignored: false, problem: `${method} ${rpcId}: ${describeIssue(error)}` })
  switch (method) {
    case 'question/requested': {
      const result = payloadSchemas[method].safeParse(payload)
      if (!result.success) return fail(result.error)
      return { ok: true, frame: { kind: 'question', rpcId, sessionId: result.data.sessionId, questions: result.data.questions as AskUserQuestionItem[] } }
    }
    case 'approval/requested': {
      const result = payloadSchemas[method].safeParse(payload)
      if (!result.success) return fail(result.error)
      return { ok: true, frame: { kind: 'approval', rpcId, ...result.data } }
    }
    case 'question/resolved': {
      const result = payloadSchemas[method].safeParse(payload)
      if (!result.success) return fail(result.error)
      return { ok: true, frame: { kind: 'question-resolved', ...result.data } }
    }
    case 'approval/resolved': {
      const result = payloadSchemas[method].safeParse(payload)
      if (!result.success) return fail(result.error)
      return { ok: true, frame: { kind: 'approval-resolved', ...result.data } }
    }
    default: {
      const unreachable: never = method
      return unreachable
    }
  }
}
