import { loadCreateSlackBridge } from '../service/bridge-factory.js'
import type { LocalSlack } from '../service/local-slack.js'
import type { ServiceDeps } from '../service/start-service.js'

/** The real parts `serve` is built from, loaded when it runs. */
export async function serviceDeps(): Promise<ServiceDeps> {
  return {
    createBridge: await loadCreateSlackBridge(),
    startLocalSlack: async (): Promise<LocalSlack> => {
      const { startSandbox } = await import('../sandbox/index.js')
      const sandbox = await startSandbox()
      const webUrl = (sandbox as { webUrl?: unknown }).webUrl
      return {
        apiUrl: sandbox.apiUrl,
        ...(typeof webUrl === 'string' ? { webUrl } : {}),
        botToken: sandbox.botToken,
        appToken: sandbox.appToken,
        channel: sandbox.defaultChannel,
        stop: () => sandbox.close(),
      }
    },
    startRelay: async (options) => (await import('../relay/service-relay.js')).startServiceRelay(options),
  }
}
