/**
 * Issue 42's agent surfaces through the plugin inside the REAL harness (a
 * headless `dsh` run, its plan mode and ask tool, a scripted model): a
 * plan review in the session's code channel, the same without code
 * channels, and answers by thread reply. What the model receives in its
 * next request is the proof of what the agent got. One harness set-up for
 * the file (a profile with dsh-slack added); each test has its own stand-in.
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { auditCommand } from '../../src/cli/audit.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { StoredMessage } from '../../src/sandbox/model.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { SqliteDatabase } from '../../src/store/sqlite-driver.js'
import { memoryIo } from '../support/memory-io.js'
import { interactiveElements, visibleText } from '../support/messages.js'
import { sandboxEnv } from '../support/sandbox-env.js'
import { startHeadless, type DshRun } from '../support/harness/dsh-process.js'
import { configureHeadlessPlugin, harnessOrSkip, setUpHeadlessSuite, stopRuns, tearDownHeadlessSuite } from '../support/harness/headless-suite.js'
import { HARNESS_BUILD_TIMEOUT_MS, type RealHarness } from '../support/harness/real-harness.js'
import type { ScriptedModel, ScriptedReply } from '../support/harness/scripted-model.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const CODE_CHANNEL_SCOPES = [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write']
const PLAN_MODE_ON = new URL('../support/harness/plan-mode-on.mjs', import.meta.url).pathname
const STEP_3 = '3. Drop the old column once the deploy is done.'
const PLAN = `# Plan: drop the legacy column\n\n1. Add the new column.\n2. Backfill it.\n${STEP_3}\n4. Remove the fallback read.\n`
const REVISED = `# Plan: drop the legacy column\n\n1. Add the new column.\n2. Backfill it in batches of 10,000 rows, watching replication lag.\n${STEP_3}\n4. Remove the fallback read.\n`
const COMMENT = 'Which deploy? The API one or the worker one? Say which.'

let harness: RealHarness | undefined
let skipReason: string | undefined
let model: ScriptedModel
let home: string
let work: string
let pluginDir: string
let suiteSlack: Sandbox

beforeAll(async () => {
  const suite = await setUpHeadlessSuite('real-harness agent-surfaces suite')
  if ('skip' in suite) {
    skipReason = suite.skip
    return
  }
  ;({ harness, pluginDir, model, home, work, slack: suiteSlack } = suite)
}, HARNESS_BUILD_TIMEOUT_MS)

const runs: DshRun[] = []
const stands: Sandbox[] = []

afterEach(async () => {
  await stopRuns(runs)
  model?.reset()
  for (const slack of stands.splice(0)) await slack.close()
})

afterAll(async () => {
  await tearDownHeadlessSuite({ model, slack: suiteSlack, home, work })
})

function requireHarness(context: TestContext): RealHarness {
  return harnessOrSkip(context, harness, skipReason)
}

/** A stand-in of the test's own (closed after it), with these bot scopes. */
async function standIn(scopes: string[]): Promise<Sandbox> {
  const slack = await startSandbox({ scopes })
  stands.push(slack)
  return slack
}

/** The plugin's settings for `slack`, with a state file of the test's own (returned, for the audit). */
function pluginConfig(slack: Sandbox, extra: Record<string, unknown> = {}) {
  const state = join(work, `surfaces-${Math.random().toString(36).slice(2)}.sqlite`)
  return { state, config: { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state, ...extra } }
}

const MODEL_ENV = () => ({ DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' })

/** The plan-mode fixture, as an extra patch layer (a headless run has no `/plan`). */
function planPatch(): string {
  const path = join(work, 'plan-mode-on.yml')
  writeFileSync(path, `- insert:\n  - id: test-plan-mode-on\n    name: ${JSON.stringify(PLAN_MODE_ON)}\n`)
  return path
}

const exitPlanMode = (plan: string): ScriptedReply => ({ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan } }] })
const askTool = (questions: unknown[]): ScriptedReply => ({ toolCalls: [{ name: 'ask_user_question', arguments: { questions } }] })

/**
 * The harness's own console logger as a patch layer: a headless profile
 * prints no plugin's log lines, so a test that reads dsh-slack's info lines
 * in the harness's log adds it (the harness's vendored exporter, by path).
 */
