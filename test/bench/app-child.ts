/**
 * The app under test, in its own process as it would be in production
 * (Slack is never in the app's event loop). Driven over IPC by the bench:
 * `bare` is a plain Bolt app whose button handler only acks; `bridge` is
 * dsh-slack's bridge. Times are absolute (performance.timeOrigin + now) so
 * the parent can compare them with its own.
 */
import { App } from '@slack/bolt'
import { questionMessage } from '../../blocks/index.js'
import { createSlackBridge } from '../../src/bridge/create-slack-bridge.js'
import { silentLogger } from '../../src/log/logger.js'

export const BENCH_QUESTION = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }

const now = () => performance.timeOrigin + performance.now()
const send = (message: Record<string, unknown>) => process.send!(message)
const env = (name: string) => process.env[name] ?? ''

async function bare(): Promise<void> {
  const app = new App({ token: env('BENCH_BOT_TOKEN'), appToken: env('BENCH_APP_TOKEN'), socketMode: true, clientOptions: { slackApiUrl: env('BENCH_API_URL') } })
  // Same message as dsh-slack posts, so both apps get the same payloads; this handler only acks.
  app.action(/.*/, async ({ ack }) => {
    await ack()
  })
  await app.start()
  const { message } = questionMessage({ askId: 'bench', locale: 'en', questions: [{ ...BENCH_QUESTION, multiSelect: false }] })
  const posted = await app.client.chat.postMessage({ channel: env('BENCH_CHANNEL'), text: message.text, blocks: message.blocks })
  send({ type: 'ready', ts: posted.ts })
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'stop') {
      await app.stop()
      process.exit(0)
    }
  })
}

async function bridge(): Promise<void> {
  const bridge = await createSlackBridge({ botToken: env('BENCH_BOT_TOKEN'), appToken: env('BENCH_APP_TOKEN'), slackApiUrl: env('BENCH_API_URL'), channel: env('BENCH_CHANNEL'), state: ':memory:', logger: silentLogger })
  send({ type: 'ready' })
  process.on('message', async (message: { type: string; channel?: string }) => {
    if (message.type === 'ask') {
      const askedAt = now()
      const record = await bridge.open({ questions: [BENCH_QUESTION] }, { channel: message.channel! })
      send({ type: 'posted', ts: record.message!.ts, askedAt, postedAt: now() })
      await bridge.waitForSettlement(record.id, 30_000)
      send({ type: 'resolved', at: now() })
    }
    if (message.type === 'stop') {
      await bridge.stop({ withdrawOpen: false })
      process.exit(0)
    }
  })
}

void (process.argv[2] === 'bare' ? bare() : bridge())
