import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { answerJsonSchema, requestJsonSchema } from '../../src/http/json-schemas.js'

/** `npm run schemas`: writes the request and answer JSON Schemas to schemas/. */
export const SCHEMA_FILES = { 'ask-request.schema.json': requestJsonSchema, 'answer.schema.json': answerJsonSchema } as const

export function schemaFileText(make: () => Record<string, unknown>): string {
  return `${JSON.stringify(make(), null, 2)}\n`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = fileURLToPath(new URL('../../../schemas/', import.meta.url))
  mkdirSync(dir, { recursive: true })
  for (const [name, make] of Object.entries(SCHEMA_FILES)) writeFileSync(`${dir}${name}`, schemaFileText(make))
  console.log(`wrote ${Object.keys(SCHEMA_FILES).map((name) => `schemas/${name}`).join(', ')}`)
}