function consoleLoggerPatch(dsh: RealHarness): string {
  const path = join(work, 'console-logger.yml')
  writeFileSync(path, `- insert:\n  - id: test-console-logger\n    name: ${JSON.stringify(join(dsh.root, 'vendor/logger-console/lib/index.js'))}\n    config:\n      colors: false\n`)
  return path
}

/** Scripts the model and starts a headless run (in plan mode when `plan`; with the harness's console log when `log`). */
function run(replies: ScriptedReply[], options: { plan?: boolean; log?: boolean; env?: Record<string, string> } = {}): DshRun {
  model.script(...replies)
  const patches = [...(options.plan ? [planPatch()] : []), ...(options.log ? [consoleLoggerPatch(requireHarnessNow())] : [])]
  const started = startHeadless(requireHarnessNow(), { home, task: 'Migrate the table', cwd: work, env: { ...MODEL_ENV(), ...options.env }, patches })
  runs.push(started)
  return started
}

function requireHarnessNow(): RealHarness {
  if (!harness) throw new Error(skipReason ?? 'no harness')
  return harness
}

/** The next top-level card in the stand-in's default channel other than `seen`, once the plugin has recorded it on its ask. */
async function nextCard(slack: Sandbox, run: DshRun, state: string, seen: string[] = []): Promise<StoredMessage> {
  const card = await slack.waitFor(
    () => slack.messages(slack.defaultChannel).find((m) => m.thread_ts === undefined && !seen.includes(m.ts)),
    { timeoutMs: 60_000, message: `a card from the harness (its stderr so far: ${run.stderr().slice(-800)})` },
  )
  // A reply is matched to the ask by its card: wait until the plugin has saved the card on the ask, as a person's reply comes seconds later.
  await slack.waitFor(() => recordedCards(state).includes(card.ts) || undefined, { timeoutMs: 10_000, message: `card ${card.ts} recorded on its ask` })
  return card
}

/** The card timestamps the plugin has recorded on its asks (its SQLite state). */
function recordedCards(state: string): string[] {
  let db: SqliteDatabase
  try {
    db = new SqliteDatabase(state, { readOnly: true, fileMustExist: true })
  } catch {
    return []
  }
  try {
    return (db.prepare('SELECT record FROM asks').all() as { record: string }[]).map((row) => (JSON.parse(row.record) as { message?: { ts: string } }).message?.ts ?? '')
  } finally {
    db.close()
  }
}

/** The tool result the harness sent back for the model's `n`-th tool call (0-based, counted from `from`), once it has. */
function toolResult(slack: Sandbox, from: number, n = 0): Promise<string> {
  return slack.waitFor(() => {
    const id = model.callIds[from + n]
    return id === undefined ? undefined : model.toolResult(id)
  }, { timeoutMs: 30_000, message: `the model to receive the result of tool call ${from + n}` })
}

/** The code channel whose origin is `card`, with its plan canvas at `contentVersion`, once dsh-slack has placed it (context bar last). */
function planCanvas(slack: Sandbox, origin: StoredMessage | { sessionId: string }, contentVersion = 1) {
  return slack.waitFor(() => {
    const channel = [...slack.codeChannels.channels.values()].find((c) => ('ts' in origin ? c.origin?.ts === origin.ts : c.sessionId === origin.sessionId))
    const view = channel?.views.find((v) => v.type === 'canvas')
    if (!channel || !view?.canvasId || view.contentVersion < contentVersion || channel.contextBar.length === 0) return undefined
    return { channel, view, canvas: slack.codeChannels.canvas(view.canvasId) }
  }, { timeoutMs: 15_000, message: `the plan canvas (version ${contentVersion})` })
}

async function requestChanges(slack: Sandbox, card: StoredMessage, typed: string): Promise<void> {
  const alice = slack.user(ALICE)
  await alice.click(card, /Request changes/)
  await slack.waitFor(() => alice.modal(), { timeoutMs: 5000 })
  alice.fill(/.*/, typed)
  await alice.submit()
}

/** The lines dsh-slack wrote on the run's stderr. */
const ourLines = (run: DshRun) => run.stderr().split('\n').filter((line) => line.startsWith('dsh-slack:'))

