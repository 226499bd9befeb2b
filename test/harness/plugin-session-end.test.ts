/**
 * A headless run's end is its session's end (decision 0078): in the real
 * harness, the plugin hears `session/disposed` and archives the session's
 * code channel, with a summary Slack shares in the plan card's thread,
 * before the process exits.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest'

import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { addPlugin, startHeadless, type DshRun } from '../support/harness/dsh-process.js'
import { configureHeadlessPlugin, harnessOrSkip, stopRuns, tearDownHeadlessSuite } from '../support/harness/headless-suite.js'
import { findRealHarness, freshDshHome, HARNESS_BUILD_TIMEOUT_MS, pluginPackageFor, type RealHarness } from '../support/harness/real-harness.js'
import { startScriptedModel, type ScriptedModel } from '../support/harness/scripted-model.js'

const BOB = 'U0SANDBOX02'
const PLAN_MODE_ON = new URL('../support/harness/plan-mode-on.mjs', import.meta.url).pathname
const PLAN = '# Plan: rotate the keys\n\n1. Issue the new key.\n2. Revoke the old one.\n'

let harness: RealHarness | undefined
let skipReason: string | undefined
let slack: Sandbox
let model: ScriptedModel
let home: string
let work: string
const runs: DshRun[] = []

beforeAll(async () => {
  const found = await findRealHarness()
  if (found.skip !== undefined) {
    skipReason = found.skip
    return
  }
  harness = found.harness
  const pluginDir = await pluginPackageFor(harness)
  // A Slack app with the code-channel scopes, unlike the other suites' stand-in.
  slack = await startSandbox({ scopes: [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write'] })
  model = await startScriptedModel()
  home = freshDshHome()
  work = mkdtempSync(join(tmpdir(), 'dsh-slack-h3-harness-'))
  await addPlugin(harness, home, 'headless', pluginDir)
}, HARNESS_BUILD_TIMEOUT_MS)

afterEach(async () => {
  await stopRuns(runs)
  model?.reset()
})

afterAll(async () => {
  await tearDownHeadlessSuite({ model, slack, home, work })
})

function requireHarness(context: TestContext): RealHarness {
  return harnessOrSkip(context, harness, skipReason)
}

describe('the end of a headless run, with code channels', { timeout: 180_000 }, () => {
  it('archives the session’s code channel with a summary in the plan card’s thread before the process exits', async (context) => {
    const dsh = requireHarness(context)
    configureHeadlessPlugin(home, { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: join(work, 'state.sqlite') })
    const planPatch = join(work, 'plan-mode-on.yml')
    writeFileSync(planPatch, `- insert:\n  - id: test-plan-mode-on\n    name: ${JSON.stringify(PLAN_MODE_ON)}\n`)
    model.script({ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Rotating.' })
    const run = startHeadless(dsh, { home, task: 'Rotate the keys', cwd: work, env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' }, patches: [planPatch] })
    runs.push(run)

    const channel = await slack.waitFor(() => [...slack.codeChannels.channels.values()].find((c) => c.views.some((v) => v.type === 'canvas') && c.contextBar.length > 0), {
      timeoutMs: 90_000,
      message: `the plan's code channel (the run's stderr so far: ${run.stderr().slice(-800)})`,
    })
    const session = channel.sessionId!
    const card = slack.messages(slack.defaultChannel).find((m) => m.ts === channel.origin?.ts)!
    await slack.user(BOB).click(card, 'Approve')

    expect((await run.exited).code).toBe(0)
    // By the time the process is gone, the archive has happened: the plugin's unload waits for it.
    expect(slack.codeChannels.channels.get(channel.id)).toMatchObject({ archived: true, sessionId: session })
    const summary = 'The agent session ended. Its last plan review: Plan approved by bob (U0SANDBOX02).'
    expect(slack.messages(channel.id).at(-1)?.text).toBe(summary)
    expect(slack.messages(slack.defaultChannel).filter((m) => m.thread_ts === card.ts).map((m) => m.text)).toContain(summary)
  })
})
