const globCache = new Map<string, RegExp>()

/**
 * A glob as people write them in shell: `*` any run of characters
 * (including `/`: `/srv/payments/*` covers every folder below), `?` one
 * character, everything else literal. Whole-string, case-sensitive.
 */
export function globToRegExp(glob: string): RegExp {
  let cached = globCache.get(glob)
  if (!cached) {
    const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*').replace(/\?/g, '.')
    cached = new RegExp(`^${body}$`, 's')
    globCache.set(glob, cached)
  }
  return cached
}
