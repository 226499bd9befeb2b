/**
 * One ask round trip as both provider benchmarks time it, on the stand-in:
 * `POST /v1/asks` → 201, → message posted (at the stand-in), a person's
 * click → ack, → the answer at the HTTP client (the long-poll returns),
 * → message updated (at the stand-in).
 */
import type { Sandbox, ScriptedUser } from '../../src/sandbox/index.js'
import { RATE_RULES } from '../../src/slack/rate-rules.js'
import { now } from './stats.js'

export const benchQuestion = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }

/**
 * Spacing between round trips so that no app meets Slack's workspace-wide
 * posting budget (the stand-in enforces it): one post per token's refill.
 */
export const ROUND_SPACING_MS = Math.ceil(1000 / RATE_RULES.workspacePost.perSecond)

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Channels to spread asks over, so Slack's one-post-a-second per channel does not dominate latency figures. */
export function makeChannels(slack: Sandbox, count: number, prefix = 'C0BENCH'): string[] {
  return Array.from({ length: count }, (_, i) => slack.createChannel({ id: `${prefix}${String(i).padStart(4, '0')}`, name: `${prefix.toLowerCase()}-${i}`, botIsMember: true }).id)
}

/** When each message was posted and last updated at the stand-in, by ts (read off its change events). */
export function watchMessages(slack: Sandbox) {
  const posted = new Map<string, number>()
  const updated = new Map<string, number>()
  slack.workspace.on('change', (change) => {
    if (change.type === 'message_posted') posted.set(change.message.ts, now())
    if (change.type === 'message_updated') updated.set(change.message.ts, now())
  })
  return {
    posted,
    updated,
    whenPosted: (ts: string) => slack.waitFor(() => posted.get(ts), { timeoutMs: 30_000 }),
    whenUpdated: (ts: string) => slack.waitFor(() => updated.get(ts), { timeoutMs: 30_000 }),
  }
}

export async function postAsk(url: string, body: unknown): Promise<{ id: string; ts: string; channel: string }> {
  const response = await fetch(`${url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (response.status !== 201) throw new Error(`POST /v1/asks answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { id: string; ts: string; channel: string }
}

/** One round trip's figures (ms). */
export interface RoundTripSample {
  created: number
  posted: number
  ack: number
  answered: number
  updated: number
}

export type RoundTripFigure = keyof RoundTripSample

/** An app under test on its stand-in, with the person who answers. */
export interface RoundTripRig {
  slack: Sandbox
  url: string
  seen: ReturnType<typeof watchMessages>
  user: ScriptedUser
  /** Resolves once the app holds the long-poll for ask `id`: the tap comes while the agent waits. */
  whenWaiting(id: string): Promise<void>
}

/** Asks in `channel`, waits for the card and for the app to hold the long-poll, taps "npm", and waits for the answer and the updated card. */
export async function roundTrip(rig: RoundTripRig, channel: string): Promise<RoundTripSample> {
  const start = now()
  const created = await postAsk(rig.url, { questions: [benchQuestion], channel })
  const createdAt = now()
  const postedAt = await rig.seen.whenPosted(created.ts)
  const answer = fetch(`${rig.url}/v1/asks/${created.id}?wait=30`).then(async (response) => {
    await response.json()
    return now()
  })
  await rig.whenWaiting(created.id)
  const message = rig.slack.messages(channel).find((m) => m.ts === created.ts)!
  const clickedAt = now()
  await rig.user.click(message, 'npm')
  const ackedAt = now()
  const answeredAt = await answer
  const updatedAt = await rig.seen.whenUpdated(created.ts)
  return { created: createdAt - start, posted: postedAt - start, ack: ackedAt - clickedAt, answered: answeredAt - clickedAt, updated: updatedAt - clickedAt }
}
