/**
 * The small trusted pieces every card shows: who asks (agent, session, cwd),
 * whom it notifies, who acted, and when, in Slack's own date syntax.
 */
import type { ContextBlock } from '@slack/types'
import { wordsFor } from './i18n.js'
import { LIMIT } from './limits.js'
import { contextLine } from './layout.js'
import { escapeMrkdwn, fitMrkdwn } from './text.js'
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

/** The card's first line: mention, agent, session, working directory, model, expiry. */
export function askContext(locale: Locale, agent: AgentView | undefined, mention: string | undefined, expiresAt: number | undefined): ContextBlock {
  const words = wordsFor(locale)
  const parts: string[] = []
  const who = mentionOf(mention)
  if (who !== undefined) parts.push(who)
  // The agent's title, else its session as the name: a bare "Agent" label
  // with nothing after it reads as a missing value.
  const title = agent?.title?.trim()
  if (title) parts.push(`*${escapeMrkdwn(words.agent)}* ${fitMrkdwn(title, LIMIT.contextField)}`)
  if (agent?.id?.trim()) parts.push(title ? `${words.session} ${code(agent.id)}` : `*${escapeMrkdwn(words.agent)}* ${code(agent.id)}`)
  else if (!title) parts.push(`*${escapeMrkdwn(words.anAgent)}*`)
  if (agent?.cwd?.trim()) parts.push(code(agent.cwd))
  if (agent?.model?.trim()) parts.push(code(agent.model))
  if (expiresAt !== undefined) parts.push(words.expires(dateMrkdwn(locale, expiresAt)))
  return contextLine(parts.join(' · '))
}
