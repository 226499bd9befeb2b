import { loadCreateSlackBridge } from '../service/bridge-factory.js'
import { sampleAskHook } from '../service/sample-asks.js'
import { startStandIn } from '../service/stand-in.js'
import type { ServiceDeps } from '../service/start-service.js'

/** The real parts `serve` is built from, loaded when it runs. */
export async function serviceDeps(): Promise<ServiceDeps> {
  const createBridge = await loadCreateSlackBridge()
  // The stand-in page's "Send a sample ask" panel posts through the bridge, which starts after the stand-in.
  const sampleAsks = sampleAskHook()
  return {
    createBridge: async (options) => sampleAsks.attach(await createBridge(options)),
    startLocalSlack: (options) => startStandIn({ ...options, samples: sampleAsks.samples }),
    startRelay: async (options) => (await import('../relay/service-relay.js')).startServiceRelay(options),
  }
}
