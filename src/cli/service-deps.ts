import { loadCreateSlackBridge } from '../service/bridge-factory.js'
import type { LocalSlack } from '../service/local-slack.js'
import type { ServiceDeps } from '../service/start-service.js'

/** The real parts `serve` is built from, loaded when it runs. */
export async function serviceDeps(): Promise<ServiceDeps> {
  return {
    createBridge: await loadCreateSlackBridge(),
    startLocalSlack: async (): Promise<LocalSlack> => {
      throw new Error('the local Slack stand-in is not available yet in this build; set SLACK_BOT_TOKEN')
    },
  }
}
