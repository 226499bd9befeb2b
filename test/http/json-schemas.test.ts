import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { ASK_EXAMPLE_ANSWER, ASK_EXAMPLE_REQUEST } from '../../src/cli/ask.js'
import { SCHEMA_FILES, schemaFileText } from '../support/write-schemas.js'

const committed = (name: string) => readFileSync(new URL(`../../schemas/${name}`, import.meta.url), 'utf8')

describe('the published JSON Schemas (schemas/)', () => {
  it.each(Object.keys(SCHEMA_FILES))('keeps %s as the zod schemas generate it (npm run schemas)', (name) => {
    expect(committed(name), `schemas/${name} is out of date: run npm run schemas`).toBe(schemaFileText(SCHEMA_FILES[name as keyof typeof SCHEMA_FILES]))
  })

  it('accepts the request and answer that dsh-slack ask --help shows', () => {
    const ajv = new Ajv2020({ strict: false })

    expect(ajv.validate(JSON.parse(committed('ask-request.schema.json')), JSON.parse(ASK_EXAMPLE_REQUEST))).toBe(true)
    expect(ajv.validate(JSON.parse(committed('answer.schema.json')), JSON.parse(ASK_EXAMPLE_ANSWER))).toBe(true)
  })

  it.each([
    ['a misspelt question field', { questions: [{ id: 'a', question: 'b', multiselect: true }] }],
    ['an unknown top-level field', { questions: [{ id: 'a', question: 'b' }], timeoutMS: 1 }],
    ['no questions', {}],
    ['an empty batch', { questions: [] }],
    ['an option without a label', { questions: [{ id: 'a', question: 'b', options: [{ description: 'x' }] }] }],
  ])('refuses %s, as the service does', (_what, request) => {
    const ajv = new Ajv2020({ strict: false })

    expect(ajv.validate(JSON.parse(committed('ask-request.schema.json')), request)).toBe(false)
  })
})
