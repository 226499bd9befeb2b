import { ConfigError } from './config-error.js'

const VARIABLE = 'DSH_HOST_ACCESS_SECRET'
/** The harness host refuses shorter `DSH_ACCESS_SECRET`s (DSH-HOST.md). */
const MIN_LENGTH = 16

/**
 * `DSH_HOST_ACCESS_SECRET`, one entry per host of `DSH_HOST_URL`, in the
 * same order: each host gets its own secret, and a host started without one
 * gets none (an empty entry). With one host (or none) the whole value is the
 * secret, commas and all. With several, the entries must match the hosts one
 * to one: a single secret is never spread over hosts that did not ask for it.
 * Messages never show a secret, only its position.
 */
export function hostAccessSecrets(value: string | undefined, hostCount: number): (string | undefined)[] {
  if (value === undefined) return []
  if (hostCount <= 1) return [checked(value, undefined)]
  const entries = value.split(',').map((entry) => entry.trim())
  if (entries.length !== hostCount) {
    throw new ConfigError(
      VARIABLE,
      `has ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} for ${hostCount} hosts in DSH_HOST_URL: give one per host, comma-separated in the same order, and leave the entry of a host without a secret empty (e.g. ",secret-of-the-second-host")`,
    )
  }
  return entries.map((entry, index) => (entry === '' ? undefined : checked(entry, index)))
}

function checked(secret: string, index: number | undefined): string {
  if (secret.length >= MIN_LENGTH) return secret
  const which = index === undefined ? '' : `entry ${index + 1} (for host ${index + 1} of DSH_HOST_URL) `
  throw new ConfigError(VARIABLE, `${which}is too short; the harness host requires at least ${MIN_LENGTH} characters`)
}
