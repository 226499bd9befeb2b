/**
 * The small trusted pieces every card shows: who asks (agent, session, cwd),
 * whom it notifies, who acted, and when, in Slack's own date syntax.
 */
import type { ContextBlock } from '@slack/types'
import { wordsFor } from './i18n.js'
import { LIMIT } from './limits.js'
import { escapeMrkdwn, fitMrkdwn, fitText, shownText } from './text.js'
import type { AgentView, Locale, Person } from './view.js'

/** A user (U…/W…) or user-group (S…) id as Slack issues them. */
const USER_ID = /^[UW][A-Z0-9]{1,30}$/
const GROUP_ID = /^S[A-Z0-9]{1,30}$/

/**
 * The mention for a configured id: `<@U…>` or `<!subteam^S…>`. Anything else
 * (a typo, a name) mentions no one: it is trusted config, but a malformed
 * value must not produce Slack syntax.
 */
export function mentionOf(id: string | undefined): string | undefined {
  if (id === undefined) return undefined
  if (USER_ID.test(id)) return `<@${id}>`
  if (GROUP_ID.test(id)) return `<!subteam^${id}>`
  return undefined
}

/** Who acted: a mention of the Slack user id (from Slack's payload), else their escaped name. */
export function personMrkdwn(person: Person): string {
  if (USER_ID.test(person.id)) return `<@${person.id}>`
  return fitMrkdwn(person.name ?? person.id, LIMIT.contextField)
}

/** A time as Slack's `<!date>`: each reader sees their own time zone; the fallback is UTC. */
export function dateMrkdwn(locale: Locale, at: number): string {
  const seconds = Math.floor(at / 1000)
  const fallback = Number.isFinite(at) ? new Date(seconds * 1000).toISOString().replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC') : '?'
  return `<!date^${Number.isFinite(seconds) ? seconds : 0}^${wordsFor(locale).dateFormat}|${fallback}>`
}

/** The name an agent goes by in notifications: its title, else its session id. */
export function agentName(locale: Locale, agent: AgentView | undefined): string {
  const name = agent?.title?.trim() || agent?.id?.trim()
  return name ? fitMrkdwn(name, LIMIT.contextField) : wordsFor(locale).anAgent
}

function code(text: string): string {
  // Backticks would end the code span early; agent text keeps its words, not its backticks.
  return `\`${fitMrkdwn(text.replace(/`/g, 'ˋ'), LIMIT.contextField)}\``
}

/**
 * The card's first line: mention, agent, host, session, working directory, model,
 * expiry. The agent's title is a `plain_text` element of its own: mrkdwn has
 * no escape for `*`, `_` and `~`, so a title like `*t* _i_` would otherwise
 * render bold and italic. Session, cwd and model are in code spans, which
 * show their text literally.
 */
export function askContext(locale: Locale, agent: AgentView | undefined, mention: string | undefined, expiresAt: number | undefined): ContextBlock {
  const words = wordsFor(locale)
  const line = new ContextLineBuilder()
  const who = mentionOf(mention)
  if (who !== undefined) line.mrkdwn(who)
  // The agent's title, else its session as the name: a bare "Agent" label
  // with nothing after it reads as a missing value.
  const title = agent?.title?.trim()
  if (title) line.mrkdwn(`*${escapeMrkdwn(words.agent)}*`, fitText(shownText(title), LIMIT.contextField))
  // Several hosts: the host first, so the session id is read as one of its sessions.
  if (agent?.host?.trim()) line.mrkdwn(`${words.host} ${code(agent.host)}`)
  if (agent?.id?.trim()) line.mrkdwn(title ? `${words.session} ${code(agent.id)}` : `*${escapeMrkdwn(words.agent)}* ${code(agent.id)}`)
  else if (!title) line.mrkdwn(`*${escapeMrkdwn(words.anAgent)}*`)
  if (agent?.cwd?.trim()) line.mrkdwn(code(agent.cwd))
  if (agent?.model?.trim()) line.mrkdwn(code(agent.model))
  if (expiresAt !== undefined) line.mrkdwn(words.expires(dateMrkdwn(locale, expiresAt)))
  return { type: 'context', elements: line.elements() }
}

/** Parts joined with ` · `, as few elements as possible: agent text as literal plain_text, the rest as one mrkdwn run. */
class ContextLineBuilder {
  readonly #elements: ContextBlock['elements'] = []
  #pending: string[] = []
  #first = true

  /** A trusted mrkdwn part, optionally followed by untrusted text shown literally. */
  mrkdwn(part: string, literal?: string): void {
    this.#pending.push(this.#first ? part : `· ${part}`)
    this.#first = false
    if (literal === undefined) return
    this.#flush()
    this.#elements.push({ type: 'plain_text', text: literal, emoji: false })
  }

  elements(): ContextBlock['elements'] {
    this.#flush()
    return this.#elements
  }

  #flush(): void {
    if (this.#pending.length > 0) this.#elements.push({ type: 'mrkdwn', text: this.#pending.join(' ') })
    this.#pending = []
  }
}
