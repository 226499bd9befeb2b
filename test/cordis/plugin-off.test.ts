import { UserQuestionError } from '@deepseek-ai/dsh-user-questions'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { adviceFor } from '../../src/slack/slack-error-advice.js'
import { startSandbox } from '../../src/sandbox/index.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { createSlackPlugin } from '../../src/cordis/index.js'
import type { CreateBridge } from '../../src/service/bridge-factory.js'
import { FakeBridge, oneQuestion } from '../http/fake-bridge.js'
import { agentInTurn, approvalOf, harnessContext, load, seamOf, stderrLines } from '../support/cordis-context.js'

/**
 * The plugin never stops a run (issue 41): every failure, at start or
 * later, is one `dsh-slack: off: …` line, and from then on the harness's
 * questions get NO_PROVIDER (its own UserQuestionError) and its tool
 * approvals `unavailable`. test/harness/plugin-never-stops.test.ts runs the
 * same in the real harness.
 */

const config = { botToken: 'xoxb-test', appToken: 'xapp-test', channel: 'C0123ABCDEF', state: ':memory:' }

/** A plugin around the bridge `start` gives (or the error it throws). */
const pluginStarting = (start: () => Promise<SlackBridge>) => createSlackPlugin(async (): Promise<CreateBridge> => () => start())

const approvalRequest = () => ({ agent: agentInTurn() as never, toolName: 'bash', reason: 'network access' })

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the plugin\'s one line names each setting as the person wrote it', () => {
  it('names botToken in the plugin config, not SLACK_BOT_TOKEN, when the token came from the entry\'s config', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()
    await load(ctx, pluginStarting(async () => {
      throw new Error(`auth.test failed with Slack error "invalid_auth": ${adviceFor('invalid_auth')}`)
    }), config)
    await vi.waitFor(() => expect(lines).toHaveLength(1))

    expect(lines[0]).toContain('check botToken (in the plugin config): copy the Bot User OAuth Token')
    expect(lines[0]).not.toContain('SLACK_BOT_TOKEN')
  })

  it('names an unusable state path by its setting, in words, with no raw EEXIST', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'dsh-slack-plugin-state-'))
    const aFile = join(scratch, 'not-a-folder')
    writeFileSync(aFile, '')
    const slack = await startSandbox()
    try {
      const ctx = await harnessContext()
      const lines = stderrLines()
      await load(ctx, createSlackPlugin(), { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: join(aFile, 'state.sqlite') })
      await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 10_000 })

      expect(lines[0]).toBe(`dsh-slack: off: could not start: state (in the plugin config) ${join(aFile, 'state.sqlite')} cannot hold the state: a part of its folder is a file, not a folder; set state (in the plugin config) to a file in a folder you can write, :memory:, or a postgres:// URL\n`)
    } finally {
      await slack.close()
      rmSync(scratch, { recursive: true, force: true })
    }
  })
})

describe('the plugin turns off instead of failing the run', () => {
  it('answers a question that waited on a failed start with the harness’s NO_PROVIDER, after one "off" line', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()
    let fail!: (error: Error) => void
    await load(ctx, pluginStarting(() => new Promise((_, reject) => (fail = reject))), config)

    const asking = seamOf(ctx).ask(oneQuestion)
    fail(new Error('auth.test failed with Slack error "invalid_auth"'))

    const error = await asking.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UserQuestionError)
    expect(error).toMatchObject({ code: 'NO_PROVIDER' })
    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: could not start: auth\.test failed with Slack error "invalid_auth"\n$/)])
  })

  it('refuses tool approvals (`unavailable`, so the tool does not run) when the start failed, saying nothing more', async () => {
    const ctx = await harnessContext('questions+approvals')
    const lines = stderrLines()
    await load(ctx, pluginStarting(async () => {
      throw new Error('fetch failed')
    }), config)

    const first = await approvalOf(ctx).request(approvalRequest())
    const second = await approvalOf(ctx).request(approvalRequest())

    expect([first, second]).toEqual(['unavailable', 'unavailable'])
    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: could not start: fetch failed/)])
  })

  it('turns off when a question fails with something other than the seam’s own errors (the store gone): NO_PROVIDER now and after, said once', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()
    const bridge = new FakeBridge()
    vi.spyOn(bridge.store, 'insert').mockRejectedValue(new Error('SQLITE_IOERR: disk I/O error'))
    await load(ctx, pluginStarting(async () => bridge), config)

    const together = await Promise.all([seamOf(ctx).ask(oneQuestion), seamOf(ctx).ask(oneQuestion)].map((asking) => asking.catch((caught: unknown) => caught)))
    const after = await seamOf(ctx).ask(oneQuestion).catch((caught: unknown) => caught)

    expect([...together, after]).toEqual([0, 1, 2].map(() => expect.objectContaining({ name: 'UserQuestionError', code: 'NO_PROVIDER' })))
    expect(seamOf(ctx).provider).toBeUndefined()
    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: a question failed: SQLITE_IOERR: disk I\/O error/)])
  })

  it('keeps the seam’s own outcome of one question (Slack refused its post) and stays on', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()
    const bridge = new FakeBridge()
    bridge.failNextPost = 'channel_not_found'
    await load(ctx, pluginStarting(async () => bridge), config)

    const error = await seamOf(ctx).ask(oneQuestion).catch((caught: unknown) => caught)

    expect(error).toMatchObject({ name: 'UserQuestionError', code: 'SLACK_API_ERROR' })
    expect(seamOf(ctx).provider).toBeDefined()
    expect(lines).toEqual([])
  })

  it('answers `unavailable` and turns off when an approval fails with something other than the seam’s own errors, instead of rejecting into the harness', async () => {
    const ctx = await harnessContext('questions+approvals')
    const lines = stderrLines()
    const bridge = new FakeBridge()
    vi.spyOn(bridge, 'openApproval').mockRejectedValue(new Error('connection terminated unexpectedly'))
    await load(ctx, pluginStarting(async () => bridge), config)

    const decided = await approvalOf(ctx).request(approvalRequest())
    const question = await seamOf(ctx).ask(oneQuestion).catch((caught: unknown) => caught)

    expect(decided).toBe('unavailable')
    expect(question).toMatchObject({ code: 'NO_PROVIDER' })
    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: off: a tool approval failed: connection terminated unexpectedly/)])
  })

  it('unloads without throwing when stopping the bridge fails, and says so', async () => {
    const ctx = await harnessContext()
    const lines = stderrLines()
    const bridge = new FakeBridge()
    vi.spyOn(bridge, 'stop').mockRejectedValue(new Error('store already closed'))
    const fiber = await load(ctx, pluginStarting(async () => bridge), config)
    await vi.waitFor(() => expect(bridge.store).toBeDefined())

    await expect(fiber.dispose()).resolves.not.toThrow()

    expect(lines).toEqual([expect.stringMatching(/^dsh-slack: could not stop cleanly: store already closed/)])
  })
})
