/**
 * trigger_ids: each interaction payload carries a fresh one, which works once
 * (`exchanged_trigger_id`) and for 3 seconds (`expired_trigger_id`); one the
 * stand-in never issued is `invalid_trigger_id` (Slack's codes for views.open
 * and views.push).
 */
import { TIMING } from '../slack/timing.js'
import type { SandboxClock } from './clock.js'
import { SlackRefusal } from './errors.js'
import type { IdSource } from './ids.js'

interface Trigger {
  user: string
  issuedAt: number
  used: boolean
}

export class TriggerRegistry {
  private readonly triggers = new Map<string, Trigger>()

  constructor(
    private readonly ids: IdSource,
    private readonly clock: SandboxClock,
  ) {}

  /** A fresh trigger_id for an interaction by `user`. */
  issue(user: string): string {
    const id = this.ids.trigger()
    this.triggers.set(id, { user, issuedAt: this.clock.now(), used: false })
    return id
  }

  /** Uses a trigger_id up and says whose it is, or refuses as Slack would. */
  exchange(id: string): string {
    const trigger = this.triggers.get(id)
    if (!trigger) throw new SlackRefusal('invalid_trigger_id')
    if (trigger.used) throw new SlackRefusal('exchanged_trigger_id')
    if (this.clock.now() - trigger.issuedAt > TIMING.triggerIdLifetimeMs) throw new SlackRefusal('expired_trigger_id')
    trigger.used = true
    return trigger.user
  }
}
