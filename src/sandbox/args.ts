/**
 * zod pieces for Web API arguments as @slack/web-api sends them: form fields
 * are strings (objects and arrays JSON-encoded, booleans `true`/`false`),
 * JSON bodies carry real types. Both parse to the same shapes here.
 */
import { z } from 'zod'

/** A JSON-encoded field that did not parse: methods answer with their own code (e.g. `invalid_blocks_format`). */
export const BAD_JSON = Symbol('bad json')

/** An object or array field: JSON-decoded when it arrives as a string. */
export const json = z.preprocess((value) => {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return BAD_JSON
  }
}, z.unknown())

/** A string field that may arrive as a number in a JSON body (ts values). */
export const text = z.union([z.string(), z.number()]).transform(String)

/** A boolean field: `true`/`1` and `false`/`0` in forms. */
export const flag = z.preprocess((value) => {
  if (value === 'true' || value === '1' || value === 1) return true
  if (value === 'false' || value === '0' || value === 0) return false
  return value
}, z.boolean())

/** A number field that arrives as a string in forms. */
export const integer = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), z.number().int())

/** Slack's `response_metadata.messages` for arguments that failed to parse. */
export function argumentMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => `[ERROR] ${issue.message} [json-pointer:/${issue.path.map(String).join('/')}]`)
}
