/**
 * Reads V8 CPU profiles (`.cpuprofile`, as the inspector or `node
 * --cpu-prof` writes them) and says where the time went: self time by
 * module and by function, and time spent in (under) each of dsh-slack's own
 * functions, so the hot path shows without a profiler UI.
 */
import { readFile } from 'node:fs/promises'
import { z } from 'zod'

const CpuProfile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      children: z.array(z.number()).optional(),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
})

type CallFrame = z.infer<typeof CpuProfile>['nodes'][number]['callFrame']

/** Where a frame's code lives: a package, a file of ours (`src/…`, `blocks/…`), Node's own, or V8's pseudo-frames. */
export function moduleOf(frame: CallFrame): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)'
  if (frame.url.startsWith('node:')) return `node:${frame.url.replace(/^node:(internal\/)?/, '').split('/')[0]}`
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(frame.url)
  if (pkg) return pkg[1]!
  const ours = /\/dist\/((?:src|blocks|test)\/.*)$/.exec(frame.url)
  return ours ? ours[1]! : frame.url
}

const functionOf = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} ${moduleOf(frame)}:${frame.lineNumber + 1}`
const isOurs = (frame: CallFrame) => /^(src|blocks)\//.test(moduleOf(frame))

/** Milliseconds per key, largest first. */
function top(times: Map<string, number>, count: number): [string, number][] {
  return [...times].sort((a, b) => b[1] - a[1]).slice(0, count)
}

const add = (times: Map<string, number>, key: string, ms: number) => times.set(key, (times.get(key) ?? 0) + ms)

/**
 * A summary of the profiles in `files` taken together, as report lines. A
 * sample stands for the time since the one before, capped at four sampling
 * intervals: a longer gap is the process waiting for a core on a shared
 * machine, not CPU. The first sample is left out: its gap is the profiler starting.
 */
export async function summariseProfiles(files: string[], intervalUs: number, count = 15): Promise<string[]> {
  const byModule = new Map<string, number>()
  const byFunction = new Map<string, number>()
  const underOurs = new Map<string, number>()
  let busyMs = 0
  for (const file of files) {
    const profile = CpuProfile.parse(JSON.parse(await readFile(file, 'utf8')))
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
    const parent = new Map<number, number>()
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
    profile.samples.forEach((id, i) => {
      const frame = nodes.get(id)!.callFrame
      const ms = Math.min(profile.timeDeltas[i] ?? 0, 4 * intervalUs) / 1000
      if (i === 0 || frame.functionName === '(idle)') return
      busyMs += ms
      add(byModule, moduleOf(frame), ms)
      add(byFunction, functionOf(frame), ms)
      const stack = new Set<string>()
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const above = nodes.get(at)!.callFrame
        if (isOurs(above)) stack.add(functionOf(above))
      }
      for (const key of stack) add(underOurs, key, ms)
    })
  }
  const share = (ms: number) => `${ms.toFixed(1)} ms ${((100 * ms) / busyMs).toFixed(1).padStart(5)} %`
  return [
    `CPU profile of the measured parts' main thread (${files.length} profiles, ${busyMs.toFixed(0)} ms busy, idle left out)`,
    'self time by module:',
    ...top(byModule, count).map(([key, ms]) => `  ${share(ms)}  ${key}`),
    'self time by function:',
    ...top(byFunction, count).map(([key, ms]) => `  ${share(ms)}  ${key}`),
    "time in and under dsh-slack's own functions:",
    ...top(underOurs, 2 * count).map(([key, ms]) => `  ${share(ms)}  ${key}`),
  ]
}
