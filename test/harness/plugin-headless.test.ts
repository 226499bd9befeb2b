import { readFileSync, writeFileSync } from 'node:fs'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { silentLogger } from '../../src/log/logger.js'
import type { Sandbox } from '../../src/sandbox/index.js'
import { startService } from '../../src/service/start-service.js'
import type { StoredMessage } from '../../src/sandbox/model.js'
import { SqliteDatabase } from '../../src/store/sqlite-driver.js'
import { sandboxEnv } from '../support/sandbox-env.js'
import { interactiveElements, visibleText } from '../support/messages.js'
import { startHeadless, type DshRun } from '../support/harness/dsh-process.js'
import { configureHeadlessPlugin, harnessOrSkip, setUpHeadlessSuite, stopRuns, tearDownHeadlessSuite } from '../support/harness/headless-suite.js'
import { HARNESS_BUILD_TIMEOUT_MS, type RealHarness } from '../support/harness/real-harness.js'
import type { ScriptedModel } from '../support/harness/scripted-model.js'

const ALICE = 'U0SANDBOX01'
const PLAN_MODE_ON = new URL('../support/harness/plan-mode-on.mjs', import.meta.url).pathname

let harness: RealHarness | undefined
let skipReason: string | undefined
let slack: Sandbox
let model: ScriptedModel
let home: string
let work: string
/** dsh-slack as the harness installed it (a checkout installed with the harness's Node). */
let pluginDir: string
/** What `dsh plugin add` printed. */
let installed: string

beforeAll(async () => {
  const suite = await setUpHeadlessSuite('real-harness plugin suite')
  if ('skip' in suite) {
    skipReason = suite.skip
    return
  }
  ;({ harness, pluginDir, slack, model, home, work, installed } = suite)
}, HARNESS_BUILD_TIMEOUT_MS)

/** Runs a test started, so a failed test leaves no harness behind to answer the next one's cards. */
const runs: DshRun[] = []

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

/** The profile's patch layer with this config on dsh-slack's entry (none: the environment's). */
function configurePlugin(config: Record<string, unknown> | undefined): void {
  configureHeadlessPlugin(home, config)
}

function slackConfig(state = join(work, `state-${Math.random().toString(36).slice(2)}.sqlite`)): Record<string, unknown> {
  return { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state }
}

/** The next top-level message in the default channel after `after` (the card a run posts). */
function nextCard(after: string | undefined, run: DshRun): Promise<StoredMessage> {
  return slack.waitFor(
    () => {
      const latest = slack.latestMessage(slack.defaultChannel)
      return latest && latest.ts !== after ? latest : undefined
    },
    { timeoutMs: 60_000, message: `a card from the harness (its stderr so far: ${run.stderr().slice(-800)})` },
  )
}

/** The message timestamps the plugin has recorded on its asks (its SQLite state, read as the next run will). */
function recordedMessages(state: string): string[] {
  const db = new SqliteDatabase(state, { readOnly: true, fileMustExist: true })
  try {
    return (db.prepare('SELECT record FROM asks').all() as { record: string }[]).map((row) => (JSON.parse(row.record) as { message?: { ts: string } }).message?.ts ?? '')
  } finally {
    db.close()
  }
}

function latestTs(): string | undefined {
  return slack.latestMessage(slack.defaultChannel)?.ts
}

function cardNow(ts: string): StoredMessage {
  return slack.messages(slack.defaultChannel).find((m) => m.ts === ts)!
}

function settledCard(ts: string): Promise<StoredMessage> {
  return slack.waitFor(() => (interactiveElements(cardNow(ts)).length === 0 ? cardNow(ts) : undefined), { timeoutMs: 30_000, message: `card ${ts} to lose its controls` })
}

const askTool = (questions: unknown[]) => ({ toolCalls: [{ name: 'ask_user_question', arguments: { questions } }] })

