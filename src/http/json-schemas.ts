import { z } from 'zod'
import { answerSchema } from '../contract/request-schema.js'
import { createAskBodySchema } from './create-ask-body.js'

/**
 * The request and answer formats as standalone JSON Schema (2020-12)
 * documents, generated from the zod schemas the service validates with.
 * `npm run schemas` writes them to `schemas/`; a test keeps the files current.
 */
export function requestJsonSchema(): Record<string, unknown> {
  return document(createAskBodySchema, 'dsh-slack ask request', 'The body of POST /v1/asks and the request file of `dsh-slack ask`.')
}

export function answerJsonSchema(): Record<string, unknown> {
  return document(answerSchema, 'dsh-slack answer', 'What `dsh-slack ask` prints and GET /v1/asks/{id} returns as `answer`: the seam\'s AskUserQuestionAnswer.')
}

function document(schema: z.ZodType, title: string, description: string): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>
  return { $schema: generated.$schema, title, description, ...generated }
}
