import { z } from 'zod'

/** A place in a request, as zod reports it: keys and array indices. */
export type FieldPath = readonly PropertyKey[]

/** `['questions', 0, 'multiselect']` → `questions[0].multiselect`, the way a person writes it in JSON terms. */
export function formatPath(path: FieldPath): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    else text += text === '' ? String(segment) : `.${String(segment)}`
  }
  return text
}

/**
 * The known key a misspelt one most likely meant: the same word in another
 * case, or one within a few edits (a transposition counts as one edit). A
 * suggestion that is further off than that would mislead, so there is none.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase()
  const sameWord = known.find((candidate) => candidate.toLowerCase() === lower)
  if (sameWord) return sameWord
  let best: { key: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase())
    const allowed = Math.max(1, Math.floor(candidate.length / 3))
    if (distance <= allowed && (!best || distance < best.distance)) best = { key: candidate, distance }
  }
  return best?.key
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = value
    }
  }
  return rows[a.length]![b.length]!
}

/** The object schema found at `path` inside `root`, looking through optional, nullable, default and array wrappers. */
function objectSchemaAt(root: z.ZodType, path: FieldPath): z.ZodObject | undefined {
  let schema: z.ZodType | undefined = unwrap(root)
  for (const segment of path) {
    if (!schema) return undefined
    if (typeof segment === 'number') schema = schema instanceof z.ZodArray ? unwrap(schema.element as z.ZodType) : undefined
    else schema = schema instanceof z.ZodObject ? unwrap(schema.shape[String(segment)] as z.ZodType | undefined) : undefined
  }
  return schema instanceof z.ZodObject ? schema : undefined
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType
  return current
}

/** One key a strict object does not know, where it was found, and the key it most likely meant. */
export interface UnknownField {
  path: FieldPath
  key: string
  suggestion?: string
  /** The keys that object does know, for a message without a suggestion. */
  known: readonly string[]
}

/** The unknown keys among zod's issues, shallowest first (a misspelt parent explains its children). */
export function unknownFields(root: z.ZodType, issues: readonly z.core.$ZodIssue[], prefix: FieldPath = []): UnknownField[] {
  const found: UnknownField[] = []
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue
    const known = Object.keys(objectSchemaAt(root, issue.path)?.shape ?? {})
    for (const key of issue.keys) {
      const suggestion = nearestKey(key, known)
      found.push({ path: [...prefix, ...issue.path, key], key, known, ...(suggestion ? { suggestion } : {}) })
    }
  }
  return found.sort((a, b) => a.path.length - b.path.length)
}

/** How many unknown fields one message names; past that it is not a typo, and the rest are summed up. */
const NAMED_AT_MOST = 20

/**
 * "unknown field questions[0].multiselect — did you mean multiSelect?", or,
 * with nothing close, the keys that are known there. Several are named in one
 * sentence, so a person fixes them in one go.
 */
export function describeUnknownFields(fields: readonly UnknownField[]): string {
  const parts = fields.slice(0, NAMED_AT_MOST).map((field) => {
    const where = formatPath(field.path)
    if (field.suggestion) return `unknown field ${where} — did you mean ${field.suggestion}?`
    const known = field.known.length > 0 ? ` (expected one of ${field.known.join(', ')})` : ''
    return `unknown field ${where}${known}`
  })
  const more = fields.length - NAMED_AT_MOST
  return more > 0 ? `${parts.join('; ')}; and ${more} more` : parts.join('; ')
}
