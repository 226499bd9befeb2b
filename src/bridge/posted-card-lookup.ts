import type { Logger } from '../log/logger.js'
import { SlackCallError } from '../slack/slack-call-error.js'
import type { MessageMetadata, SlackPort } from '../slack/slack-port.js'
import type { AskRecord } from '../store/ask-record.js'

/** The metadata event type every card carries (Slack wants snake_case). */
export const CARD_EVENT_TYPE = 'dsh_slack_ask'

/** What a card of ask `id` carries: found again in the channel's history by it. */
export function cardMetadata(id: string): MessageMetadata {
  return { eventType: CARD_EVENT_TYPE, payload: { ask_id: id } }
}

/**
 * Before an instance posts an ask it took over: was its card already posted?
 * Its first poster may have died after Slack took the card and before the
 * answer came back (chat.postMessage has no idempotency key), so the card is
 * looked for in the channel's history since the ask was made, by the ask id
 * in its metadata. A look-up Slack refuses (no history scope, not in the
 * channel) or that fails is no reason not to post: the card is posted as
 * before, and the log says once that a second card is possible.
 */
export class PostedCardLookup {
  #saidUnavailable = false

  constructor(private readonly options: { slack: Pick<SlackPort, 'findMessageByMetadata'>; logger: Logger }) {}

  async find(record: Pick<AskRecord, 'id' | 'createdAt'>, channel: string): Promise<{ channel: string; ts: string } | undefined> {
    try {
      return await this.options.slack.findMessageByMetadata(channel, cardMetadata(record.id), record.createdAt)
    } catch (error) {
      if (!this.#saidUnavailable) {
        this.#saidUnavailable = true
        const why = error instanceof SlackCallError ? `Slack error "${error.slackError}"` : error instanceof Error ? error.message : String(error)
        this.options.logger.warn(
          `ask ${record.id}: could not look in ${channel}'s history for a card its stopped instance may have posted (${why}; needs channels:history, groups:history or im:history): posting it; if that instance's post had reached Slack, the ask has two cards, both answerable. Said once.`,
        )
      }
      return undefined
    }
  }
}
