import type { CodeChannel } from '../../src/sandbox/code-channels.js'
import type { Sandbox } from '../../src/sandbox/index.js'

/**
 * The code channel whose context bar names the agent session `session`
 * (set once its plan canvas is in place). dsh-slack keys the channel itself
 * by a digest of the door, the card's channel and the session (decision
 * 0090), so its `session_id` is not the agent's id. Undefined while there
 * is none, and when several scopes have one: look those up by origin.
 */
export function codeChannelOfSession(slack: Sandbox, session: string): CodeChannel | undefined {
  const found = [...slack.codeChannels.channels.values()].filter((channel) => channel.contextBar.some((item) => item.key === 'session' && item.label === session))
  return found.length === 1 ? found[0] : undefined
}

/** The code channel made from this card (its origin). */
export function codeChannelOfCard(slack: Sandbox, card: { ts: string }): CodeChannel | undefined {
  return [...slack.codeChannels.channels.values()].find((channel) => channel.origin?.ts === card.ts)
}
