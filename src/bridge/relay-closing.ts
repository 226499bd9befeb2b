import { noticeText } from '../../blocks/index.js'
import type { Outcome } from '../../blocks/view.js'
import type { Logger } from '../log/logger.js'
import type { SlackPort } from '../slack/slack-port.js'
import type { AskRecord, Settlement, SettleResult } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { ViewSettings } from './ask-view.js'
import { awaitsDelivery, elsewhereOutcome, personOfOutcome } from './shown-outcome.js'
import type { CloseHow } from './types.js'

export interface RelayClosingOptions {
  store: AskStore
  slack: SlackPort
  settings: ViewSettings
  logger: Logger
  now: () => number
  settle: (id: string, settlement: Settlement) => Promise<SettleResult>
  /** Corrects a card to show `outcome`. */
  showSettled: (record: AskRecord, outcome: Outcome) => Promise<unknown>
}

/**
 * A relay's word on its asks after the card: the host accepted the answer
 * given in Slack (the card stops saying it is being delivered), or the
 * request was settled on the host, is gone, or was refused.
 */
export class RelayClosing {
  constructor(private readonly options: RelayClosingOptions) {}

  /** The host accepted the answer given in Slack: until now the card said it was being delivered; now it says who answered. */
  async delivered(id: string): Promise<void> {
    const record = await this.options.store.get(id)
    if (!record?.settlement || !awaitsDelivery(record, record.settlement.outcome)) return
    await this.options.showSettled(record, record.settlement.outcome)
  }

  /**
   * Settled outside Slack. A settled ask only has its message corrected.
   * `undelivered`: the person's answer reached a host that no longer held
   * the request; the card says so, naming them, and they are told privately
   * (the ask keeps its settlement: it is what they answered).
   */
  async closeElsewhere(id: string, how: CloseHow): Promise<AskRecord | undefined> {
    const record = await this.options.store.get(id)
    if (!record) return undefined
    const at = this.options.now()
    const outcome = elsewhereOutcome(record, how, at)
    if (record.status !== 'pending') {
      await this.options.showSettled(record, outcome)
      if (how === 'undelivered') await this.#tellUndelivered(record)
      return record
    }
    const status = typeof how === 'object' ? 'failed' : how === 'cancelled' ? 'cancelled' : how === 'gone' || how === 'undelivered' ? 'aborted' : 'answered'
    const message = typeof how === 'object' ? how.failed : `settled outside Slack (${how})`
    const result = await this.options.settle(id, { status, outcome, error: { code: status === 'cancelled' ? 'ASK_CANCELLED' : 'ASK_ABORTED', message } })
    // Settled in Slack a moment earlier: the host's word still corrects the message.
    if (!result.won) await this.options.showSettled(result.record, outcome)
    return result.record
  }

  async #tellUndelivered(record: AskRecord): Promise<void> {
    const by = personOfOutcome(record.settlement?.outcome)
    if (!by || !record.message) return
    try {
      await this.options.slack.postEphemeral(record.message.channel, by.id, noticeText(this.options.settings.locale, { kind: 'undelivered' }))
    } catch (error) {
      this.options.logger.warn(`ask ${record.id}: could not tell ${by.id} the answer was not delivered: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
