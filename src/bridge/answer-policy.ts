import type { Logger } from '../log/logger.js'
import type { SlackPort } from '../slack/slack-port.js'
import { TIMING } from '../slack/timing.js'

interface CachedMembers {
  members: Set<string>
  fetchedAt: number
  /** The look-up failed: `members` are the last known (or none), trusted only TIMING.userGroupFailureCacheMs. */
  failed?: true
}

/** Groups whose members are remembered; past this the oldest are forgotten (a list of made-up groups cannot grow memory). */
const GROUPS_CACHED = 10_000

/**
 * Who may answer: the allowed users, plus members of the allowed user
 * groups (looked up, cached, refreshed). With neither configured, anyone
 * who can see the message may answer.
 */
export class AnswerPolicy {
  #users: Set<string>
  #groups: string[]
  readonly #cache = new Map<string, CachedMembers>()
  readonly #inflight = new Map<string, Promise<Set<string>>>()
  /** Groups whose last look-up failed and was logged: one warning each until a look-up works again. */
  readonly #warned = new Set<string>()

  constructor(
    private readonly slack: Pick<SlackPort, 'userGroupMembers'>,
    options: { allowedUsers?: string[]; allowedUserGroups?: string[] },
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.#users = new Set()
    this.#groups = []
    this.setAllowed([...(options.allowedUsers ?? []), ...(options.allowedUserGroups ?? [])])
  }

  /** Who may answer asks whose rule names nobody: user and user-group ids (a policy reload). */
  setAllowed(ids: string[]): void {
    this.#users = new Set(ids.filter((id) => !id.startsWith('S')))
    this.#groups = ids.filter((id) => id.startsWith('S'))
  }

  get isOpen(): boolean {
    return this.#users.size === 0 && this.#groups.length === 0
  }

  /**
   * Whether this person may act on an ask. An ask with named `approvers`
   * (its policy, or DSH_SLACK_APPROVERS for approvals) is theirs alone:
   * they approve and they veto, whatever they click; an ask whose rule names
   * its own `answerers` is theirs; everything else follows the allowed users.
   */
  async mayAnswer(userId: string, approvers?: string[], answerers?: string[]): Promise<boolean> {
    const named = approvers !== undefined && approvers.length > 0 ? approvers : answerers
    if (named !== undefined && named.length > 0) {
      if (named.includes(userId)) return true
      for (const group of named.filter((id) => id.startsWith('S'))) {
        if ((await this.#members(group)).has(userId)) return true
      }
      return false
    }
    if (this.isOpen || this.#users.has(userId)) return true
    for (const group of this.#groups) {
      if ((await this.#members(group)).has(userId)) return true
    }
    return false
  }

  async #members(group: string): Promise<Set<string>> {
    const cached = this.#cache.get(group)
    const trustedFor = cached?.failed ? TIMING.userGroupFailureCacheMs : TIMING.userGroupCacheMs
    if (cached && this.now() - cached.fetchedAt < trustedFor) return cached.members
    let pending = this.#inflight.get(group)
    if (!pending) {
      pending = this.slack
        .userGroupMembers(group)
        .then((members) => {
          const set = new Set(members)
          this.#remember(group, { members: set, fetchedAt: this.now() })
          this.#warned.delete(group)
          return set
        })
        .catch((error: unknown) => {
          // A failed refresh keeps the last known members rather than locking everyone out,
          // and is remembered too (briefly): the next click does not look the group up again.
          const members = cached?.members ?? new Set<string>()
          this.#remember(group, { members, fetchedAt: this.now(), failed: true })
          if (!this.#warned.has(group)) {
            if (this.#warned.size >= GROUPS_CACHED) this.#warned.clear()
            this.#warned.add(group)
            this.logger.warn(`could not look up members of user group ${group}: ${error instanceof Error ? error.message : String(error)} (not logged again for this group until a look-up works)`)
          }
          return members
        })
        .finally(() => this.#inflight.delete(group))
      this.#inflight.set(group, pending)
    }
    return pending
  }

  #remember(group: string, entry: CachedMembers): void {
    this.#cache.delete(group)
    if (this.#cache.size >= GROUPS_CACHED) this.#cache.delete(this.#cache.keys().next().value!)
    this.#cache.set(group, entry)
  }
}