/** `dsh-slack doctor --harness <headless profile>`, run with the harness's Node as the docs say; its `code channels` line. */
async function doctorCodeChannelsLine(env: Record<string, string> = {}): Promise<string> {
  const dsh = requireHarnessNow()
  const { stdout } = await promisify(execFile)(dsh.node, [join(pluginDir, 'dist/src/cli/main.js'), 'doctor', '--harness', join(home, 'profiles/headless')], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: work }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
  return stdout.split('\n').find((line) => / code channels: /.test(line)) ?? `no code channels line in:\n${stdout}`
}

interface AuditEvent {
  type: string
  by?: { id: string }
  detail: { agent?: { id: string }; answer?: { answers: { selected: string[]; custom?: string }[] } }
}

/** The audit trail, as `dsh-slack audit` exports it from the run's state file. */
async function auditTrail(slack: Sandbox, state: string): Promise<AuditEvent[]> {
  const { io, output } = memoryIo({ SLACK_BOT_TOKEN: slack.botToken, DSH_SLACK_STATE: state })
  expect(await auditCommand([], io)).toBe(0)
  return output().trim().split('\n').map((line) => JSON.parse(line) as AuditEvent)
}

describe('a plan review from the headless harness, in its session’s code channel', { timeout: 240_000 }, () => {
  it('opens the code channel with the plan canvas; the model receives alice’s comment on step 3 verbatim with Request changes; the revision keeps her thread on step 3; bob approves on the card; the audit has both', async (context) => {
    requireHarness(context)
    const slack = await standIn(CODE_CHANNEL_SCOPES)
    const { state, config } = pluginConfig(slack)
    configureHeadlessPlugin(home, config)
    const from = model.callIds.length
    const dsh = run([exitPlanMode(PLAN), exitPlanMode(REVISED), { text: 'Carrying it out.' }], { plan: true })

    const first = await nextCard(slack, dsh, state)
    const { channel, view, canvas } = await planCanvas(slack, first)
    expect(view.accessLevel).toBe('comment')
    expect(canvas.sections.map((s) => s.markdown)).toContain(STEP_3)
    // The harness's session id (its own `session-<uuid>`) is the session the context bar shows, beside where the run works;
    // Slack keeps the channel under a digest of it, the plugin's door and the card's channel (decision 0090).
    const session = channel.contextBar.find((item) => item.key === 'session')?.label
    expect(session).toMatch(/^session-[0-9a-f-]{36}$/)
    expect(channel.sessionId).toMatch(/^dsh1_[0-9a-f]{32}$/)
    expect(channel.contextBar).toEqual([
      { key: 'cwd', label: work, icon: 'folder' },
      { key: 'session', label: session, icon: 'terminal' },
    ])
    slack.user(ALICE).commentOnCanvas(canvas.id, 'Drop the old column once the deploy is done', COMMENT)
    await requestChanges(slack, first, 'See my comment on step 3.')

    const feedback = await toolResult(slack, from, 0)
    expect(feedback).toContain(`their feedback: See my comment on step 3.\n\nComment on the plan canvas:\n\n> Drop the old column once the deploy is done\n- alice (${ALICE}): ${COMMENT}`)

    const second = await nextCard(slack, dsh, state, [first.ts])
    const revised = await planCanvas(slack, { sessionId: channel.sessionId! }, 2)
    expect(revised.canvas.id).toBe(canvas.id)
    expect([...slack.codeChannels.channels.values()].filter((c) => c.sessionId === channel.sessionId)).toHaveLength(1)
    const [thread, ...others] = revised.canvas.comments
    expect(others).toEqual([])
    expect(thread).toMatchObject({ text: COMMENT, userId: ALICE, resolved: false })
    expect(revised.canvas.sections.find((s) => s.id === thread!.sectionId)?.markdown).toBe(STEP_3)
    expect(revised.canvas.sections.map((s) => s.markdown)).toContain('2. Backfill it in batches of 10,000 rows, watching replication lag.')

    await slack.user(BOB).click(second, 'Approve')

    expect(await toolResult(slack, from, 1)).toMatch(/^Plan approved/)
    expect((await dsh.exited).code).toBe(0)
    const trail = await auditTrail(slack, state)
    expect(trail.filter((event) => event.type === 'posted').map((event) => event.detail.agent?.id)).toEqual([session, session])
    expect(trail.filter((event) => event.type === 'answered').map((event) => [event.by?.id, event.detail.answer?.answers[0]])).toEqual([
      [ALICE, { id: expect.any(String), selected: [], custom: expect.stringContaining(`- alice (${ALICE}): ${COMMENT}`) }],
      [BOB, { id: expect.any(String), selected: ['Approve'] }],
    ])
    // The run's end ends the session (decision 0078): its channel is archived with a last line saying how the review ended.
    expect(slack.messages(channel.id).map((m) => m.text)).toEqual([
      `Changes requested by alice (${ALICE}).`,
      `Plan approved by bob (${BOB}).`,
      `The agent session ended. Its last plan review: Plan approved by bob (${BOB}).`,
    ])
    expect(slack.codeChannels.channels.get(channel.id)).toMatchObject({ archived: true })
  })
})

