/**
 * The install path docs/harness-plugin.md leads with: `npm pack` in a
 * checkout, then `dsh plugin --profile headless add ./dsh-slack-<version>.tgz`
 * in the real harness. The plugin then runs from that tarball's files (not
 * the checkout), with the dependencies pnpm installed for it, and answers a
 * headless run's question from Slack.
 */
import { mkdtempSync, readFileSync, readdirSync, realpathSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { buildCheckout, REPO_ROOT, underBuildLock } from '../support/checkout-build.js'
import { addPluginSpec, startHeadless, type DshRun } from '../support/harness/dsh-process.js'
import { configureHeadlessPlugin, harnessOrSkip, stopRuns, tearDownHeadlessSuite } from '../support/harness/headless-suite.js'
import { findRealHarness, freshDshHome, HARNESS_BUILD_TIMEOUT_MS, removeQuietly, type RealHarness } from '../support/harness/real-harness.js'
import { startScriptedModel, type ScriptedModel } from '../support/harness/scripted-model.js'
import { visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version
const TARBALL = `dsh-slack-${version}.tgz`

let harness: RealHarness | undefined
let skipReason: string | undefined
let slack: Sandbox
let model: ScriptedModel
let home: string
let work: string
let packs: string
let installed: string

beforeAll(async () => {
  const found = await findRealHarness()
  if (found.skip !== undefined) {
    skipReason = found.skip
    console.warn(`plugin-from-tarball suite skipped: ${found.skip}`)
    return
  }
  harness = found.harness
  await buildCheckout()
  packs = mkdtempSync(join(tmpdir(), 'dsh-slack-packs-'))
  await underBuildLock('npm', ['pack', '--ignore-scripts', '--pack-destination', packs], { cwd: REPO_ROOT })
  slack = await startSandbox()
  model = await startScriptedModel()
  home = freshDshHome()
  work = mkdtempSync(join(tmpdir(), 'dsh-slack-harness-'))
  // As the docs write it: from the folder holding the tarball, a path relative to it.
  installed = await addPluginSpec(harness, home, 'headless', `./${TARBALL}`, packs)
}, HARNESS_BUILD_TIMEOUT_MS)

const runs: DshRun[] = []
afterEach(async () => {
  await stopRuns(runs)
  model?.reset()
})
afterAll(async () => {
  await tearDownHeadlessSuite({ model, slack, home, work })
  if (packs) removeQuietly(packs)
})

const requireHarness = (context: TestContext) => harnessOrSkip(context, harness, skipReason)

describe('dsh-slack installed from its npm pack tarball into a real harness profile', { timeout: 300_000 }, () => {
  it('joins the profile as a layer (dsh.bundle), its files the tarball\'s own and not the checkout\'s', (context) => {
    requireHarness(context)
    const profile = JSON.parse(readFileSync(join(home, 'profiles/headless/package.json'), 'utf8')) as { dependencies: Record<string, string>; dsh: { profile: { bundles: string[] } } }
    const dir = realpathSync(join(home, 'profiles/headless/node_modules/dsh-slack'))

    expect(installed).not.toContain('declares no dsh.bundle')
    expect(profile.dependencies['dsh-slack']).toMatch(new RegExp(`^file:.*${TARBALL.replace(/\./g, '\\.')}$`))
    expect(profile.dsh.profile.bundles).toContain('dsh-slack')
    expect(dir.startsWith(realpathSync(REPO_ROOT))).toBe(false)
    expect(readdirSync(join(dir, 'dist')).sort()).toEqual(['blocks', 'src', 'web'])
    expect(existsSync(join(dir, 'cordis.patch.yml'))).toBe(true)
  })

  it('answers a headless run\'s question from Slack', async (context) => {
    const dsh = requireHarness(context)
    configureHeadlessPlugin(home, { botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: join(work, 'state.sqlite') })
    model.script({ toolCalls: [{ name: 'ask_user_question', arguments: { questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }] } }] }, { text: 'Using pnpm.' })
    const before = slack.latestMessage(slack.defaultChannel)?.ts
    const run = startHeadless(dsh, { home, task: 'Set up the project', cwd: work, env: { DEEPSEEK_BASE_URL: model.baseUrl, DEEPSEEK_API_KEY: 'test' } })
    runs.push(run)

    const card = await slack.waitFor(
      () => {
        const latest = slack.latestMessage(slack.defaultChannel)
        return latest && latest.ts !== before ? latest : undefined
      },
      { timeoutMs: 60_000, message: `a card from the harness (its stderr so far: ${run.stderr().slice(-800)})` },
    )
    expect(visibleText(card)).toContain('Which package manager?')
    await slack.user(ALICE).click(card, 'pnpm')

    expect((await run.exited).code).toBe(0)
    expect(run.stdout()).toContain('Using pnpm.')
    expect(JSON.parse(model.toolResult(model.callIds.at(-1)!) ?? 'null')).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
  })
})
