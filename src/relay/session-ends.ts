/**
 * A host's sessions that someone archived in its web UI have ended
 * (decision 0078): their code channels are archived too. The relay reads
 * the host's own stream (`/api/events.host`) beside `events.mux`: it sends
 * `host/archived-sessions-changed` with the whole archived set on each
 * change and nothing on connect, so the set as it stood is read once per
 * connection from `workspace.list`, and only sessions added to it after
 * that end here. A session archived while the relay was away is missed
 * (its channel stays open: nothing is lost but the tidying).
 */
import { z } from 'zod'

import type { SlackBridge } from '../bridge/types.js'
import type { Logger } from '../log/logger.js'
import type { HostFrame } from './frames.js'
import type { HostAccess } from './host-access.js'
import { HostClient } from './host-client.js'
import type { HostHttp } from './host-http.js'
import type { HostEndpoints } from './host-url.js'
import type { Scheduler } from './scheduler.js'
import type { RelayTiming } from './timing.js'

const workspaceList = z.object({ archivedSessionIds: z.array(z.string()).default([]) })

export interface HostSessionEndsOptions {
  bridge: Pick<SlackBridge, 'sessionEnded'>
  endpoints: HostEndpoints
  /** The question stream's login: one cookie and one login budget per host. */
  access: HostAccess
  http: HostHttp
  logger: Logger
  scheduler: Scheduler
  timing: RelayTiming
  /** Work to wait for on stop. */
  track(task: Promise<unknown>): void
}

/** Everything of the host stream's own connection goes to debug: the question stream's lines already say how the host is. */
function quiet(logger: Logger): Logger {
  const debug = (message: string) => logger.debug(message)
  return { info: debug, warn: debug, error: debug, debug }
}

export class HostSessionEnds {
  readonly #options: HostSessionEndsOptions
  readonly #client: HostClient
  /** The archived set as this connection knows it; undefined until `workspace.list` answered. */
  #archived: Set<string> | undefined
  #connection = 0

  constructor(options: HostSessionEndsOptions) {
    this.#options = options
    const { endpoints, http, scheduler, timing, logger } = options
    this.#client = new HostClient({
      endpoints: { ...endpoints, events: endpoints.hostEvents },
      access: options.access,
      http,
      logger: quiet(logger),
      scheduler,
      timing,
      onFrame: (frame) => this.#onFrame(frame),
      onConnected: (connection) => options.track(this.#baseline(connection)),
    })
  }

  #started = false

  /** Starts once, when the question stream first connects: a host that cannot be reached or logged in to is tried by one stream only. */
  start(): void {
    if (this.#started || !this.#options.bridge.sessionEnded) return
    this.#started = true
    this.#client.start()
  }

  stop(): Promise<void> {
    return this.#client.stop()
  }

  async #baseline(connection: number): Promise<void> {
    this.#connection = connection
    this.#archived = undefined
    try {
      const listed = workspaceList.parse(await this.#client.call('workspace.list', {}))
      if (connection === this.#connection) this.#archived = new Set(listed.archivedSessionIds)
    } catch (error) {
      this.#options.logger.debug(`relay ${this.#options.endpoints.base}: could not read the archived sessions (workspace.list): ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  #onFrame(frame: HostFrame): void {
    if (frame.kind !== 'sessions-archived') return
    const known = this.#archived
    // Without the set as it stood, every archived session would look new: take this one as it, and act from the next.
    this.#archived = new Set(frame.sessionIds)
    if (!known) return
    for (const session of frame.sessionIds.filter((id) => !known.has(id))) this.#options.track(this.#end(session))
  }

  async #end(session: string): Promise<void> {
    const { bridge, logger, endpoints } = this.#options
    try {
      // The host's own session: the same id from another host or an API key is not this one (decision 0090).
      const outcome = await bridge.sessionEnded?.(session, { kind: 'host', url: endpoints.base })
      if (outcome?.kind === 'archived') logger.info(`relay ${endpoints.base}: session ${session} was archived on the host; its code channel ${outcome.channel} is archived`)
    } catch (error) {
      logger.warn(`relay ${endpoints.base}: session ${session} was archived on the host, but its code channel was not: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
