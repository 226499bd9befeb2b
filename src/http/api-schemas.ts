import { z } from 'zod'
import { answerSchema } from '../contract/request-schema.js'

/**
 * What the HTTP API answers, as zod schemas with a description per field:
 * the OpenAPI document (openapi.ts) is generated from them and a test checks
 * real responses against it. Response objects are not strict, so a client
 * that validates them keeps working when a field is added.
 */

export const ASK_STATUSES = ['pending', 'answered', 'cancelled', 'aborted', 'expired', 'failed'] as const

export const askStatusSchema = z.enum(ASK_STATUSES).meta({
  id: 'AskStatus',
  description:
    'pending: waiting for a person. answered: see `answer`. cancelled: dismissed in Slack (ASK_CANCELLED). aborted: withdrawn by the agent (DELETE) or the service (ASK_ABORTED). expired: nobody answered in time (ASK_EXPIRED). failed: the ask could not be carried on (see `error`).',
})

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'A stable code: the seam\'s (EMPTY_QUESTIONS, BAD_INTENT, BAD_REQUEST, SLACK_API_ERROR, …) or the API\'s (UNAUTHORIZED, NOT_FOUND, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE, …).' }),
      message: z.string().meta({ description: 'What went wrong and what to do, in a sentence (e.g. "unknown field questions[0].multiselect — did you mean multiSelect?").' }),
    }),
  })
  .meta({ id: 'Error', description: 'Every refusal has this shape.' })

export const askCreatedSchema = z
  .object({
    id: z.string().meta({ description: 'The ask\'s id, for GET and DELETE /v1/asks/{id}.' }),
    status: askStatusSchema.meta({ description: '"pending" for a new ask; a repeat with the same Idempotency-Key of an ask settled since says how it settled.' }),
    channel: z.string().meta({ description: 'The conversation the message is in (a DM\'s id when asked of a user).' }),
    ts: z.string().optional().meta({ description: 'The message\'s Slack timestamp; absent only while the ask is `queued`.' }),
    permalink: z.string().optional().meta({ description: 'A link to the message, when Slack gave one.' }),
    queued: z
      .literal(true)
      .optional()
      .meta({ description: 'Present when the ask is recorded and waiting for its turn to be posted (the channel\'s pace, Slack\'s rate): it will be posted without any further call. Sent with `Prefer: respond-async`, or when the post did not go out within 20 seconds.' }),
    expectedPostAt: z.string().optional().meta({ description: 'With `queued`: when the message is expected to go out (ISO 8601), an estimate from the queue ahead of it.' }),
  })
  .meta({ id: 'AskCreated', description: 'Where the question was posted, or that it is queued to be.' })

export const askStateSchema = z
  .object({
    id: z.string(),
    status: askStatusSchema,
    answer: answerSchema.optional().meta({ description: 'Present when answered.' }),
    answeredBy: z
      .object({ id: z.string().meta({ description: 'Slack user id.' }), name: z.string().optional().meta({ description: 'Their Slack user name, when known.' }) })
      .optional()
      .meta({ description: 'Who settled it in Slack: who answered, dismissed it or decided.' }),
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .meta({ description: 'Every settled status but answered: the seam\'s code (ASK_CANCELLED, ASK_ABORTED, ASK_EXPIRED, …) and a sentence.' }),
  })
  .meta({ id: 'AskState', description: 'An ask as it stands.' })

export const askWithdrawnSchema = z
  .object({ id: z.string(), status: askStatusSchema.meta({ description: '"aborted", or the status it had already settled with.' }) })
  .meta({ id: 'AskWithdrawn', description: 'The ask after DELETE.' })

export const healthSchema = z
  .object({
    ok: z.boolean().meta({ description: 'true while Slack and the store are reachable and the service is not stopping (200); false with 503.' }),
    slack: z.string().meta({ description: '"connected", "local" (the built-in stand-in), or "disconnected" (503).' }),
    store: z.string().optional().meta({ description: 'Where asks are kept: "sqlite", "postgres" or "memory".' }),
    problem: z.string().optional().meta({ description: 'With 503: why (Slack unreachable, the store does not answer, or stopping).' }),
  })
  .meta({ id: 'Health', description: 'Whether the service can take asks: Slack connected, store answering, not draining.' })
