import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import type { Sandbox } from '../../src/sandbox/index.js'
import { startHeadless, type DshRun } from '../support/harness/dsh-process.js'
import { configureHeadlessPlugin, harnessOrSkip, setUpHeadlessSuite, stopRuns, tearDownHeadlessSuite, type HeadlessSuite } from '../support/harness/headless-suite.js'
import { HARNESS_BUILD_TIMEOUT_MS } from '../support/harness/real-harness.js'

/**
 * The plugin never stops a run (issue 41): whatever it meets, the harness
 * calls the model and `dsh` exits 0; dsh-slack says why it is off in one
 * line, questions get NO_PROVIDER and tool approvals `unavailable` (the
 * harness then refuses the tool: fail closed).
 */

let suite: HeadlessSuite | undefined
let skipReason: string | undefined
const runs: DshRun[] = []

beforeAll(async () => {
  const found = await setUpHeadlessSuite('real-harness "never stops a run" suite')
  if ('skip' in found) skipReason = found.skip
  else suite = found
}, HARNESS_BUILD_TIMEOUT_MS)

afterEach(async () => {
  await stopRuns(runs)
  suite?.model.reset()
})

afterAll(async () => {
  if (suite) await tearDownHeadlessSuite(suite)
})

/** The suite, or the test skipped with the reason the harness is missing. */
function requireSuite(context: TestContext): HeadlessSuite {
  harnessOrSkip(context, suite?.harness, skipReason)
  return suite!
}

/** The profile's patch layer: the ask tool, and dsh-slack's entry with this config. */
function configurePlugin({ home }: HeadlessSuite, config: Record<string, unknown>): void {
  configureHeadlessPlugin(home, config)
}

/** A well-formed bot token the workspace does not know: Slack (and the stand-in) answer `invalid_auth`. */
const REVOKED_TOKEN = 'xoxb-revoked-0000000000-0000000000000-abcdefghijklmnopqrstuvwx'

/** A loopback port with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const askTool = { toolCalls: [{ name: 'ask_user_question', arguments: { questions: [{ id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }] } }] }
/** What the model reads for the harness's NO_PROVIDER (its tool result shows the message, not the code). */
const NO_PROVIDER = 'no user-questions provider is registered'
const MARKER = 'ran-without-approval'
const bashTool = { toolCalls: [{ name: 'bash', arguments: { command: `echo ${MARKER}`, description: 'print a marker', sandbox_permissions: 'danger-full-access', justification: 'needs to run outside the sandbox' } }] }

/** Runs a headless task whose model asks a question, then calls a tool needing approval, then says `Carried on.`. */
async function runAskingAndApproving({ harness, model, home, work }: HeadlessSuite) {
  model.script(askTool, bashTool, { text: 'Carried on.' })
  const firstCall = model.callIds.length
  const run = startHeadless(harness, { home, task: 'Set up the project', cwd: work, env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' } })
  runs.push(run)
  const exit = await run.exited
  const [asked = '', approved = ''] = model.callIds.slice(firstCall).map((id) => model.toolResult(id) ?? '')
  return { run, exit, asked, approved }
}

const pluginLines = (run: DshRun) => run.stderr().split('\n').filter((line) => line.startsWith('dsh-slack:'))

describe('dsh-slack never stops a headless run of the real harness', { timeout: 180_000 }, () => {
  it.for([
    { name: 'a revoked bot token (invalid_auth)', settings: (slack: Sandbox) => ({ botToken: REVOKED_TOKEN, slackApiUrl: slack.apiUrl }), offLine: /^dsh-slack: off: could not start: .*invalid_auth/ },
    { name: 'Slack unreachable (slackApiUrl at a closed port)', settings: (slack: Sandbox, port: number) => ({ botToken: slack.botToken, slackApiUrl: `http://127.0.0.1:${port}/api/` }), offLine: /^dsh-slack: off: could not start: .*request_failed/ },
  ])('with $name: one "off" line, the question gets NO_PROVIDER, the tool is refused, and dsh exits 0', async ({ settings, offLine }, context) => {
    const running = requireSuite(context)
    const { slack, work } = running
    configurePlugin(running, { ...settings(slack, await closedPort()), appToken: slack.appToken, channel: slack.defaultChannel, state: join(work, `state-${Math.random().toString(36).slice(2)}.sqlite`) })

    const { run, exit, asked, approved } = await runAskingAndApproving(running)

    expect(exit.code, run.stderr()).toBe(0)
    expect(run.stdout()).toContain('Carried on.')
    expect(asked).toContain(NO_PROVIDER)
    expect(approved).not.toContain(MARKER)
    expect(approved).not.toBe('')
    expect(pluginLines(run)).toEqual([expect.stringMatching(offLine)])
  })

  it('with the state store unavailable (a folder where the SQLite file should be): one "off" line, NO_PROVIDER, the tool refused, and dsh exits 0', async (context) => {
    const running = requireSuite(context)
    const { slack, work } = running
    configurePlugin(running, { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: work })

    const { run, exit, asked, approved } = await runAskingAndApproving(running)

    expect(exit.code, run.stderr()).toBe(0)
    expect(run.stdout()).toContain('Carried on.')
    expect([asked.includes(NO_PROVIDER), approved.includes(MARKER)]).toEqual([true, false])
    expect(pluginLines(run)).toEqual([expect.stringMatching(/^dsh-slack: off: could not start: /)])
  })
})
