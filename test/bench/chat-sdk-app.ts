/**
 * The Chat SDK peers (Vercel's `chat` with `@chat-adapter/slack` in Socket
 * Mode), as a Chat SDK app is deployed: the card built with the SDK's own
 * card elements and posted through `bot.channel(…).post`, the tap taken by
 * `bot.onAction`, the card edited through the adapter. Its asks are kept in
 * the SDK's state adapter, memory or Redis (`@chat-adapter/state-redis`),
 * with the same four writes as the SQLite app (journal.ts). Same front
 * (bare-asks.ts), same stand-in, same figures as every other app.
 */
import { createMemoryState } from '@chat-adapter/state-memory'
import { createRedisState } from '@chat-adapter/state-redis'
import { createSlackAdapter } from '@chat-adapter/slack'
import { Actions, Button, Card, CardText, Chat, ConsoleLogger, type StateAdapter } from 'chat'
import type { AskView } from '../../blocks/view.js'
import { bareAsks, listen, type Answers, type Cards } from './bare-asks.js'
import { stateJournal } from './journal.js'

/** Where the Chat SDK app keeps its state: the SDK's memory adapter, or Redis at `BENCH_REDIS_URL`. */
export type ChatSdkState = 'memory' | 'redis'

/** The Redis the bench's Redis-backed peer uses unless `BENCH_REDIS_URL` says otherwise. */
export const BENCH_REDIS_URL = 'redis://127.0.0.1:6379'

const questionCard = (view: AskView) => {
  const question = view.questions[0]!
  return Card({ title: question.question, children: [Actions(question.options.map((option, i) => Button({ id: `option-${i}`, label: option.label, value: String(i) })))] })
}

const answeredCard = (view: AskView, by: string, answers: Answers) =>
  Card({ title: view.questions[0]!.question, children: [CardText(`Answered by <@${by}>: ${answers[0]!.selected.join(', ')}`)] })

function stateOf(kind: ChatSdkState): StateAdapter {
  // Each process its own key prefix: a fresh app finds nothing of an earlier one's in the shared Redis.
  return kind === 'memory' ? createMemoryState() : createRedisState({ url: process.env.BENCH_REDIS_URL || BENCH_REDIS_URL, keyPrefix: `dsh-bench-${process.pid}-${Date.now()}` })
}

/** Starts the app against the stand-in named by the bench's environment; returns its URL and how to stop it. */
export async function startChatSdkApp(kind: ChatSdkState, env: (name: string) => string): Promise<{ url: string; stop: () => Promise<void> }> {
  // Warnings and errors only, as a deployed app would log: the SDK's info lines (connected, disconnected) are the bench's noise.
  const logger = new ConsoleLogger('warn')
  const slack = createSlackAdapter({ logger, mode: 'socket', botToken: env('BENCH_BOT_TOKEN'), appToken: env('BENCH_APP_TOKEN'), apiUrl: `${env('BENCH_API_URL').replace(/\/?$/, '/')}` })
  const state = stateOf(kind)
  const bot = new Chat({ userName: 'dsh-bench', adapters: { slack }, state, logger })
  const cards: Cards = {
    post: async (view, channel) => {
      const sent = await bot.channel(`slack:${channel}`).post(questionCard(view))
      return { channel, ts: sent.id }
    },
    showAnswer: async (pending, by, answers) => {
      await slack.editMessage(slack.encodeThreadId({ channel: pending.channel, threadTs: '' }), pending.ts, answeredCard(pending.view, by, answers))
    },
  }
  const asks = bareAsks(cards, stateJournal(state))
  bot.onAction(async (event) => {
    await asks.clicked({ user: event.user.userId, ts: event.messageId, value: event.value })
  })
  await bot.initialize()
  const url = await listen(asks.server)
  return {
    url,
    stop: async () => {
      asks.server.close()
      await bot.shutdown()
    },
  }
}
