/**
 * The primitives of the Block Kit checker (check.ts): the context a payload
 * is checked in, and the field checks every block's rule is made of. Lengths
 * count Unicode code points (an emoji is one character to Slack).
 */

import { LIMIT } from './limits.js'

/** One reason Slack would refuse a payload. */
export interface PayloadProblem {
  /** The Web API error Slack answers with. */
  code: 'invalid_blocks' | 'msg_blocks_too_long' | 'invalid_arguments'
  /** Slack's wording: `[ERROR] <what> [json-pointer:<where>]`. */
  message: string
}

export type Surface = 'message' | 'modal' | 'home'

export interface Ctx {
  surface: Surface
  code: 'invalid_blocks' | 'invalid_arguments'
  problems: PayloadProblem[]
  actionIds: Set<string>
  blockIds: Set<string>
  /** Characters of text in all blocks: Slack refuses a message past about 12k. */
  textTotal: number
  markdownTotal: number
  /** `table` and `data_table` blocks seen in this message (Slack takes one). */
  tables: number
  /** Characters in the cells of every table of this message (Slack caps them together). */
  tableText: number
}

export type Obj = Record<string, unknown>

export function chars(value: string): number {
  let n = 0
  for (const _ of value) n++
  return n
}

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function fail(ctx: Ctx, path: string, what: string): void {
  ctx.problems.push({ code: ctx.code, message: `[ERROR] ${what} [json-pointer:${path}]` })
}

/** A required (unless `optional`) string of 1..max characters; returns it when present. */
export function str(ctx: Ctx, parent: Obj, key: string, path: string, max: number, optional = false): string | undefined {
  const value = parent[key]
  if (value === undefined) {
    if (!optional) fail(ctx, path, `missing required field: ${key}`)
    return undefined
  }
  if (typeof value !== 'string') {
    fail(ctx, `${path}/${key}`, 'must be a string')
    return undefined
  }
  const n = chars(value)
  if (n === 0) fail(ctx, `${path}/${key}`, 'must be more than 0 characters')
  if (n > max) fail(ctx, `${path}/${key}`, `must be less than ${max + 1} characters`)
  return value
}

/** A list of 1..max items; returns the items that are objects, with their pointers. */
export function list(ctx: Ctx, parent: Obj, key: string, path: string, max: number, optional = false): [Obj, string][] {
  const value = parent[key]
  if (value === undefined) {
    if (!optional) fail(ctx, path, `missing required field: ${key}`)
    return []
  }
  if (!Array.isArray(value)) {
    fail(ctx, `${path}/${key}`, 'must be an array')
    return []
  }
  if (value.length === 0) fail(ctx, `${path}/${key}`, 'must provide at least 1 items')
  if (value.length > max) fail(ctx, `${path}/${key}`, `no more than ${max} items allowed`)
  const items: [Obj, string][] = []
  value.forEach((item, i) => {
    if (isObj(item)) items.push([item, `${path}/${key}/${i}`])
    else fail(ctx, `${path}/${key}/${i}`, 'must be an object')
  })
  return items
}

/** A text object `{type: plain_text|mrkdwn, text}` of at most max characters. */
export function text(ctx: Ctx, parent: Obj, key: string, path: string, max: number, opts: { plain?: boolean; optional?: boolean } = {}): void {
  const value = parent[key]
  if (value === undefined) {
    if (!opts.optional) fail(ctx, path, `missing required field: ${key}`)
    return
  }
  const at = `${path}/${key}`
  if (!isObj(value)) return fail(ctx, at, 'must be a text object')
  if (value.type !== 'plain_text' && value.type !== 'mrkdwn') return fail(ctx, `${at}/type`, 'must be one of: plain_text, mrkdwn')
  if (opts.plain && value.type !== 'plain_text') fail(ctx, `${at}/type`, 'must be plain_text')
  if (value.emoji !== undefined && typeof value.emoji !== 'boolean') fail(ctx, `${at}/emoji`, 'must be a boolean')
  const s = str(ctx, value, 'text', at, max)
  if (s !== undefined) ctx.textTotal += chars(s)
}

export function id(ctx: Ctx, parent: Obj, key: 'action_id' | 'block_id', path: string, seen: Set<string>): void {
  const value = str(ctx, parent, key, path, LIMIT.blockIdLength, true)
  if (value === undefined) return
  if (seen.has(value)) fail(ctx, `${path}/${key}`, `duplicate ${key}: ${value}`)
  seen.add(value)
}

