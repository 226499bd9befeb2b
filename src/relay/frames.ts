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
  /**
   * Tool calls the model made (a `session/event` of type `tool/call`, or the
   * `tool-call` blocks of an `assistant/message`): what an approval with the
   * same `callId` asks to run. `arguments` is the host's JSON text.
   */
  | { kind: 'tool-calls'; sessionId: string; calls: ToolCall[] }
  /**
   * The host stream's (`events.host`) whole set of archived sessions, sent
   * when someone archives one in the web UI (`workspace.archiveSession`).
   */
  | { kind: 'sessions-archived'; sessionIds: string[] }

/** One tool call as the host's event stream carries it. */
export interface ToolCall {
  callId: string
  toolName: string
  /** The arguments as the model wrote them: JSON text (an object from the host is serialised). */
  arguments: string
}

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
  // Only the tool calls are read; every other session event (chunks,
  // results, turns) passes as noise. The event stream is not in DSH-HOST.md;
  // the shapes are those harness web clients read (`tool/call` with
  // `{ callId, name, arguments }`, message blocks `{ type: 'tool-call', id, name, arguments }`).
  'host/archived-sessions-changed': z.object({ archivedSessionIds: z.array(z.string().min(1)) }),
  'session/event': z.object({
    sessionId: z.string().min(1),
    event: z.looseObject({ type: z.string(), data: z.unknown().optional() }),
  }),
}

const argumentsSchema = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional()

const toolCallEventSchema = z.looseObject({ callId: z.string().min(1), name: z.string(), arguments: argumentsSchema })

const messageSchema = z.looseObject({
  content: z.array(z.unknown()),
})

const toolCallBlockSchema = z.looseObject({ type: z.literal('tool-call'), id: z.string().min(1), name: z.string(), arguments: argumentsSchema })

function argumentsText(value: z.infer<typeof argumentsSchema>): string {
  if (value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** The tool calls a session event carries; empty for every other event. */
export function toolCallsOf(event: { type: string; data?: unknown }): ToolCall[] {
  if (event.type === 'tool/call') {
    const call = toolCallEventSchema.safeParse(event.data)
    return call.success ? [{ callId: call.data.callId, toolName: call.data.name, arguments: argumentsText(call.data.arguments) }] : []
  }
  if (event.type === 'assistant/message') {
    const data = event.data as { message?: unknown } | undefined
    const message = messageSchema.safeParse(data?.message ?? data)
    if (!message.success) return []
    return message.data.content.flatMap((block) => {
      const call = toolCallBlockSchema.safeParse(block)
      return call.success ? [{ callId: call.data.id, toolName: call.data.name, arguments: argumentsText(call.data.arguments) }] : []
    })
  }
  return []
}

/**
 * `session.history`'s value: `{ events: [{ event, view? }], hasMore }`. The
 * tool calls among its events, for an approval whose call the relay did not
 * see on the stream (it connected after the call was made).
 */
const historySchema = z.object({ events: z.array(z.looseObject({ event: z.looseObject({ type: z.string(), data: z.unknown().optional() }) })) })

export function toolCallsInHistory(value: unknown): ToolCall[] {
  const history = historySchema.safeParse(value)
  if (!history.success) return []
  return history.data.events.flatMap((entry) => toolCallsOf(entry.event))
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
    case 'host/archived-sessions-changed': {
      const result = payloadSchemas[method].safeParse(payload)
      if (!result.success) return fail(result.error)
      return { ok: true, frame: { kind: 'sessions-archived', sessionIds: result.data.archivedSessionIds } }
    }
    case 'session/event': {
      const result = payloadSchemas[method].safeParse(payload)
      // A session event the relay cannot read is someone else's business, not a broken frame.
      if (!result.success) return { ok: false, ignored: true, method }
      const calls = toolCallsOf(result.data.event)
      if (calls.length === 0) return { ok: false, ignored: true, method: `${method} ${result.data.event.type}` }
      return { ok: true, frame: { kind: 'tool-calls', sessionId: result.data.sessionId, calls } }
    }
    default: {
      const unreachable: never = method
      return unreachable
    }
  }
}
