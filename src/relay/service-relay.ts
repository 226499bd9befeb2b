import type { StartRelay } from '../service/start-service.js'
import { hostTargets, startRelay } from './start-relay.js'

/** `serve` with DSH_HOST_URL set: the same relay, on the service's bridge (ServiceDeps.startRelay). */
export const startServiceRelay: StartRelay = async ({ bridge, config, logger }) =>
  startRelay({ bridge, hosts: hostTargets(config), logger })