describe('a plan review from the headless harness, where code channels cannot be used', { timeout: 240_000 }, () => {
  interface Case {
    cause: string
    scopes: string[]
    /** The plugin entry's config beyond the stand-in's (undefined: an entry without config, set by the environment). */
    extra: Record<string, unknown> | undefined
    env: Record<string, string>
    /** The one line, in the harness's log or on stderr, that says why. */
    logged: RegExp
    /** Whether it is a warning (stderr: something to fix) rather than the harness's log (the operator's own choice). */
    onStderr: boolean
    doctor: string
  }
  it.for<Case>([
    {
      cause: 'the app lacks the scopes',
      scopes: DEFAULT_SCOPES,
      extra: {},
      env: {},
      logged: /^dsh-slack: plan reviews stay in the card's thread for this run: Slack refused agents\.conversations\.create with missing_scope \(add code_channels:manage and canvases:write to the app and reinstall it\)$/,
      onStderr: true,
      doctor: '! code channels: missing code_channels:manage, canvases:write: plan reviews are the card and its thread (approving, dismissing and Request changes work as before)',
    },
    {
      cause: 'the plugin setting codeChannels is off',
      scopes: CODE_CHANNEL_SCOPES,
      extra: { codeChannels: 'off' },
      env: {},
      logged: /\[I\] dsh-slack plan reviews stay in the card's thread for this run: code channels are turned off \(codeChannels: off, DSH_SLACK_CODE_CHANNELS=off\)$/,
      onStderr: false,
      doctor: '✓ code channels: turned off (codeChannels: off in the plugin config): plan reviews are the card and its thread',
    },
    {
      cause: 'DSH_SLACK_CODE_CHANNELS=off, for an entry without config',
      scopes: CODE_CHANNEL_SCOPES,
      extra: undefined,
      env: { DSH_SLACK_CODE_CHANNELS: 'off' },
      logged: /\[I\] dsh-slack plan reviews stay in the card's thread for this run: code channels are turned off \(codeChannels: off, DSH_SLACK_CODE_CHANNELS=off\)$/,
      onStderr: false,
      doctor: '✓ code channels: turned off (DSH_SLACK_CODE_CHANNELS=off): plan reviews are the card and its thread',
    },
  ])('is today’s card and thread when $cause, and doctor --harness says why', async ({ scopes, extra, env, logged, onStderr, doctor }, context) => {
    requireHarness(context)
    const slack = await standIn(scopes)
    const { state, config } = pluginConfig(slack, extra)
    const runEnv = extra === undefined ? { ...sandboxEnv(slack), DSH_SLACK_STATE: state, ...env } : env
    configureHeadlessPlugin(home, extra === undefined ? undefined : config)
    const from = model.callIds.length
    const dsh = run([exitPlanMode(PLAN), { text: 'Revising.' }], { plan: true, log: true, env: runEnv })

    const card = await nextCard(slack, dsh, state)
    await requestChanges(slack, card, 'Step 3 needs a rollback plan.')

    expect(await toolResult(slack, from, 0)).toMatch(/their feedback: Step 3 needs a rollback plan\.$/)
    expect((await dsh.exited).code).toBe(0)
    expect(slack.codeChannels.channels.size).toBe(0)
    expect(slack.messages(slack.defaultChannel).filter((m) => m.thread_ts === card.ts).map((m) => m.text).join('\n')).not.toMatch(/canvas/)
    const said = `${dsh.stdout()}\n${dsh.stderr()}`.split('\n').filter((line) => line.includes("plan reviews stay in the card's thread"))
    expect(said).toEqual([expect.stringMatching(logged)])
    expect(ourLines(dsh)).toEqual(onStderr ? said : [])
    expect(await doctorCodeChannelsLine(extra === undefined ? { ...sandboxEnv(slack), ...env } : {})).toBe(doctor)
  })
})

