/**
 * How much code a round trip runs: the distinct JavaScript functions an app
 * calls during the measured part, and how many calls it makes, by where the
 * code lives. Taken from V8's precise coverage (call counts per function),
 * so it is the same on every run of the same build: where a timing needs
 * several rounds to tell a change from the host's noise (decision 0056),
 * this tells at once how much code the change took off each event. The
 * ninth and tenth passes found a round trip paying for every piece of code
 * it touches, cold; this counts the pieces.
 */
import { Session } from 'node:inspector'
import { moduleOf } from './cpu-profile.js'

/** Where a function's code lives. */
export const FOOTPRINT_GROUPS = ['dsh-slack', 'zod', 'Bolt and the SDK', 'other packages', 'Node', 'bench harness'] as const
export type FootprintGroup = (typeof FOOTPRINT_GROUPS)[number]

/** Distinct functions that ran, and the calls made to them. */
export interface CodeRun {
  functions: number
  calls: number
}

/** Per group, and per file of dsh-slack's own (`src/bridge/ask-lifecycle.js`): where to look for code to take off an event. */
export interface Footprint {
  groups: Record<FootprintGroup, CodeRun>
  ownFiles: Record<string, CodeRun>
}

/** A script's coverage as V8 gives it with `detailed: false`: one range per function, its call count. */
interface ScriptCoverage {
  url: string
  functions: { functionName: string; ranges: { count: number }[] }[]
}

/** Where the code at `url` lives, by the module the CPU profiles name it with (`src/…`, a package, `node:…`). */
export function groupOf(url: string): FootprintGroup | undefined {
  if (url === '') return undefined
  const module = moduleOfUrl(url)
  if (module.startsWith('node:')) return 'Node'
  if (/^(src|blocks)\//.test(module)) return 'dsh-slack'
  if (module.startsWith('test/')) return 'bench harness'
  if (module === 'zod') return 'zod'
  return module.startsWith('@slack/') ? 'Bolt and the SDK' : 'other packages'
}

const moduleOfUrl = (url: string) => moduleOf({ functionName: '', url, lineNumber: 0 })

/** Sums one coverage snapshot by group. */
export function footprintOf(scripts: ScriptCoverage[]): Footprint {
  const groups = Object.fromEntries(FOOTPRINT_GROUPS.map((group) => [group, { functions: 0, calls: 0 }])) as Record<FootprintGroup, CodeRun>
  const ownFiles: Record<string, CodeRun> = {}
  for (const script of scripts) {
    const group = groupOf(script.url)
    if (!group) continue
    const file = group === 'dsh-slack' ? moduleOfUrl(script.url) : undefined
    for (const fn of script.functions) {
      const calls = fn.ranges[0]?.count ?? 0
      if (calls === 0) continue
      groups[group].functions++
      groups[group].calls += calls
      if (file === undefined) continue
      const own = (ownFiles[file] ??= { functions: 0, calls: 0 })
      own.functions++
      own.calls += calls
    }
  }
  return { groups, ownFiles }
}

/**
 * Starts counting calls in this process now and returns what ends it. The
 * in-thread inspector answers synchronously, so the counts start before
 * the caller returns to the event loop: no request of the measured part
 * comes in before them. Counting keeps V8 from some optimisations, so a run
 * that counts is not one to take timings from.
 */
export function startFootprint(): () => Footprint {
  const session = new Session()
  session.connect()
  const post = <T>(method: string, params?: object): T => {
    let answer: { error: Error | null; result: T } | undefined
    session.post(method, params ?? {}, (error, result) => (answer = { error, result: result as T }))
    if (!answer) throw new Error(`the inspector did not answer ${method} at once`)
    if (answer.error) throw answer.error
    return answer.result
  }
  post('Profiler.enable')
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
  // Taking coverage resets the counts: what the warm-up ran is not counted.
  post('Profiler.takePreciseCoverage')
  return () => {
    const { result } = post<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage')
    post('Profiler.stopPreciseCoverage')
    session.disconnect()
    return footprintOf(result)
  }
}
