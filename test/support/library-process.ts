/**
 * A library process for the scale-out suite: one `createSlackBridge` (Socket
 * Mode, shared PostgreSQL state) driven over stdin, reporting on stdout, one
 * JSON object per line. It is an agent embedding the library, on its own.
 *
 * stdin:  {"ask": "<question text>"}
 * stdout: {"ready": true} once connected;
 *         {"question", "answer"} or {"question", "error"} when an ask() settles;
 *         {"settledHere": "<question text>"} when this process itself won the settle
 *         (the click reached it), so the suite can tell which answers came over NOTIFY.
 */
import { createInterface } from 'node:readline'
import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import { silentLogger } from '../../src/log/logger.js'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`library-process needs ${name}`)
  return value
}

const write = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`)

const bridge = await createSlackBridge({
  botToken: env('SLACK_BOT_TOKEN'),
  appToken: env('SLACK_APP_TOKEN'),
  slackApiUrl: env('SLACK_API_URL'),
  channel: env('SLACK_CHANNEL'),
  state: env('DSH_SLACK_STATE'),
  owner: 'library',
  logger: silentLogger,
})
bridge.onSettled((record) => write({ settledHere: record.questions[0]?.question }))
write({ ready: true })

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue
  const { ask } = JSON.parse(line) as { ask: string }
  bridge.provider.ask({ questions: [{ id: 'pick', question: ask, options: [{ label: 'npm' }, { label: 'pnpm' }] }] }).then(
    (answer) => write({ question: ask, answer }),
    (error: unknown) => write({ question: ask, error: { code: (error as { code?: string }).code, message: (error as Error).message } }),
  )
}
await bridge.stop()
