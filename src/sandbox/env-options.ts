/**
 * The stand-in's settings read from the environment, where it runs as a
 * program (`dsh-slack sandbox`, and `dsh-slack serve` without a bot token).
 */
import { z } from 'zod'

import { DEFAULT_SCOPES, type SandboxOptions } from './options.js'

const PerMinute = z.coerce.number().positive().finite()

/** What an app installed with every scope of manifest.yml has beyond the stand-in's default: code channels and their canvases (decision 0073). */
const CODE_CHANNEL_SCOPES = ['code_channels:manage', 'canvases:write'] as const

/**
 * `SANDBOX_TIER3_PER_MINUTE`: chat.update calls a minute the stand-in takes
 * (its real Tier 3, unknown to the bridge; default the documented 50).
 * `SANDBOX_CODE_CHANNELS=on`: the bot token also has the code-channel
 * scopes, as an app reinstalled from today's manifest.yml (the stand-in
 * starts like an app installed before them); `off` or unset: it has not.
 */
export function sandboxEnvOptions(env: NodeJS.ProcessEnv): Pick<SandboxOptions, 'tier3PerMinute' | 'scopes'> {
  const options: Pick<SandboxOptions, 'tier3PerMinute' | 'scopes'> = {}
  const raw = env.SANDBOX_TIER3_PER_MINUTE
  if (raw !== undefined && raw !== '') {
    const parsed = PerMinute.safeParse(raw)
    if (!parsed.success) throw new Error(`SANDBOX_TIER3_PER_MINUTE must be a number of calls a minute above 0, got ${raw}`)
    options.tier3PerMinute = parsed.data
  }
  const codeChannels = env.SANDBOX_CODE_CHANNELS
  if (codeChannels === 'on') options.scopes = withCodeChannelScopes()
  else if (codeChannels !== undefined && codeChannels !== '' && codeChannels !== 'off') throw new Error(`SANDBOX_CODE_CHANNELS must be on or off, got ${codeChannels}`)
  return options
}

/** The stand-in's default scopes plus the code-channel ones. */
export function withCodeChannelScopes(): string[] {
  return [...DEFAULT_SCOPES, ...CODE_CHANNEL_SCOPES]
}
