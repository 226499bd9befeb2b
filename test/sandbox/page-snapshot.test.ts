import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'

const ALICE = 'U0SANDBOX01'
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function sandbox(): Promise<Sandbox> {
  const slack = await startSandbox()
  cleanups.push(() => slack.close())
  return slack
}

async function call(slack: Sandbox, method: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await fetch(`${slack.apiUrl}${method}`, { method: 'POST', headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return (await response.json()) as Record<string, any>
}

/** What the page shows `user` of `channel`. */
async function pageState(slack: Sandbox, user: string, channel?: string): Promise<Record<string, any>> {
  const query = new URLSearchParams({ user, ...(channel ? { channel } : {}) })
  return (await (await fetch(new URL(`/web/state?${query}`, slack.webUrl))).json()) as Record<string, any>
}

const card = (text: string) => [{ type: 'section', text: { type: 'mrkdwn', text } }]

describe('the stand-in page as a person sees it', () => {
  it('lists a DM with the app under the app’s name, as Slack’s sidebar does, not the person’s own', async () => {
    const slack = await sandbox()
    const dm = await call(slack, 'conversations.open', { users: ALICE })

    const alice = await pageState(slack, ALICE)

    const listed = alice.channels.find((channel: { id: string }) => channel.id === dm.channel.id)
    expect(listed).toMatchObject({ isIm: true, name: alice.app.botName })
    expect(listed.name).not.toBe(alice.me.name)
  })

  it('marks no "(edited)" on an app’s Block Kit card it updated, and still marks an updated plain-text message', async () => {
    const slack = await sandbox()
    const posted = await call(slack, 'chat.postMessage', { channel: slack.defaultChannel, text: 'Which?', blocks: card('Which?') })
    const plain = await call(slack, 'chat.postMessage', { channel: slack.defaultChannel, text: 'before' })
    await call(slack, 'chat.update', { channel: slack.defaultChannel, ts: posted.ts, text: 'Answered', blocks: card('Answered by alice') })
    await call(slack, 'chat.update', { channel: slack.defaultChannel, ts: plain.ts, text: 'after' })

    const alice = await pageState(slack, ALICE, slack.defaultChannel)

    const edited = Object.fromEntries(alice.messages.map((m: { ts: string; edited: boolean }) => [m.ts, m.edited]))
    expect(edited).toEqual({ [posted.ts]: false, [plain.ts]: true })
  })
})
