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
      return { apiUrl: slack.apiUrl, botToken: slack.botToken, appToken: slack.appToken, channel: slack.defaultChannel, stop: () => slack.close() }
    }

    const exit = runRelayCommand([], run)
    await host.waitForConnections(1)
    const { outcome } = host.ask('session-1', [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes' }, { label: 'No' }] }])
    const message = await postedMessage(sandbox!, sandbox!.defaultChannel)
    await sandbox!.user('U0SANDBOX01').click(message, 'Yes')

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'go', selected: ['Yes'] }] } })
    stop()
    expect(await exit).toBe(0)
    expect(run.out.join('')).toContain('Local Slack stand-in')
  })
})
