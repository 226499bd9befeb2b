import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { requestProblem } from '../../src/cli/check-request.js'
import { answerSchema, validateAnswer, validateRequest } from '../../src/contract/index.js'
import { createAskBodySchema } from '../../src/http/create-ask-body.js'

const section = readFileSync(new URL('../../docs/request-format.md', import.meta.url), 'utf8')

/** Every field path a schema accepts, as the README writes them: `questions[].options[].label`. */
function fieldPaths(schema: z.ZodType, prefix = ''): string[] {
  let inner = schema
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType
  if (inner instanceof z.ZodArray) return fieldPaths(inner.element as z.ZodType, `${prefix}[]`)
  if (!(inner instanceof z.ZodObject)) return []
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, value]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`
    return [path, ...fieldPaths(value, path)]
  })
}

/** The first column of the tables in docs/request-format.md. */
function documentedFields(): string[] {
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!)
}

describe('the request format page (docs/request-format.md)', () => {
  it('documents every field of a request and an answer, and no field that does not exist', () => {
    const fields = [...fieldPaths(createAskBodySchema), ...fieldPaths(answerSchema), 'signal']

    expect(documentedFields().sort()).toEqual(fields.sort())
  })

  it('shows examples that are valid requests, each followed by an answer that fits it', () => {
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>)
    const pairs: [Record<string, unknown>, unknown][] = []
    for (let i = 0; i < blocks.length; i += 2) pairs.push([blocks[i]!, blocks[i + 1]])

    expect(pairs.length).toBeGreaterThanOrEqual(5)
    for (const [request, answer] of pairs) {
      expect(requestProblem(request)).toBeUndefined()
      expect(() => validateAnswer(validateRequest({ questions: request.questions }), answer)).not.toThrow()
    }
  })
})
