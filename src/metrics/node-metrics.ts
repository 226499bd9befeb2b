import { createRequire } from 'node:module'
import type { Registry } from 'prom-client'

/** One of prom-client's default collectors: registers its metrics in `registry`. */
type DefaultCollector = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void

/**
 * prom-client's default collectors, by the file each lives in, but for
 * `gc` (`nodejs_gc_duration_seconds`): its PerformanceObserver on `gc`
 * entries costs the process about half a millisecond of CPU per garbage
 * collection on Node 20 (measured: 0.5–0.7 ms per scavenge with an empty
 * observer, against collections of 1–3 ms), and a busy service collects
 * every two or three asks. `--trace-gc` tells the same when it is wanted.
 * The others cost nothing between scrapes but the event-loop monitor's
 * native timer.
 */
const COLLECTORS = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
] as const

const requireFromHere = createRequire(import.meta.url)

/** Node's own metrics (event-loop delay, memory, handles, CPU) in `registry`, as prom-client's defaults less the GC histogram. */
export function collectNodeMetrics(registry: Registry): void {
  for (const name of COLLECTORS) {
    // prom-client publishes each collector as a file of its own (CommonJS, no types); its version is pinned.
    const collect = requireFromHere(`prom-client/lib/metrics/${name}.js`) as DefaultCollector
    collect(registry, { eventLoopMonitoringPrecision: 10 })
  }
}
