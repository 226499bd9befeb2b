/**
 * A stand-in started with `workspaceFile` keeps its workspace between runs:
 * a restart finds the channels, messages, threads, files and open modals
 * where Slack would still have them, and new ids never repeat old ones.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { webClient } from './clients.js'

const ALICE = 'U0SANDBOX01'
const running: Sandbox[] = []
const scratch: string[] = []

afterEach(async () => {
  for (const slack of running.splice(0)) await slack.close()
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function workspacePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-workspace-'))
  scratch.push(dir)
  return join(dir, 'nested', 'sandbox.json')
}

async function start(workspaceFile: string, options: { fresh?: boolean } = {}): Promise<Sandbox> {
  const slack = await startSandbox({ workspaceFile, ...options })
  running.push(slack)
  return slack
}

async function restart(slack: Sandbox, options: { fresh?: boolean } = {}): Promise<Sandbox> {
  running.splice(running.indexOf(slack), 1)
  await slack.close()
  return start(slack.workspaceFile!, options)
}

const modal = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'Form' }, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'kept' } }] }

describe('the stand-in with a workspace file', () => {
  it('finds its messages, thread replies, DMs, people and open modals again after a restart', async () => {
    const first = await start(workspacePath())
    const web = webClient(first)
    const parent = await web.chat.postMessage({ channel: first.defaultChannel, text: 'parent' })
    await web.chat.postMessage({ channel: first.defaultChannel, text: 'reply', thread_ts: parent.ts! })
    await web.chat.update({ channel: first.defaultChannel, ts: parent.ts!, text: 'parent, edited' })
    first.addUser({ id: 'U0CAROL', name: 'carol' })
    const dm = await web.conversations.open({ users: 'U0CAROL' })
    await web.chat.postMessage({ channel: dm.channel!.id!, text: 'hello carol' })
    const opened = await web.views.open({ trigger_id: first.issueTriggerId(ALICE), view: modal })

    const second = await restart(first)

    expect(second.restored).toBe(true)
    expect(second.messages(second.defaultChannel).map((m) => [m.text, m.thread_ts === parent.ts, m.reply_count])).toEqual([
      ['parent, edited', true, 1],
      ['reply', true, undefined],
    ])
    expect(second.messages(dm.channel!.id!).map((m) => m.text)).toEqual(['hello carol'])
    expect(second.workspace.users.get('U0CAROL')).toMatchObject({ name: 'carol' })
    expect(second.modal(ALICE)).toMatchObject({ id: opened.view!.id, blocks: modal.blocks })
  })

  it('keeps uploaded files and serves them again after a restart', async () => {
    const first = await start(workspacePath())
    await webClient(first).filesUploadV2({ channel_id: first.defaultChannel, filename: 'plan.md', content: '# the whole plan' })
    const url = (first.latestMessage(first.defaultChannel)!.files![0] as { url_private: string }).url_private

    const second = await restart(first)
    const body = await (await fetch(url.replace(/:\d+\//, `:${second.port}/`))).text()

    expect(body).toBe('# the whole plan')
  })

  it('never hands out an id or a ts it handed out before the restart', async () => {
    const first = await start(workspacePath())
    const before = await webClient(first).chat.postMessage({ channel: first.defaultChannel, text: 'before' })
    const beforeView = await webClient(first).views.open({ trigger_id: first.issueTriggerId(ALICE), view: modal })

    const second = await restart(first)
    const after = await webClient(second).chat.postMessage({ channel: second.defaultChannel, text: 'after' })
    const afterView = await webClient(second).views.push({ trigger_id: second.issueTriggerId(ALICE), view: modal })

    expect(Number(after.ts)).toBeGreaterThan(Number(before.ts))
    expect(afterView.view!.id).not.toBe(beforeView.view!.id)
  })

  it('lets a click on a message from before the restart reach the app, as Slack would', async () => {
    const first = await start(workspacePath())
    await webClient(first).chat.postMessage({
      channel: first.defaultChannel,
      text: 'pick',
      blocks: [{ type: 'actions', elements: [{ type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' }, value: '1' }] }],
    })

    const second = await restart(first)
    const message = second.latestMessage(second.defaultChannel)!
    // No app is connected: the stand-in says so, which proves the restored message is clickable.
    await expect(second.user(ALICE).click(message, 'Go')).rejects.toMatchObject({ code: 'NO_RECEIVER' })
  })

  it('starts empty with fresh, and replaces the kept workspace at once', async () => {
    const first = await start(workspacePath())
    await webClient(first).chat.postMessage({ channel: first.defaultChannel, text: 'old' })

    const second = await restart(first, { fresh: true })

    expect(second.restored).toBe(false)
    expect(second.messages(second.defaultChannel)).toEqual([])
    expect(JSON.parse(readFileSync(second.workspaceFile!, 'utf8')).messages).toEqual([])
  })

  it('writes the file whole, leaving no temporary file beside it', async () => {
    const path = workspacePath()
    const slack = await start(path)
    await webClient(slack).chat.postMessage({ channel: slack.defaultChannel, text: 'saved' })

    await slack.close()
    running.splice(0)

    expect(JSON.parse(readFileSync(path, 'utf8')).messages.map((m: { text: string }) => m.text)).toEqual(['saved'])
    expect(readdirSync(join(path, '..'))).toEqual(['sandbox.json'])
  })

  it('refuses a file that is not a kept workspace, naming it and the way out', async () => {
    const path = workspacePath()
    await start(path).then((slack) => slack.close())
    running.splice(0)
    writeFileSync(path, JSON.stringify({ version: 99 }))

    await expect(startSandbox({ workspaceFile: path })).rejects.toMatchObject({
      code: 'BAD_WORKSPACE_FILE',
      message: expect.stringMatching(/sandbox\.json is not a stand-in workspace of this version .*: move it away, or start with --fresh/),
    })
    expect(existsSync(path)).toBe(true)
  })
})
