import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { addPlugin, startHeadless, writeProfilePatch, type DshRun } from '../support/harness/dsh-process.js'
import { findRealHarness, freshDshHome, HARNESS_BUILD_TIMEOUT_MS, pluginPackageFor, removeQuietly, type RealHarness } from '../support/harness/real-harness.js'
import { startScriptedModel, type ScriptedModel } from '../support/harness/scripted-model.js'

/**
 * The plugin never stops a run (issue 41): whatever it meets, the harness
 * calls the model and `dsh` exits 0; dsh-slack says why it is off in one
 * line, questions get NO_PROVIDER and tool approvals `unavailable` (the
 * harness then refuses the tool: fail closed).
 */

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
    console.warn(`real-harness "never stops a run" suite skipped: ${found.skip}`)
    return
  }
  harness = found.harness
  const pluginDir = await pluginPackageFor(harness)
  slack = await startSandbox()
  model = await startScriptedModel()
  home = freshDshHome()
  work = mkdtempSync(join(tmpdir(), 'dsh-slack-never-stops-'))
  await addPlugin(harness, home, 'headless', pluginDir)
}, HARNESS_BUILD_TIMEOUT_MS)

afterEach(async () => {
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
    await run.exited
  }
  model?.reset()
})

afterAll(async () => {
  await model?.close()
  await slack?.close()
  if (home) removeQuietly(home)
  if (work) removeQuietly(work)
})

function requireHarness(context: TestContext): RealHarness {
  if (!harness) context.skip(skipReason)
  return harness!
}

/** The profile's patch layer: the ask tool, and dsh-slack's entry with this config. */
function configurePlugin(config: Record<string, unknown>): void {
  writeProfilePatch(
    home,
    'headless',
    `- insert:
  - id: tool-ask-user
    name: '@deepseek-ai/dsh-tool-ask-user'
- id: dsh-slack
  config:
${Object.entries(config).map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`).join('\n')}
`,
  )
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
async function runAskingAndApproving(dsh: RealHarness) {
  model.script(askTool, bashTool, { text: 'Carried on.' })
  const firstCall = model.callIds.length
  const run = startHeadless(dsh, { home, task: 'Set up the project', cwd: work, env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' } })
  runs.push(run)
  const exit = await run.exited
  const [asked, approved] = model.callIds.slice(firstCall).map((id) => model.toolResult(id) ?? '')
  return { run, exit, asked, approved }
}

const pluginLines = (run: DshRun) => run.stderr().split('\n').filter((line) => line.startsWith('dsh-slack:'))

describe('dsh-slack never stops a headless run of the real harness', { timeout: 180_000 }, () => {
  it('with a revoked bot token (invalid_auth): one "off" line, the question gets NO_PROVIDER, the tool is refused, and dsh exits 0', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin({ botToken: REVOKED_TOKEN, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: join(work, 'revoked.sqlite') })

    const { run, exit, asked, approved } = await runAskingAndApproving(dsh)

    expect(exit.code, run.stderr()).toBe(0)
    expect(run.stdout()).toContain('Carried on.')
    expect(asked).toContain(NO_PROVIDER)
    expect(approved).not.toContain(MARKER)
    expect(approved).not.toBe('')
    expect(pluginLines(run)).toEqual([expect.stringMatching(/^dsh-slack: off: .*invalid_auth/)])
  })

  it('with Slack unreachable (slackApiUrl at a closed port): one "off" line, the question gets NO_PROVIDER, the tool is refused, and dsh exits 0', async (context) => {
    const dsh = requireHarness(context)
    const port = await closedPort()
    configurePlugin({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: `http://127.0.0.1:${port}/api/`, channel: slack.defaultChannel, state: join(work, 'unreachable.sqlite') })

    const { run, exit, asked, approved } = await runAskingAndApproving(dsh)

    expect(exit.code, run.stderr()).toBe(0)
    expect(run.stdout()).toContain('Carried on.')
    expect(asked).toContain(NO_PROVIDER)
    expect(approved).not.toContain(MARKER)
    expect(approved).not.toBe('')
    expect(pluginLines(run)).toEqual([expect.stringMatching(/^dsh-slack: off: /)])
  })

  it('with the state store unavailable (a folder where the SQLite file should be): one "off" line and dsh exits 0', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: work })

    const { run, exit, asked, approved } = await runAskingAndApproving(dsh)

    expect(exit.code, run.stderr()).toBe(0)
    expect(run.stdout()).toContain('Carried on.')
    expect(asked).toContain(NO_PROVIDER)
    expect(pluginLines(run)).toEqual([expect.stringMatching(/^dsh-slack: off: /)])
  })
})
