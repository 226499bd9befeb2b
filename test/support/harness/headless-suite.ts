import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js'
import { addPlugin, writeProfilePatch, type DshRun } from './dsh-process.js'
import { findRealHarness, freshDshHome, pluginPackageFor, removeQuietly, type RealHarness } from './real-harness.js'
import { startScriptedModel, type ScriptedModel } from './scripted-model.js'

/** What a headless real-harness suite runs against: dsh-slack added to a fresh home's `headless` profile, the stand-in, a scripted model. */
export interface HeadlessSuite {
  harness: RealHarness
  /** dsh-slack as the harness installed it. */
  pluginDir: string
  slack: Sandbox
  model: ScriptedModel
  home: string
  work: string
  /** What `dsh plugin add` printed. */
  installed: string
}

/** Sets a headless suite up, or says why the real harness is not here (a plain clone). */
export async function setUpHeadlessSuite(label: string): Promise<HeadlessSuite | { skip: string }> {
  const found = await findRealHarness()
  if (found.skip !== undefined) {
    console.warn(`${label} skipped: ${found.skip}`)
    return { skip: found.skip }
  }
  const harness = found.harness
  const pluginDir = await pluginPackageFor(harness)
  const slack = await startSandbox()
  const model = await startScriptedModel()
  const home = freshDshHome()
  const work = mkdtempSync(join(tmpdir(), 'dsh-slack-harness-'))
  const installed = await addPlugin(harness, home, 'headless', pluginDir)
  return { harness, pluginDir, slack, model, home, work, installed }
}

/** Stops the runs a test started, so none is left to answer the next test's cards. */
export async function stopRuns(runs: DshRun[]): Promise<void> {
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
    await run.exited
  }
}

export async function tearDownHeadlessSuite(suite: Partial<HeadlessSuite>): Promise<void> {
  await suite.model?.close()
  await suite.slack?.close()
  if (suite.home) removeQuietly(suite.home)
  if (suite.work) removeQuietly(suite.work)
}

/** The harness, or the test skipped with the reason it is missing. */
export function harnessOrSkip(context: TestContext, harness: RealHarness | undefined, skipReason: string | undefined): RealHarness {
  if (!harness) context.skip(skipReason)
  return harness!
}

/**
 * The plugin's settings as the docs show them: `dsh plugin add` made
 * dsh-slack a layer of the profile (its cordis.patch.yml inserts the entry),
 * and the profile's own patch layer gives that entry its config (none: the
 * environment's) and inserts the ask tool a headless profile lacks.
 */
export function configureHeadlessPlugin(home: string, config: Record<string, unknown> | undefined): void {
  const entry = config === undefined ? '' : `- id: dsh-slack
  config:
${Object.entries(config).map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`).join('\n')}
`
  writeProfilePatch(
    home,
    'headless',
    `- insert:
  - id: tool-ask-user
    name: '@deepseek-ai/dsh-tool-ask-user'
${entry}`,
  )
}
