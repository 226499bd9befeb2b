import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { sandboxEnv } from '../support/sandbox-env.js'
import { addPlugin, startDsh, type DshRun } from '../support/harness/dsh-process.js'
import { findRealHarness, freshDshHome, HARNESS_BUILD_TIMEOUT_MS, pluginPackageFor, removeQuietly, type RealHarness } from '../support/harness/real-harness.js'

let harness: RealHarness | undefined
let skipReason: string | undefined
let slack: Sandbox
let home: string
let work: string
let host: DshRun | undefined

beforeAll(async () => {
  const found = await findRealHarness()
  if (found.skip !== undefined) {
    skipReason = found.skip
    console.warn(`real-harness web host suite skipped: ${found.skip}`)
    return
  }
  harness = found.harness
  const pluginDir = await pluginPackageFor(harness)
  slack = await startSandbox()
  home = freshDshHome()
  work = mkdtempSync(join(tmpdir(), 'dsh-slack-web-'))
  await addPlugin(harness, home, 'web', pluginDir)
}, HARNESS_BUILD_TIMEOUT_MS)

afterAll(async () => {
  if (host && host.child.exitCode === null) {
    host.child.kill('SIGTERM')
    await host.exited
  }
  await slack?.close()
  if (home) removeQuietly(home)
  if (work) removeQuietly(work)
})

describe('dsh-slack in a dsh web profile', { timeout: 180_000 }, () => {
  it('never stops the web host from booting: it leaves the questions to the host\'s own UI and says, once, to use the relay', async (context) => {
    if (!harness) return context.skip(skipReason)
    const env = { ...sandboxEnv(slack), DSH_SLACK_STATE: join(work, 'state.sqlite'), DEEPSEEK_BASE_URL: 'http://127.0.0.1:9/v1', DEEPSEEK_API_KEY: 'test' }
    host = startDsh(harness, { home, cwd: work, env, args: ['--profile', 'web', '--patch', harness.offlineOverlay, '--no-open', '--port', '0'] })
    const running = host

    const url = await slack.waitFor(() => /dsh web: (http:\/\/\S+)/.exec(running.stdout() + running.stderr())?.[1], { timeoutMs: 60_000, message: `dsh web to boot (it said: ${running.stderr().slice(-1000)})` })
    const page = await fetch(url)

    expect(page.status).toBe(200)
    expect(running.child.exitCode).toBeNull()
    const ours = running.stderr().split('\n').filter((line) => line.startsWith('dsh-slack:'))
    expect(ours).toEqual([expect.stringMatching(/^dsh-slack: off: this host shows questions in its own UI .*dsh-slack relay/)])
  })
})
