/**
 * How often an app encodes and parses JSON in its measured part, and where:
 * `JSON.parse` and `JSON.stringify` counted (calls and characters) with the
 * function that called them. Builtins are not in V8's coverage (the
 * footprint), and JSON parsed or encoded twice per event is one of the
 * costs issue 43 looks for; like the footprint, the counts are the same on
 * every run of a build, so a change shows without the host's noise.
 */

/** Calls and characters (of the text parsed, or produced). */
export interface JsonWork {
  calls: number
  chars: number
}

export interface JsonCounts {
  parse: JsonWork
  stringify: JsonWork
  /** By caller (`module function`, e.g. `src/http/read-body.js readJson ← handle` with our own code's caller's caller, or a package's name). */
  byCaller: Record<string, { parse: JsonWork; stringify: JsonWork }>
}

/** The caller of the patched function as `module function`: a file of our build by its path under dist/, a package by its name. */
export function callerOf(frame: string | undefined): string {
  if (!frame) return 'unknown'
  const fn = /^\s*at (?:async )?([^\s(]+) \(/.exec(frame)?.[1] ?? '(anonymous)'
  const location = /\((.*?):\d+:\d+\)$/.exec(frame)?.[1] ?? /at (.*?):\d+:\d+$/.exec(frame)?.[1] ?? ''
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(location)?.[1]
  if (pkg) return pkg
  if (location.startsWith('node:')) return location
  const own = /\/dist\/(.*)$/.exec(location)?.[1]
  return own ? `${own} ${fn}` : `${location} ${fn}`
}

/** Starts counting in this process; returns what stops it and gives the counts. */
export function startJsonCounts(): () => JsonCounts {
  const counts: JsonCounts = { parse: { calls: 0, chars: 0 }, stringify: { calls: 0, chars: 0 }, byCaller: {} }
  // Reading a stack can parse JSON itself (a source map, where one is loaded): that is the count's own, not the app's.
  let tallying = false
  const tally = (kind: 'parse' | 'stringify', chars: number) => {
    if (tallying) return
    tallying = true
    // Line 0 is "Error", 1 tally, 2 the patch, 3 whoever called JSON.
    let caller: string
    try {
      const frames = new Error().stack?.split('\n') ?? []
      caller = callerOf(frames[3])
      // A helper of our own (a store's `parse`) says little alone: name who called it too.
      if (caller.startsWith('src/') || caller.startsWith('blocks/')) caller += ` ← ${callerOf(frames[4]).split(' ').at(-1)}`
    } finally {
      tallying = false
    }
    const entry = (counts.byCaller[caller] ??= { parse: { calls: 0, chars: 0 }, stringify: { calls: 0, chars: 0 } })
    for (const work of [counts[kind], entry[kind]]) {
      work.calls++
      work.chars += chars
    }
  }
  const { parse, stringify } = JSON
  JSON.parse = function countedParse(text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) {
    tally('parse', typeof text === 'string' ? text.length : 0)
    return parse(text, reviver)
  }
  JSON.stringify = function countedStringify(value: unknown, replacer?: unknown, space?: string | number) {
    const text = stringify(value, replacer as Parameters<typeof stringify>[1], space)
    tally('stringify', typeof text === 'string' ? text.length : 0)
    return text
  } as typeof JSON.stringify
  return () => {
    JSON.parse = parse
    JSON.stringify = stringify
    return counts
  }
}
