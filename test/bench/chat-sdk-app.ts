/**
 * The Chat SDK peers (Vercel's `chat` with `@chat-adapter/slack` in Socket
 * Mode) as the shared peer bench has them (its B and D, issue 52): the card
 * built with the SDK's own card elements and posted through
 * `bot.channel(…).post`, the tap taken by `bot.onAction`, the card edited
 * through the `SentMessage` the post gave. With Redis state
 * (`@chat-adapter/state-redis`) each ask is a Redis hash written through the
 * adapter's own client (journal.ts); with memory state nothing is kept.
 * Same front (bare-asks.ts), same stand-in, same figures as every other app.
 */
import { createMemoryState } from '@chat-adapter/state-memory'
import { createRedisState } from '@chat-adapter/state-redis'
import { createSlackAdapter } from '@chat-adapter/slack'
import { Actions, Button, Card, CardText, Chat, ConsoleLogger, type SentMessage } from 'chat'
import { bareAsks, listen, render, type Cards, type Question } from './bare-asks.js'
import { redisJournal, type Journal } from './journal.js'

/** Where the Chat SDK app keeps its state: the SDK's memory adapter, or Redis at `BENCH_REDIS_URL`. */
export type ChatSdkState = 'memory' | 'redis'

/** The Redis the bench's Redis-backed peer uses unless `BENCH_REDIS_URL` says otherwise. */
export const BENCH_REDIS_URL = 'redis://127.0.0.1:6379'

const questionCard = (ask: { id: string; question: Question }) =>
  Card({
    title: render.title(ask.question),
    children: [
      CardText(ask.question.question),
      Actions(ask.question.options.map((option, i) => Button({ id: `opt_${i}`, label: option.label, value: `${ask.id}:${i}`, ...(i === 0 ? { style: 'primary' as const } : {}) }))),
    ],
  })

/** Starts the app against the stand-in named by the bench's environment; returns its URL and how to stop it. */
export async function startChatSdkApp(kind: ChatSdkState, env: (name: string) => string): Promise<{ url: string; stop: () => Promise<void> }> {
  // Warnings and errors only, as a deployed app would log: the SDK's info lines (connected, disconnected) are the bench's noise.
  const logger = new ConsoleLogger('warn')
  const slack = createSlackAdapter({ logger, mode: 'socket', botToken: env('BENCH_BOT_TOKEN'), appToken: env('BENCH_APP_TOKEN'), apiUrl: `${env('BENCH_API_URL').replace(/\/?$/, '/')}` })
  // A fresh prefix per process would hide nothing here: each ask's key is its own UUID.
  const redis = kind === 'redis' ? createRedisState({ url: process.env.BENCH_REDIS_URL || BENCH_REDIS_URL, logger }) : undefined
  const bot = new Chat({ userName: 'dsh-bench', adapters: { slack }, state: redis ?? createMemoryState(), logger })
  const sent = new Map<string, SentMessage>()
  const cards: Cards = {
    post: async (ask, channel) => {
      const message = await bot.channel(`slack:${channel}`).post(questionCard(ask))
      // The SentMessage handle is how the Chat SDK edits a message later.
      sent.set(ask.id, message)
      return { channel, ts: message.id }
    },
    showAnswer: async (pending, label, userName) => {
      await sent.get(pending.id)!.edit(Card({ title: render.title(pending.question), children: [CardText(render.resolvedLine(label, userName))] }))
    },
  }
  await bot.initialize()
  const journal: Journal | undefined = redis ? await redisJournal(redis) : undefined
  const asks = bareAsks(cards, journal)
  bot.onAction(async (event) => {
    if (!/^opt_\d+$/.test(event.actionId)) return
    await asks.clicked({ user: event.user.userId, userName: event.user.userName, value: event.value })
  })
  const url = await listen(asks.server)
  return {
    url,
    stop: async () => {
      asks.server.close()
      await bot.shutdown()
    },
  }
}
