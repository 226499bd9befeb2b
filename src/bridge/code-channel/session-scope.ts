/**
 * Which code channel a plan review belongs to (decision 0090). The agent
 * writes its own `agent.id`, so the id alone would let two teams meet: a
 * key whose agent says `session-1` would be handed the channel, the canvas
 * and the comments of another key's `session-1`, and a plan sent to a
 * private channel would land in a public code channel made from another
 * card. A code channel is therefore one per (door, card channel, agent
 * session): the door is what the operator assigned (the API key, the
 * relayed host, or the deployment's own processes), the card's channel is
 * where the operator's rules sent the ask, and only then the agent's id.
 * Slack returns the existing channel for a known `session_id`, so that id
 * is built from all three; and since a new code channel matches the privacy
 * of its origin, a private card's channel can only ever be a private one.
 */
import { createHash } from 'node:crypto'

import type { AskDoor } from '../../store/ask-record.js'

/** One agent session as seen from one door and one card channel: what a code channel is kept per. */
export interface SessionScope {
  door: AskDoor
  /** The channel of the review's card: the code channel's origin. */
  channel: string
  /** The agent's own session id (`agent.id`), as it wrote it: shown, never trusted as a key alone. */
  session: string
}

/** Bumped if the derivation ever changes: a different version never names the same channel. */
const VERSION = 'dsh1'

/**
 * The `session_id` Slack keeps the code channel under: a digest of the
 * scope, so two scopes never share a channel, every instance derives the
 * same id from the shared store, and neither the agent's text (of any
 * length or alphabet) nor the API key's name reaches Slack. Slack's
 * documentation calls `session_id` "an opaque identifier" and gives no
 * length or alphabet; this is 37 characters of `[a-z0-9_]` (128 bits of
 * the digest: no two scopes meet by chance).
 */
export function slackSessionId(scope: SessionScope): string {
  // JSON of an array: no two scopes write the same text, whatever their parts hold (`a` + `b:c` is not `a:b` + `c`).
  const parts = JSON.stringify([VERSION, scope.door.kind, scope.door.kind === 'api-key' ? scope.door.name : scope.door.kind === 'host' ? scope.door.url : '', scope.channel, scope.session])
  return `${VERSION}_${createHash('sha256').update(parts).digest('hex').slice(0, 32)}`
}
