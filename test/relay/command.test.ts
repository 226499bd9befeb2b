import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runRelayCommand, type RelayCommandIo } from '../../src/relay/command.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { startFakeHost } from '../support/fake-host.js'
import { postedMessage } from '../support/messages.js'
import { recordingLogger } from './support/recording-logger.js'

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

function io(env: Record<string, string | undefined>, stopRequested: Promise<unknown> = new Promise(() => {})) {
  const out: string[] = []
  const err: string[] = []
  const value: RelayCommandIo & { out: string[]; err: string[] } = {
    env,
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    stopRequested,
    logger: recordingLogger(),
    out,
    err,
  }
  return value
}

describe('dsh-slack relay', () => {
  it('prints its help with the variables it reads', async () => {
    const run = io({})

    expect(await runRelayCommand(['--help'], run)).toBe(0)

    expect(run.out.join('')).toContain('DSH_HOST_URL')
    expect(run.out.join('')).toContain('DSH_HOST_ACCESS_SECRET')
  })

  it('refuses to start without DSH_HOST_URL, in one line naming it', async () => {
    const run = io({})

    expect(await runRelayCommand([], run)).toBe(2)

    expect(run.err).toEqual([expect.stringMatching(/^dsh-slack relay: DSH_HOST_URL: is not set; .*http:\/\/127\.0\.0\.1:4000.*\n$/)])
  })

  it('names a malformed DSH_HOST_URL in one line', async () => {
    const run = io({ DSH_HOST_URL: 'ftp://example' })

    expect(await runRelayCommand([], run)).toBe(2)

    expect(run.err).toEqual([expect.stringContaining('DSH_HOST_URL')])
  })

  it('refuses a DSH_HOST_ACCESS_SECRET list that does not match the hosts, without showing a secret', async () => {
    const run = io({ DSH_HOST_URL: 'http://127.0.0.1:4000,http://127.0.0.1:4001', DSH_HOST_ACCESS_SECRET: 'only-one-secret-for-two-hosts' })

    expect(await runRelayCommand([], run)).toBe(2)

    expect(run.err).toEqual([expect.stringMatching(/^dsh-slack relay: DSH_HOST_ACCESS_SECRET: has 1 entry for 2 hosts in DSH_HOST_URL: .*\n$/)])
    expect(run.err.join('')).not.toContain('only-one-secret')
  })

  it('relays two hosts with different secrets from the environment, each getting only its own', async () => {
    const first = await startFakeHost({ accessSecret: 'first-host-secret-0123' })
    const second = await startFakeHost({ accessSecret: 'second-host-secret-4567' })
    cleanups.push(() => first.close(), () => second.close())
    let sandbox: Sandbox | undefined
    let stop!: () => void
    const run = io(
      { DSH_HOST_URL: `${first.url},${second.url}`, DSH_HOST_ACCESS_SECRET: 'first-host-secret-0123,second-host-secret-4567', DSH_SLACK_STATE: ':memory:' },
      new Promise<void>((resolve) => (stop = resolve)),
    )
    run.startLocalSlack = async () => {
      const slack = (sandbox = await startSandbox())
      return { apiUrl: slack.apiUrl, botToken: slack.botToken, appToken: slack.appToken, channel: slack.defaultChannel, stop: () => slack.close() }
    }

    const exit = runRelayCommand([], run)
    await Promise.all([first.waitForConnections(1), second.waitForConnections(1)])
    const { outcome } = second.ask('session-2', [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }])
    const message = await postedMessage(sandbox!, sandbox!.defaultChannel)
    await sandbox!.user('U0SANDBOX01').click(message, 'Yes')

    expect(await outcome).toMatchObject({ kind: 'answered' })
    expect([first.counters.goodLogins, first.counters.failedLogins, second.counters.goodLogins, second.counters.failedLogins]).toEqual([1, 0, 1, 0])
    stop()
    expect(await exit).toBe(0)
    // A whole bridge, a stand-in and two hosts with logins: slow on a busy machine, never a timed assertion.
  }, 60_000)

  it('refuses arguments it does not take', async () => {
    const run = io({ DSH_HOST_URL: 'http://127.0.0.1:4000' })

    expect(await runRelayCommand(['--port', '3'], run)).toBe(2)
  })

  it('relays against the local stand-in without a Slack token, and stops cleanly on request', async () => {
    const host = await startFakeHost()
    cleanups.push(() => host.close())
    let sandbox: Sandbox | undefined
    let stop!: () => void
    const run = io({ DSH_HOST_URL: host.url, DSH_SLACK_STATE: ':memory:' }, new Promise<void>((resolve) => (stop = resolve)))
    run.startLocalSlack = async () => {
      const slack = (sandbox = await startSandbox())
      return { apiUrl: slack.apiUrl, webUrl: slack.webUrl, botToken: slack.botToken, appToken: slack.appToken, channel: slack.defaultChannel, stop: () => slack.close() }
    }

    const exit = runRelayCommand([], run)
    await host.waitForConnections(1)
    const { outcome } = host.ask('session-1', [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }])
    const message = await postedMessage(sandbox!, sandbox!.defaultChannel)
    await sandbox!.user('U0SANDBOX01').click(message, 'Yes')

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'go', selected: ['Yes'] }] } })
    stop()
    expect(await exit).toBe(0)
    // The page, not the Web API (which shows {"ok":false,"error":"not_found"} in a browser).
    expect(run.out.join('')).toBe(`Open ${sandbox!.webUrl} to answer in the local Slack stand-in (set SLACK_BOT_TOKEN to use Slack)\n`)
  })

  it('without a token, keeps a pending host question across a restart: the same message, still answerable', async () => {
    const host = await startFakeHost()
    cleanups.push(() => host.close())
    const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-relay-restart-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const env = { DSH_HOST_URL: host.url, DSH_SLACK_STATE: join(dir, 'state.sqlite'), DSH_SLACK_SANDBOX_PORT: '0' }
    let sandbox: Sandbox | undefined
    const startLocalSlack: RelayCommandIo['startLocalSlack'] = async (options) => {
      const slack = (sandbox = await startSandbox(options))
      return { apiUrl: slack.apiUrl, webUrl: slack.webUrl, botToken: slack.botToken, appToken: slack.appToken, channel: slack.defaultChannel, stop: () => slack.close(), ...(slack.workspaceFile ? { workspaceFile: slack.workspaceFile } : {}) }
    }
    let stopFirst!: () => void
    const first = io(env, new Promise<void>((resolve) => (stopFirst = resolve)))
    first.startLocalSlack = startLocalSlack
    const firstLog = recordingLogger()
    first.logger = firstLog
    const firstExit = runRelayCommand([], first)
    await host.waitForConnections(1)
    const { outcome } = host.ask('session-1', [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }])
    const posted = await postedMessage(sandbox!, sandbox!.defaultChannel)
    stopFirst()
    expect(await firstExit).toBe(0)

    let stopSecond!: () => void
    const second = io(env, new Promise<void>((resolve) => (stopSecond = resolve)))
    second.startLocalSlack = startLocalSlack
    const secondExit = runRelayCommand([], second)
    cleanups.push(async () => {
      stopSecond()
      await secondExit
    })
    await host.waitForConnections(1)
    await sandbox!.waitFor(() => sandbox!.socketConnections() === 1)
    await sandbox!.user('U0SANDBOX01').click(sandbox!.messages(sandbox!.defaultChannel).find((m) => m.ts === posted.ts)!, 'Yes')

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'go', selected: ['Yes'] }] } })
    expect(sandbox!.messages(sandbox!.defaultChannel).filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts)).toHaveLength(1)
    expect(firstLog.text('info')).toContain(
      `stopping (open requests stay open: the stand-in's workspace in ${join(dir, 'sandbox-0.json')} and their state in ${join(dir, 'sandbox-0.sqlite')} are kept for the next start (--fresh starts empty))`,
    )
  })
})
