/**
 * The HTTP side every reference app shares (all but dsh-slack's own), as
 * the shared peer bench's reference apps have it (issue 52): `POST /v1/asks`
 * and `GET /v1/asks/:id?wait=` the way the service takes them, the card
 * through the app's own way to Slack (`Cards`), the first answer to the
 * waiting request, then the answer on the card. With a `Journal` it keeps
 * the ask durably as it goes (journal.ts). The same calls and writes per
 * round trip as the peer bench's apps A, B, D and E (docs/benchmarks.md).
 */
import { randomUUID } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { WebClient } from '@slack/web-api'
import type { Journal } from './journal.js'

/** One question of the request, as the bench sends it. */
export interface Question {
  id: string
  question: string
  options: { label: string }[]
}

/** An ask the app has posted: its question, where its card is, and who waits for it. */
export interface Pending {
  id: string
  question: Question
  channel: string
  ts: string
  /** The label chosen, once answered. */
  answer?: { label: string; user: string }
  waiters: (() => void)[]
}

/** How an app puts an ask's card in Slack, and the answer on it. */
export interface Cards {
  post(ask: { id: string; question: Question }, channel: string): Promise<{ channel: string; ts: string }>
  showAnswer(pending: Pending, label: string, userName: string): Promise<void>
}

/** One tap as every reference app sees it, whatever its SDK's shape: who, and the button's value (`askId:option`). */
export interface Tap {
  user: string
  userName: string
  value: string | undefined
}

/** The two texts every reference card shows, as the peer bench's apps render them. */
export const render = {
  title: (question: Question) => question.question,
  // No <@U…> mention: the Chat SDK resolves mentions (a users.info call) and Bolt does not; the work stays equal.
  resolvedLine: (label: string, userName: string) => `${label} — chosen by ${userName}`,
}

/** The peer bench's card (header, section, one button per option), through a Web API client: the Bolt and floor apps'. */
export function blockKitCards(client: WebClient): Cards {
  return {
    post: async (ask, channel) => {
      const title = render.title(ask.question)
      const posted = await client.chat.postMessage({
        channel,
        text: title,
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: title, emoji: true } },
          { type: 'section', text: { type: 'mrkdwn', text: ask.question.question } },
          {
            type: 'actions',
            elements: ask.question.options.map((option, i) => ({ type: 'button', action_id: `opt_${i}`, text: { type: 'plain_text', text: option.label, emoji: true }, value: `${ask.id}:${i}`, ...(i === 0 ? { style: 'primary' as const } : {}) })),
          },
        ],
        unfurl_links: false,
        unfurl_media: false,
      })
      return { channel: posted.channel!, ts: posted.ts! }
    },
    showAnswer: async (pending, label, userName) => {
      const title = render.title(pending.question)
      await client.chat.update({
        channel: pending.channel,
        ts: pending.ts,
        text: `${title}: ${label}`,
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: title, emoji: true } },
          { type: 'section', text: { type: 'mrkdwn', text: render.resolvedLine(label, userName) } },
        ],
      })
    },
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

const view = (pending: Pending) => ({
  id: pending.id,
  status: pending.answer ? 'answered' : 'pending',
  ...(pending.answer ? { answer: { answers: [{ id: pending.question.id, selected: [pending.answer.label] }] }, answeredBy: { id: pending.answer.user } } : {}),
})

/** The HTTP side the reference apps share: ask, long-poll, and what a tap does after its ack. */
export function bareAsks(cards: Cards, journal?: Journal) {
  const byId = new Map<string, Pending>()
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.method === 'POST' && url.pathname === '/v1/asks') {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { questions: Question[]; channel: string }
          const ask = { id: randomUUID(), question: body.questions[0]! }
          await journal?.opened(ask.id, ask.question)
          const posted = await cards.post(ask, body.channel)
          await journal?.posted(ask.id, posted.channel, posted.ts)
          byId.set(ask.id, { ...ask, channel: posted.channel, ts: posted.ts, waiters: [] })
          send(res, 201, { id: ask.id, status: 'pending', channel: posted.channel, ts: posted.ts })
        })().catch((error: unknown) => send(res, 502, { error: { code: 'SLACK_API_ERROR', message: String(error) } }))
      })
      return
    }
    const pending = byId.get(decodeURIComponent(url.pathname.split('/')[3] ?? ''))
    if (req.method === 'GET' && pending) {
      // Answered when woken, before the click goes on to update the card.
      if (pending.answer) return send(res, 200, view(pending))
      return void pending.waiters.push(() => send(res, 200, view(pending)))
    }
    send(res, 404, { error: { code: 'NOT_FOUND', message: 'no such ask' } })
  })
  /** After the ack: the first answer written (with a journal), to whoever waits, then on the card. */
  const clicked = async (tap: Tap) => {
    const [id, index] = String(tap.value ?? '').split(':')
    const pending = byId.get(id ?? '')
    const label = pending?.question.options[Number(index)]?.label
    if (!pending || label === undefined || pending.answer) return
    if (journal && !(await journal.settled(pending.id, label, tap.user))) return
    pending.answer = { label, user: tap.user }
    for (const wake of pending.waiters.splice(0)) wake()
    await cards.showAnswer(pending, label, tap.userName)
  }
  return { server, clicked }
}

export async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
