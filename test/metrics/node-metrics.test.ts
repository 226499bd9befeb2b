import { collectDefaultMetrics, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { collectNodeMetrics } from '../../src/metrics/node-metrics.js'
import { ServiceMetrics } from '../../src/metrics/service-metrics.js'

const namesIn = async (registry: Registry) => (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort()

describe("the service's Node metrics", () => {
  it("are prom-client's defaults, every one but the GC histogram, whose observer costs CPU on every collection", async () => {
    const ours = new Registry()
    collectNodeMetrics(ours)
    const defaults = new Registry()
    collectDefaultMetrics({ register: defaults })

    const expected = (await namesIn(defaults)).filter((name) => name !== 'nodejs_gc_duration_seconds')
    expect(await namesIn(ours)).toEqual(expected)
    expect(expected).toContain('nodejs_eventloop_lag_p99_seconds')
    expect(expected).toContain('process_cpu_user_seconds_total')
    expect(expected).toContain('nodejs_heap_size_used_bytes')
  })

  it("are in the service's /metrics, with real figures", async () => {
    const text = await new ServiceMetrics().registry.metrics()

    expect(text).toMatch(/^nodejs_heap_size_used_bytes [1-9]\d*$/m)
    expect(text).toMatch(/^nodejs_version_info\{version="v\d+\.\d+\.\d+",major="\d+",minor="\d+",patch="\d+"\} 1$/m)
    expect(text).not.toMatch(/nodejs_gc_duration_seconds/)
  })
})
