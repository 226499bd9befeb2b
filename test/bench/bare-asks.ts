/**
 * The HTTP side every reference app shares (all but dsh-slack's own): it
 * takes `POST /v1/asks` and `GET /v1/asks/:id?wait=` the way the service
 * does, posts the card through the app's own way to Slack (`Cards`), hands
 * the first answer to the waiting request, then shows it on the card. With
 * a `Journal` it keeps the ask durably as it goes (journal.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { WebClient } from '@slack/web-api'
import { questionMessage, settledMessage } from '../../blocks/index.js'
import type { AskView } from '../../blocks/view.js'
import type { Journal } from './journal.js'

interface Question {
  id: string
  question: string
  options: { label: string }[]
}

export type Answers = { id: string; selected: string[] }[]

/** An ask the app has posted and not yet shown answered. */
export interface Pending {
  view: AskView
  channel: string
  ts: string
  answer?: { answers: Answers }
  waiters: (() => void)[]
}

/** How an app puts an ask's card in Slack, and the answer on it. */
export interface Cards {
  post(view: AskView, channel: string): Promise<{ channel: string; ts: string }>
  showAnswer(pending: Pending, by: string, answers: Answers): Promise<void>
}

/** One tap as every reference app sees it, whatever its SDK's shape: who, on which message, which option. */
export interface Tap {
  user: string
  ts: string | undefined
  value: string | undefined
}

/** The cards of blocks/ (the ones dsh-slack posts), through a Web API client: the Bolt and floor apps'. */
export function blockKitCards(client: WebClient): Cards {
  return {
    post: async (view, channel) => {
      const { message } = questionMessage(view)
      const posted = await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks })
      return { channel: posted.channel!, ts: posted.ts! }
    },
    showAnswer: async (pending, by, answers) => {
      const settled = settledMessage(pending.view, { kind: 'answered', by: { id: by }, at: Date.now(), answers })
      await client.chat.update({ channel: pending.channel, ts: pending.ts, text: settled.text, blocks: settled.blocks })
    },
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** The HTTP side the reference apps share: ask, long-poll, and what a tap does after its ack. */
export function bareAsks(cards: Cards, journal?: Journal) {
  const byId = new Map<string, Pending>()
  const byTs = new Map<string, Pending>()
  let seq = 0
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost')
      if (req.method === 'POST' && url.pathname === '/v1/asks') {
        const body = (await readJson(req)) as { questions: Question[]; channel: string }
        const id = `bare${++seq}`
        const view: AskView = { askId: id, locale: 'en', questions: body.questions.map((q) => ({ ...q, multiSelect: false })) }
        await journal?.asked(id, body.channel)
        const posted = await cards.post(view, body.channel)
        await journal?.posted(id, posted.ts)
        const pending: Pending = { view, channel: posted.channel, ts: posted.ts, waiters: [] }
        byId.set(id, pending)
        byTs.set(pending.ts, pending)
        return reply(res, 201, { id, status: 'pending', channel: pending.channel, ts: pending.ts })
      }
      const pending = byId.get(url.pathname.split('/')[3] ?? '')
      if (req.method === 'GET' && pending) {
        // Answered when woken, before the click goes on to render and update the card.
        const answer = () => reply(res, 200, { id: pending.view.askId, status: 'answered', answer: pending.answer })
        if (pending.answer) return answer()
        return void pending.waiters.push(answer)
      }
      reply(res, 404, { error: { code: 'NOT_FOUND' } })
    })().catch((error: unknown) => reply(res, 500, { error: String(error) }))
  })
  /** After the ack: the answer to whoever waits, then the settled card. */
  const clicked = async (tap: Tap) => {
    const pending = tap.ts ? byTs.get(tap.ts) : undefined
    if (!pending || pending.answer) return
    const question = pending.view.questions[0]!
    const answers = [{ id: question.id, selected: [question.options[Number(tap.value)]?.label ?? ''] }]
    if (journal && !(await journal.settled(pending.view.askId, JSON.stringify(answers), tap.user))) return
    pending.answer = { answers }
    for (const wake of pending.waiters.splice(0)) wake()
    await cards.showAnswer(pending, tap.user, answers)
    await journal?.shown(pending.view.askId)
    byId.delete(pending.view.askId)
    byTs.delete(pending.ts)
  }
  return { server, clicked }
}

export async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
