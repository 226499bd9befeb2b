import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { StoredMessage } from '../../src/sandbox/model.js'
import { interactiveElements, visibleText } from '../support/messages.js'
import { addPlugin, startHeadless, writeProfilePatch, type DshRun } from '../support/harness/dsh-process.js'
import { findRealHarness, freshDshHome, HARNESS_BUILD_TIMEOUT_MS, pluginPackageFor, removeQuietly, type RealHarness } from '../support/harness/real-harness.js'
import { startScriptedModel, type ScriptedModel } from '../support/harness/scripted-model.js'

const ALICE = 'U0SANDBOX01'
const PLAN_MODE_ON = new URL('../support/harness/plan-mode-on.mjs', import.meta.url).pathname

let harness: RealHarness | undefined
let skipReason: string | undefined
let slack: Sandbox
let model: ScriptedModel
let home: string
let work: string

beforeAll(async () => {
  const found = await findRealHarness()
  if (found.skip !== undefined) {
    skipReason = found.skip
    console.warn(`real-harness plugin suite skipped: ${found.skip}`)
    return
  }
  harness = found.harness
  const pluginDir = await pluginPackageFor(harness)
  slack = await startSandbox()
  model = await startScriptedModel()
  home = freshDshHome()
  work = mkdtempSync(join(tmpdir(), 'dsh-slack-harness-'))
  await addPlugin(harness, home, 'headless', pluginDir)
}, HARNESS_BUILD_TIMEOUT_MS)

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

/** The plugin's entry as the docs show it, in the profile's own patch layer, with the ask tool a headless profile lacks. */
function configurePlugin(config: Record<string, unknown>): void {
  const settings = Object.entries(config).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`).join('\n')
  writeProfilePatch(
    home,
    'headless',
    `- insert:
  - id: tool-ask-user
    name: '@deepseek-ai/dsh-tool-ask-user'
  - id: dsh-slack
    name: dsh-slack/cordis
    config:
${settings}
`,
  )
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
    { timeoutMs: 20_000, message: `a card from the harness (its stderr so far: ${run.stderr().slice(-800)})` },
  )
}

function latestTs(): string | undefined {
  return slack.latestMessage(slack.defaultChannel)?.ts
}

function cardNow(ts: string): StoredMessage {
  return slack.messages(slack.defaultChannel).find((m) => m.ts === ts)!
}

function settledCard(ts: string): Promise<StoredMessage> {
  return slack.waitFor(() => (interactiveElements(cardNow(ts)).length === 0 ? cardNow(ts) : undefined), { timeoutMs: 10_000, message: `card ${ts} to lose its controls` })
}

const askTool = (questions: unknown[]) => ({ toolCalls: [{ name: 'ask_user_question', arguments: { questions } }] })

const MODEL_ENV = () => ({ DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' })

/** Scripts the model, starts a headless run of `task`, and returns it with the card it posts. */
async function runUntilCard(dsh: RealHarness, replies: Parameters<ScriptedModel['script']>, options: { patches?: string[]; task?: string } = {}) {
  model.script(...replies)
  const before = latestTs()
  const run = startHeadless(dsh, { home, task: options.task ?? 'Set up the project', cwd: work, env: MODEL_ENV(), ...(options.patches ? { patches: options.patches } : {}) })
  const card = await nextCard(before, run)
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

describe('dsh-slack inside the real harness (headless)', { timeout: 90_000 }, () => {
  it('loads from the documented profile entry and answers a single-select question with one click', async (context) => {
    const dsh = requireHarness(context)
    configurePlugin(slackConfig())
    model.script(askTool([{ id: 'pm', header: 'Tooling', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)', description: 'Fast, strict' }, { label: 'npm' }] }]), { text: 'Using pnpm.' })
    const before = latestTs()
    const run = startHeadless(dsh, { home, task: 'Set up the project', cwd: work, env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' } })

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
})
