/**
 * The thinnest Socket Mode app: the real @slack/socket-mode client, answering
 * each interactive envelope with whatever `answer` returns, and recording
 * what arrived. Short ping timeouts make reconnects quick in tests.
 */
import { SocketModeClient } from '@slack/socket-mode'

import type { Sandbox } from '../../src/sandbox/index.js'
import { silentLogger } from './clients.js'

export interface RawApp {
  client: SocketModeClient
  bodies: Record<string, unknown>[]
  /** How many times the client got `hello` (first connect and every reconnect). */
  connects: number
}

export async function startRawApp(slack: Sandbox, answer: (body: Record<string, unknown>) => Record<string, unknown> | undefined = () => undefined): Promise<RawApp> {
  const client = new SocketModeClient({ appToken: slack.appToken, clientOptions: { slackApiUrl: slack.apiUrl }, clientPingTimeout: 300, logger: silentLogger })
  const app: RawApp = { client, bodies: [], connects: 0 }
  client.on('connected', () => void (app.connects += 1))
  client.on('interactive', async ({ ack, body }: { ack: (payload?: Record<string, unknown>) => Promise<void>; body: Record<string, unknown> }) => {
    app.bodies.push(body)
    await ack(answer(body))
  })
  await client.start()
  return app
}
