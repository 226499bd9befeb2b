import type { KnownBlock } from '@slack/types'
import { LogLevel, WebClient, type Logger } from '@slack/web-api'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { trackInFlight } from '../../src/slack/in-flight-calls.js'
import { webApiPort } from '../../src/slack/web-api-port.js'
import { silentLogger } from '../sandbox/clients.js'

const blocks: KnownBlock[] = [
  { type: 'section', text: { type: 'mrkdwn', text: '*Which package manager?*' } },
  { type: 'actions', block_id: 'b1', elements: [{ type: 'button', action_id: 'dsh1:opt:x:0:0', text: { type: 'plain_text', text: 'pnpm' }, value: '0' }] },
]

const view: { type: 'home'; blocks: KnownBlock[] } = { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Open asks: none' } }] }

/** The client's own debug lines, as its logger receives them. */
function recordingLogger(lines: string[]): Logger {
  return { ...silentLogger, debug: (...parts: unknown[]) => void lines.push(parts.map(String).join(' ')), getLevel: () => LogLevel.DEBUG }
}

describe('the Web API port', () => {
  let slack: Sandbox
  let debugLines: string[]

  beforeEach(async () => {
    slack = await startSandbox()
    debugLines = []
  })

  afterEach(async () => {
    await slack.close()
  })

  const client = () => new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, logger: recordingLogger(debugLines), logLevel: LogLevel.DEBUG })
  const port = () => webApiPort(client())

  it('posts and updates a card whose blocks reach Slack as they were built', async () => {
    const slackPort = port()
    const posted = await slackPort.postMessage(slack.defaultChannel, { text: 'An agent asks', blocks })
    expect(slack.latestMessage(slack.defaultChannel)).toMatchObject({ ts: posted.ts, text: 'An agent asks', blocks })

    const settled: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: 'Answered: pnpm' } }]
    await slackPort.updateMessage(posted.channel, posted.ts, { text: 'Answered', blocks: settled })
    expect(slack.latestMessage(slack.defaultChannel)).toMatchObject({ ts: posted.ts, text: 'Answered', blocks: settled })
  })

  it('publishes a Home tab as it was built', async () => {
    const user = slack.addUser({ id: 'U0PORTTEST1', name: 'dana' })
    await port().publishHome(user.id, view)
    expect(slack.user(user.id).home()).toMatchObject({ blocks: view.blocks })
  })

  it('hands the client Block Kit as JSON text, so it does not walk and copy the tree for its debug line', async () => {
    await port().postMessage(slack.defaultChannel, { text: 'An agent asks', blocks })
    const bodyLine = debugLines.find((line) => line.startsWith('http request body:'))
    expect(bodyLine).toBeDefined()
    const body = JSON.parse(bodyLine!.slice('http request body:'.length)) as Record<string, unknown>
    expect(body.blocks).toBe(JSON.stringify(blocks))
  })

  it('hands the client a card\'s metadata as JSON text too, and Slack finds the card by it', async () => {
    const metadata = { eventType: 'dsh_slack_ask', payload: { ask_id: 'ask-port-1' } }
    const slackPort = port()

    const posted = await slackPort.postMessage(slack.defaultChannel, { text: 'An agent asks', blocks }, undefined, metadata)

    const bodyLine = debugLines.find((line) => line.startsWith('http request body:'))
    const body = JSON.parse(bodyLine!.slice('http request body:'.length)) as Record<string, unknown>
    expect(body.metadata).toBe(JSON.stringify({ event_type: 'dsh_slack_ask', event_payload: { ask_id: 'ask-port-1' } }))
    expect(await slackPort.findMessageByMetadata(slack.defaultChannel, metadata, Date.now() - 60_000)).toEqual({ channel: slack.defaultChannel, ts: posted.ts })
  })

  it("names Slack's error and the method when Slack refuses, and tells the observer of both", async () => {
    const seen: [string, string | undefined][] = []
    const slackPort = webApiPort(client(), (method, slackError) => void seen.push([method, slackError]))
    await expect(slackPort.postMessage('C0NOSUCHCHANNEL', { text: 'An agent asks', blocks })).rejects.toMatchObject({ name: 'SlackCallError', method: 'chat.postMessage', slackError: 'channel_not_found' })
    await slackPort.postMessage(slack.defaultChannel, { text: 'An agent asks', blocks })
    expect(seen).toEqual([
      ['chat.postMessage', 'channel_not_found'],
      ['chat.postMessage', undefined],
    ])
  })

  it('is idle only once every call it started has been answered', async () => {
    const { port: slackPort, idle } = trackInFlight(webApiPort(client()))
    await idle()
    const answered: string[] = []
    const posts = [slack.defaultChannel, 'C0NOSUCHCHANNEL'].map((channel) =>
      slackPort.postMessage(channel, { text: 'An agent asks', blocks }).then(
        () => answered.push('posted'),
        () => answered.push('refused'),
      ),
    )
    await idle()
    expect(answered.sort()).toEqual(['posted', 'refused'])
    await Promise.all(posts)
  })
})