const MODEL_ENV = () => ({ DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' })

/** Scripts the model, starts a headless run of `task`, and returns it with the card it posts. */
async function runUntilCard(dsh: RealHarness, replies: Parameters<ScriptedModel['script']>, options: { patches?: string[]; task?: string } = {}) {
  model.script(...replies)
  const before = latestTs()
  const run = startHeadless(dsh, { home, task: options.task ?? 'Set up the project', cwd: work, env: MODEL_ENV(), ...(options.patches ? { patches: options.patches } : {}) })
  runs.push(run)
  const card = await nextCard(before, run).catch(async (error: unknown) => {
    await run.exited
    throw new Error(`${String(error)}; the run ended with stdout ${run.stdout()}; the model got ${JSON.stringify(model.requests.at(-1)?.messages.slice(-2))}`)
  })
  return { run, card }
}

/** The plan-mode fixture, as an extra patch layer for a run. */
const PLAN_PATCH = () => {
  const path = join(work, 'plan-mode-on.yml')
  writeFileSync(path, `- insert:\n  - id: test-plan-mode-on\n    name: ${JSON.stringify(PLAN_MODE_ON)}\n`)
  return path
}

const PLAN = `# Plan: add a cache

1. Add \`cache.ts\` with an LRU map.
2. Wire it into the **fetch** path.
`

describe('dsh-slack inside the real harness (headless)', { timeout: 180_000 }, () => {
  it('installs with `dsh plugin add` as a profile layer (dsh.bundle), not as a plain dependency', (context) => {
    requireHarness(context)

    expect(installed).not.toContain('declares no dsh.bundle')
    expect(JSON.parse(readFileSync(join(home, 'profiles/headless/package.json'), 'utf8')).dsh.profile.bundles).toContain('dsh-slack')
  })

  it('takes the service\'s environment variables when the profile gives its entry no config', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(undefined)
    model.script(askTool([{ id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }]), { text: 'Went ahead.' })
    const before = latestTs()
    const run = startHeadless(dsh, { home, task: 'Set up the project', cwd: work, env: { ...MODEL_ENV(), ...sandboxEnv(slack), DSH_SLACK_STATE: join(work, 'from-env.sqlite') } })
    runs.push(run)

    const card = await nextCard(before, run)
    await slack.user(ALICE).click(card, 'Yes')

    expect((await run.exited).code).toBe(0)
    expect(JSON.parse(model.toolResult(model.callIds.at(-1)!)!)).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] })
  })

  it('loads with its config in the profile\'s patch layer and answers a single-select question with one click', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    model.script(askTool([{ id: 'pm', header: 'Tooling', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)', description: 'Fast, strict' }, { label: 'npm' }] }]), { text: 'Using pnpm.' })
    const before = latestTs()
    const run = startHeadless(dsh, { home, task: 'Set up the project', cwd: work, env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' } })
    runs.push(run)

    const card = await nextCard(before, run)
    expect(visibleText(card)).toContain('Which package manager?')
    await slack.user(ALICE).click(card, 'pnpm (Recommended)')

    const exit = await run.exited
    expect(exit.code).toBe(0)
    expect(run.stdout()).toContain('Using pnpm.')
    expect(JSON.parse(model.toolResult(model.callIds.at(-1)!) ?? 'null')).toEqual({ answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] })
    expect(visibleText(await settledCard(card.ts))).toContain('pnpm (Recommended)')
  })

  it('answers a multi-select question with a free-text Other answer from the modal', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [askTool([{ id: 'ci', question: 'Which CI checks?', multi_select: true, options: [{ label: 'lint' }, { label: 'test' }] }]), { text: 'Noted.' }])
    const alice = slack.user(ALICE)

    await alice.click(card, /Other/)
    await slack.waitFor(() => alice.modal(), { timeoutMs: 5000 })
    alice.fill(/.*/, 'only the fast ones')
    await alice.submit()

    expect((await run.exited).code).toBe(0)
    expect(JSON.parse(model.toolResult(model.callIds.at(-1)!)!)).toEqual({ answers: [{ id: 'ci', selected: [], custom: 'only the fast ones' }] })
    expect(visibleText(await settledCard(card.ts))).toContain('only the fast ones')
  })

  it('answers a batch of questions through the form, a skipped one included', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [
      askTool([
        { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] },
        { id: 'name', question: 'Project name?' },
      ]),
      { text: 'Noted.' },
    ])
    const alice = slack.user(ALICE)

    await alice.click(card, /Answer/)
    await slack.waitFor(() => alice.modal(), { timeoutMs: 5000 })
    await alice.choose('modal', 'npm')
    await alice.submit()

    expect((await run.exited).code).toBe(0)
    expect(JSON.parse(model.toolResult(model.callIds.at(-1)!)!)).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }, { id: 'name', selected: [] }] })
    await settledCard(card.ts)
  })

  it('approves a plan from its card, and plan mode carries it out', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [{ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Implementing.' }], { patches: [PLAN_PATCH()] })
    expect(visibleText(card)).toContain('Plan: add a cache')

    await slack.user(ALICE).click(card, 'Approve')

    expect((await run.exited).code).toBe(0)
    expect(model.toolResult(model.callIds.at(-1)!)).toContain('Plan approved')
    expect(visibleText(await settledCard(card.ts))).toMatch(/Approve/)
  })

  it('sends a reviewer\'s requested changes to the model as plan mode\'s feedback', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [{ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Revising.' }], { patches: [PLAN_PATCH()] })
    const alice = slack.user(ALICE)

    await alice.click(card, /Request changes/)
    await slack.waitFor(() => alice.modal(), { timeoutMs: 5000 })
    alice.fill(/.*/, 'Use the existing LRU package instead.')
    await alice.submit()

    expect((await run.exited).code).toBe(0)
    expect(model.toolResult(model.callIds.at(-1)!)).toContain('their feedback: Use the existing LRU package instead.')
    await settledCard(card.ts)
  })

  it('dismissing a plan review reaches plan mode as the harness\'s own "dismissed" (its UserQuestionError, ASK_CANCELLED)', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [{ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Waiting for you.' }], { patches: [PLAN_PATCH()] })

    await slack.user(ALICE).click(card, 'Dismiss')

    expect((await run.exited).code).toBe(0)
    const result = model.toolResult(model.callIds.at(-1)!)
    expect(result).toContain('The user dismissed the plan review to speak instead')
    expect(result).not.toContain('dismissed in Slack by')
    expect(visibleText(await settledCard(card.ts))).toMatch(/Dismissed by/)
  })

  it('withdraws the open card on Ctrl-C (SIGINT) and exits: the agent\'s turn is over', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [askTool([{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }])])
    await slack.waitFor(() => interactiveElements(cardNow(card.ts)).length > 0 && cardNow(card.ts))

    run.child.kill('SIGINT')

    const exit = await run.exited
    expect(exit.code ?? exit.signal).not.toBe(0)
    const final = cardNow(card.ts)
    expect(interactiveElements(final)).toEqual([])
    expect(visibleText(final)).toMatch(/withdr|stopped/i)
  })

  it('exits on its own within 5 s once the run is answered: nothing of dsh-slack keeps the process alive', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [askTool([{ id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }]), { text: 'Went ahead.' }])

    await slack.user(ALICE).click(card, 'Yes')
    const clickedAt = performance.now()

    const exit = await run.exited
    expect(exit.code).toBe(0)
    expect(exit.atMs - clickedAt).toBeLessThan(5000)
    expect(visibleText(await settledCard(card.ts))).toContain('Yes')
  })

  it('after a SIGKILL, the next run expires the dead run\'s question and refuses a late click on it', async (context) => {
    const dsh = requireHarness(context)
    const state = join(work, 'killed.sqlite')
    configurePlugin(slackConfig(state))
    const first = await runUntilCard(dsh, [askTool([{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }])])
    const staleView = structuredClone(first.card)
    // Killed while it waits for the answer (the card fully posted and recorded), not mid-post.
    await slack.waitFor(() => recordedMessages(state).includes(first.card.ts), { timeoutMs: 10_000, message: 'the card recorded on its ask' })
    first.run.child.kill('SIGKILL')
    await first.run.exited

    const second = await runUntilCard(dsh, [askTool([{ id: 'name', question: 'Project name?', options: [{ label: 'demo' }] }]), { text: 'Named.' }])
    await slack.waitFor(() => interactiveElements(cardNow(first.card.ts)).length === 0, { timeoutMs: 15_000, message: 'the dead run\'s card to expire' })
    expect(visibleText(cardNow(first.card.ts))).toMatch(/expired/i)
    await slack.user(ALICE).click({ stale: staleView }, 'pnpm')
    const told = await slack.waitFor(() => slack.ephemerals(ALICE).at(-1), { timeoutMs: 5000, message: 'alice told about her late click' })
    expect(visibleText(told)).toMatch(/closed|expired/i)
    await slack.user(ALICE).click(cardNow(second.card.ts), 'demo')

    expect((await second.run.exited).code).toBe(0)
    expect(JSON.parse(model.toolResult(model.callIds.at(-1)!)!)).toEqual({ answers: [{ id: 'name', selected: ['demo'] }] })
  })

  it('asks a tool approval in Slack and runs the command once it is allowed', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const command = 'echo approved-from-slack'
    const { run, card } = await runUntilCard(dsh, [
      { toolCalls: [{ name: 'bash', arguments: { command, description: 'print a marker', sandbox_permissions: 'danger-full-access', justification: 'needs to run outside the sandbox' } }] },
      { text: 'Ran it.' },
    ])
    expect(visibleText(card)).toContain(command)
    expect(visibleText(card)).toContain('needs to run outside the sandbox')

    await slack.user(ALICE).click(card, /Allow/)

    expect((await run.exited).code).toBe(0)
    expect(model.toolResult(model.callIds.at(-1)!)).toContain('approved-from-slack')
    expect(visibleText(await settledCard(card.ts))).toMatch(/Allowed|allowed/)
  })

  it('refuses the command when the tool approval is rejected in Slack', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    const { run, card } = await runUntilCard(dsh, [
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo should-not-run', description: 'print a marker', sandbox_permissions: 'danger-full-access', justification: 'needs to run outside the sandbox' } }] },
      { text: 'Understood.' },
    ])

    await slack.user(ALICE).click(card, /Reject/)

    expect((await run.exited).code).toBe(0)
    const result = model.toolResult(model.callIds.at(-1)!)
    expect(result).not.toContain('should-not-run\n')
    expect(result).toMatch(/reject|denied|declined/i)
    expect(visibleText(await settledCard(card.ts))).toMatch(/Rejected|rejected/)
  })

  it('asks through a running dsh-slack service when configured with serviceUrl (no Slack token in the harness)', async (context) => {
    const dsh = requireHarness(context)
    const apiKey = 'k'.repeat(32)
    const env = { ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', DSH_SLACK_API_KEY: apiKey, PORT: '0' }
    const service = await startService(configFromEnv(env), await serviceDeps(), silentLogger)
    try {
      configurePlugin({ serviceUrl: service.url, apiKey })
      const { run, card } = await runUntilCard(dsh, [askTool([{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }]), { text: 'Using npm.' }])

      await slack.user(ALICE).click(card, 'npm')

      expect((await run.exited).code).toBe(0)
      expect(JSON.parse(model.toolResult(model.callIds.at(-1)!)!)).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
    } finally {
      await service.stop()
    }
  })

  it('with a wrong setting, the run still works and stderr says in one line what to fix', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin({ ...slackConfig(), channel: '#general' })
    model.script({ text: 'Nothing to ask.' })
    const run = startHeadless(dsh, { home, task: 'Say hello', cwd: work, env: MODEL_ENV() })
    runs.push(run)

    const exit = await run.exited
    expect(exit.code).toBe(0)
    expect(run.stdout()).toContain('Nothing to ask.')
    expect(run.stderr().split('\n').filter((line) => line.startsWith('dsh-slack:'))).toEqual([expect.stringMatching(/^dsh-slack: off: dsh-slack plugin config channel: /)])
  })

  it('`dsh-slack doctor --harness` run with the harness\'s Node passes a working profile, Slack checks included', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())

    const { stdout } = await promisify(execFile)(dsh.node, [join(pluginDir, 'dist/src/cli/main.js'), 'doctor', '--harness', join(home, 'profiles/headless')], { env: { PATH: process.env.PATH ?? '' }, cwd: work })

    expect(stdout.split('\n').filter((line) => /^[✓✗!]/.test(line)).map((line) => line.split(':')[0])).toEqual(['✓ harness patch', '✓ plugin config', '✓ Node', '✓ token', '✓ scopes', '✓ thread replies', '! code channels', '✓ channel', '✓ Socket Mode'])
    expect(stdout).toContain('opens SQLite (node:sqlite)')
  })
})
