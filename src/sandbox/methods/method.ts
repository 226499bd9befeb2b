/**
 * How one Web API method is declared: which token it takes, which scope it
 * needs, how its arguments parse, its rate rule, and what it does.
 */
import type { z } from 'zod'

import type { SandboxCore } from '../core.js'
import type { RateBucket } from '../rate-limit.js'

export interface MethodSpec<Schema extends z.ZodType = z.ZodType> {
  /** The token kind Slack accepts: most methods take the bot token, apps.connections.open the app token. */
  token: 'bot' | 'app' | 'any'
  /** The scope the token needs (`missing_scope` otherwise). */
  scope?: string
  args: Schema
  /** The buckets this call takes from (all or none), if the method is rate limited. */
  rate?: (args: z.infer<Schema>, core: SandboxCore) => RateBucket | RateBucket[] | undefined
  /** The answer's fields besides `ok: true`; throws `SlackRefusal` to refuse. */
  run: (args: z.infer<Schema>, core: SandboxCore) => Record<string, unknown> | Promise<Record<string, unknown>>
}

/** Declares a method with its argument types inferred from its schema. */
export function method<Schema extends z.ZodType>(spec: MethodSpec<Schema>): MethodSpec {
  return spec as unknown as MethodSpec
}

export type MethodTable = Record<string, MethodSpec>

/** A per-minute tier as a bucket rule: a minute's worth at once, then the average. */
export { perMinute } from '../../slack/rate-rules.js'
