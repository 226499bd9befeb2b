import type { Logger } from '../../log/logger.js'

/** Enough ids to keep one warning per ask through a busy day, without growing forever. */
const REMEMBERED = 1000

/**
 * Interactions for asks a local (unshared) store does not know: with two
 * processes on one Slack app and no shared state, Slack hands each click to
 * either, so half of them land where the ask is unknown. The log says once
 * per ask what to configure; repeating it per click would bury it.
 */
export class UnknownAsks {
  readonly #warned = new Set<string>()

  constructor(private readonly logger: Logger) {}

  warnOnce(askId: string): void {
    if (this.#warned.has(askId)) return
    if (this.#warned.size >= REMEMBERED) this.#warned.delete(this.#warned.values().next().value!)
    this.#warned.add(askId)
    this.logger.warn(
      `ask ${askId}: Slack sent this process a click on a question it does not know, probably posted by another process on the same Slack app. ` +
        'Slack hands each interaction to any one of the app’s connections, so every process on the app must share one state: ' +
        'set the same DSH_SLACK_STATE=postgres://… on each of them, or let agents ask through one service (connectToService / dsh-slack ask --url).',
    )
  }
}
