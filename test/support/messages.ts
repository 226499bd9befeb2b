import type { Sandbox } from '../../src/sandbox/index.js'
import type { StoredMessage } from '../../src/sandbox/model.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { storesOn } from './rig-registry.js'

const INTERACTIVE = new Set(['button', 'static_select', 'external_select', 'multi_static_select', 'multi_external_select', 'checkboxes', 'radio_buttons', 'overflow', 'users_select', 'conversations_select'])

/** Every interactive element type in a message (buttons, menus, checkboxes…), in order. */
export function interactiveElements(message: Pick<StoredMessage, 'blocks'>): string[] {
  const found: string[] = []
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (typeof value !== 'object' || value === null) return
    const type = (value as { type?: unknown }).type
    if (typeof type === 'string' && INTERACTIVE.has(type)) found.push(type)
    Object.values(value).forEach(visit)
  }
  visit(message.blocks)
  return found
}

/** All the text a person can read in a message's blocks (and its fallback text). */
export function visibleText(message: Pick<StoredMessage, 'blocks' | 'text'>): string {
  const parts: string[] = [message.text]
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (typeof value !== 'object' || value === null) return
    for (const [key, inner] of Object.entries(value)) {
      if ((key === 'text' || key === 'url' || key === 'user_id') && typeof inner === 'string') parts.push(inner)
      else visit(inner)
    }
  }
  visit(message.blocks)
  return parts.join('\n')
}

/** The message with that ts once its controls are gone (it was settled and updated). */
export function settledMessage(slack: Sandbox, channel: string, ts: string, timeoutMs = 5000): Promise<StoredMessage> {
  return slack.waitFor(
    () => {
      const message = slack.messages(channel).find((m) => m.ts === ts)
      return message && interactiveElements(message).length === 0 ? message : undefined
    },
    { timeoutMs, message: `message ${ts} to lose its controls` },
  )
}

/**
 * The newest top-level message of the channel once the bridge that posted
 * it has saved it on its ask (the ordinary path: a person clicks a message
 * the bridge knows about). Bridges started by `startRig` are consulted;
 * with none on this stand-in (a relay in another process) this is the
 * message as soon as it is visible.
 */
export async function postedMessage(slack: Sandbox, channel: string): Promise<StoredMessage> {
  const message = await visibleMessage(slack, channel)
  const stores = storesOn(slack)
  if (stores.length === 0) return message
  await waitUntil(async () => (await Promise.all(stores.map((store) => holdsMessage(store, message.ts)))).some(Boolean), `the bridge to save message ${message.ts} on its ask (a test that means to click mid-post uses visibleMessage)`)
  return message
}

/**
 * The newest top-level message as soon as the stand-in holds it, while the
 * bridge may still be posting (saving the message on the ask, posting a long
 * plan's thread): for tests that deliberately act mid-post.
 */
export function visibleMessage(slack: Sandbox, channel: string): Promise<StoredMessage> {
  return slack.waitFor(() => slack.latestMessage(channel), { timeoutMs: 5000, message: `a message in ${channel}` })
}

async function holdsMessage(store: AskStore, ts: string): Promise<boolean> {
  const pending = await store.listPending().catch(() => [])
  return pending.some((record) => record.message?.ts === ts)
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

/**
 * Where Slack would turn text into a ping or a link: the top-level text and
 * every mrkdwn text object (plain_text and rich_text text are literal), plus
 * rich_text mention and broadcast elements. Returns what was found.
 *
 * Any `<!`, `<@`, `<#`, `<http` or `<mailto` counts, closed by a literal `>`
 * or not: a raw `<` from agent text means escaping failed, whatever follows
 * it. Our own date tokens (`<!date^…>`) ping nobody and are left out.
 */
export function liveMentions(message: Pick<StoredMessage, 'blocks' | 'text'>): string[] {
  const found: string[] = []
  const scan = (text: string) => {
    for (const match of text.matchAll(/<(?:[!@#]|https?:|mailto:)[^<>]*>?/gi)) {
      if (!/^<!date\^\d+\^[^|<>]*\|[^<>]*>$/.test(match[0])) found.push(match[0])
    }
  }
  scan(message.text)
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (typeof value !== 'object' || value === null) return
    const node = value as { type?: unknown; text?: unknown }
    if (node.type === 'mrkdwn' && typeof node.text === 'string') scan(node.text)
    if (node.type === 'user' || node.type === 'usergroup' || node.type === 'broadcast' || node.type === 'channel') found.push(JSON.stringify(node))
    Object.values(value).forEach(visit)
  }
  visit(message.blocks)
  return found
}
