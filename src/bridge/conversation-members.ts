import type { Logger } from '../log/logger.js'
import type { SlackPort } from '../slack/slack-port.js'
import { TIMING } from '../slack/timing.js'

interface Cached {
  members: Set<string>
  fetchedAt: number
}

/**
 * Who is in a conversation, looked up once per TIMING.conversationMembersCacheMs
 * (one lookup at a time per conversation). When anyone who can see a message
 * may answer it, these are the people whose Home tab lists it: a private
 * channel's question must not show on the tab of someone outside it.
 */
export class ConversationMembers {
  readonly #cache = new Map<string, Cached>()
  readonly #inflight = new Map<string, Promise<Set<string>>>()

  constructor(
    private readonly slack: Pick<SlackPort, 'conversationMembers'>,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** `fresh`: look it up now rather than trust the cache (a click that decides something). */
  async has(channel: string, user: string, options: { fresh?: boolean } = {}): Promise<boolean> {
    return (await this.#members(channel, options.fresh === true)).has(user)
  }

  #members(channel: string, fresh: boolean): Promise<Set<string>> {
    const cached = this.#cache.get(channel)
    if (!fresh && cached && this.now() - cached.fetchedAt < TIMING.conversationMembersCacheMs) return Promise.resolve(cached.members)
    let pending = this.#inflight.get(channel)
    if (!pending) {
      pending = this.slack
        .conversationMembers(channel)
        .then((members) => {
          const set = new Set(members)
          this.#cache.set(channel, { members: set, fetchedAt: this.now() })
          return set
        })
        .catch((error: unknown) => {
          // Unknown members show the ask to nobody's Home (the channel still has it), never to everyone.
          this.logger.warn(`could not look up the members of ${channel}: ${error instanceof Error ? error.message : String(error)}`)
          return cached?.members ?? new Set<string>()
        })
        .finally(() => this.#inflight.delete(channel))
      this.#inflight.set(channel, pending)
    }
    return pending
  }
}