describe('a reply in a card’s thread, through the plugin in the headless harness', { timeout: 180_000 }, () => {
  it('is the Other answer of the model’s question, exactly as typed, and alice is told privately in the thread', async (context) => {
    requireHarness(context)
    const slack = await standIn(DEFAULT_SCOPES)
    const { state, config } = pluginConfig(slack)
    configureHeadlessPlugin(home, config)
    const from = model.callIds.length
    const dsh = run([askTool([{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }]), { text: 'Using yarn.' }])
    const card = await nextCard(slack, dsh, state)

    await slack.user(ALICE).reply(card, 'yarn berry, since <the monorepo> uses it & PnP')

    expect(JSON.parse(await toolResult(slack, from, 0))).toEqual({ answers: [{ id: 'pm', selected: [], custom: 'yarn berry, since <the monorepo> uses it & PnP' }] })
    expect((await dsh.exited).code).toBe(0)
    expect(await slack.waitFor(() => slack.ephemerals(ALICE, slack.defaultChannel)[0])).toMatchObject({ thread_ts: card.ts, text: 'Recorded your reply as the *Other* answer to “Which package manager?”.' })
  })

  it('is the Request changes feedback of a plan review: plan mode gives the model the reply as the reviewer’s feedback', async (context) => {
    requireHarness(context)
    const slack = await standIn(DEFAULT_SCOPES)
    const { state, config } = pluginConfig(slack)
    configureHeadlessPlugin(home, config)
    const from = model.callIds.length
    const dsh = run([exitPlanMode(PLAN), { text: 'Revising.' }], { plan: true })
    const card = await nextCard(slack, dsh, state)

    await slack.user(ALICE).reply(card, 'Swap steps 2 and 3: the column goes after the deploy')

    expect(await toolResult(slack, from, 0)).toMatch(/their feedback: Swap steps 2 and 3: the column goes after the deploy$/)
    expect((await dsh.exited).code).toBe(0)
    expect((await slack.waitFor(() => slack.ephemerals(ALICE, slack.defaultChannel)[0])).text).toContain('*Request changes* feedback')
  })

  it('refuses an outsider’s reply privately in the thread; the question stays open and alice answers it', async (context) => {
    requireHarness(context)
    const slack = await standIn(DEFAULT_SCOPES)
    const { state, config } = pluginConfig(slack, { allowedUsers: [ALICE] })
    configureHeadlessPlugin(home, config)
    const from = model.callIds.length
    const dsh = run([askTool([{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }]), { text: 'Using pnpm.' }])
    const card = await nextCard(slack, dsh, state)

    await slack.user(BOB).reply(card, 'npm obviously')
    const refused = await slack.waitFor(() => slack.ephemerals(BOB, slack.defaultChannel)[0])
    const stillOpen = slack.messages(slack.defaultChannel).find((m) => m.ts === card.ts)!
    const modelGotBefore = model.toolResult(model.callIds[from]!)
    await slack.user(ALICE).click(card, 'pnpm')

    expect(refused).toMatchObject({ thread_ts: card.ts, text: 'You are not allowed to answer this question.' })
    expect(interactiveElements(stillOpen).length).toBeGreaterThan(0)
    expect(modelGotBefore).toBeUndefined()
    expect(JSON.parse(await toolResult(slack, from, 0))).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    expect((await dsh.exited).code).toBe(0)
    expect(visibleText(slack.messages(slack.defaultChannel).find((m) => m.ts === card.ts)!)).toContain('pnpm')
  })
})
