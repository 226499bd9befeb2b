/**
 * The stand-in's settings read from the environment, where it runs as a
 * program (`dsh-slack sandbox`, and `dsh-slack serve` without a bot token).
 */
import { z } from 'zod'

import type { SandboxOptions } from './options.js'

const PerMinute = z.coerce.number().positive().finite()

/**
 * `SANDBOX_TIER3_PER_MINUTE`: chat.update calls a minute the stand-in takes
 * (its real Tier 3, unknown to the bridge; default the documented 50).
 */
export function sandboxEnvOptions(env: NodeJS.ProcessEnv): Pick<SandboxOptions, 'tier3PerMinute'> {
  const raw = env.SANDBOX_TIER3_PER_MINUTE
  if (raw === undefined || raw === '') return {}
  const parsed = PerMinute.safeParse(raw)
  if (!parsed.success) throw new Error(`SANDBOX_TIER3_PER_MINUTE must be a number of calls a minute above 0, got ${raw}`)
  return { tier3PerMinute: parsed.data }
}
