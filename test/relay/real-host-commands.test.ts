import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startRelay, type Relay } from '../../src/relay/index.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { eventually, startRig, type Rig } from '../support/e2e.js'
import { startDshWeb, type DshWeb } from '../support/harness/dsh-web.js'
import { findRealHarness, HARNESS_BUILD_TIMEOUT_MS, type RealHarness } from '../support/harness/real-harness.js'
import { startScriptedModel, type ScriptedModel } from '../support/harness/scripted-model.js'
import { ISSUE_48_EVASIONS, policyHolding, type HeldBy } from '../policy/command/evasions.js'
import { FAST } from './support/fixtures.js'
import { recordingLogger } from './support/recording-logger.js'

// Issue 48 item 2, live: the 40 evasions as the agent's bash calls on a
// real `dsh web`, relayed to the bridge on the local Slack stand-in under
// the docs' policy (and the docs' defaults with a rule for `rm -rf /`). The
// relay opens each approval through the same resolution as `policy
// explain`; the ask records the rule it fell under. One host (a boot costs
// seconds) and one model turn per policy: the model asks for every command
// at once, the host asks for each approval in turn. The bridge posts cards
// at Slack's pace (one a second per channel after a burst of four), which
// is most of this suite's time; more sessions at once do not change that.
// Nothing runs: every approval is rejected, and the host's PATH starts with
// stub programs that only record what they were asked to run.
//
// People: alice is a lead (@leads and named by the force-push rule), bob an
// engineer (@engineers answer the defaults). Before the fix bob could
// approve each of these with one click; now only alice may.

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'

const availability = await findRealHarness()
if (availability.skip) console.log(`real-host command-rules suite skipped: ${availability.skip}`)
const skipIfNoHarness = describe.skipIf(availability.skip !== undefined)
const harness = (): RealHarness => availability.harness!

/** Programs the evasions name, as stubs on the host's PATH: if one ever ran, it would only leave a line in the log. */
const STUBBED = ['git', 'rm', 'find', 'busybox', 'ionice', 'taskset', 'flock', 'chrt', 'script', 'su', 'runuser', 'fish', 'tcsh', 'watch', 'parallel', 'ssh', 'python3', 'awk', 'perl']

/** A bash call that needs the person's approval under the harness's default preset (it asks for wider sandbox access). */
function escalatedBash(command: string) {
  return { name: 'bash', arguments: { command, description: 'Runs a command', sandbox_permissions: 'danger-full-access', justification: 'Issue 48 evasion test.' } }
}

/** Plain commands next to the evasions: they must fall to the defaults, so the relay resolved each call from its command (an unseen command would fall to the strictest rule too). */
const CONTROLS = ['git push origin main', 'git status --short']

const commandOfRecord = (ask: AskRecord): string | undefined => {
  try {
    return (JSON.parse(ask.approval?.arguments ?? 'null') as { command?: string } | null)?.command
  } catch {
    return undefined
  }
}

skipIfNoHarness('command rules live on the real dsh web', { timeout: 240_000 }, () => {
  const state = {} as { model: ScriptedModel; host: DshWeb; stubs: string; policies: string; log: string }
  const stops: (() => Promise<void>)[] = []

  beforeAll(async () => {
    state.stubs = mkdtempSync(join(tmpdir(), 'dsh-slack-host-stubs-'))
    state.policies = mkdtempSync(join(tmpdir(), 'dsh-slack-host-policies-'))
    state.log = join(state.stubs, 'ran.log')
    for (const program of STUBBED) {
      writeFileSync(join(state.stubs, program), `#!/bin/sh\necho "${program} $*" >> ${JSON.stringify(state.log)}\n`)
      chmodSync(join(state.stubs, program), 0o755)
    }
    state.model = await startScriptedModel()
    state.host = await startDshWeb(harness(), { model: state.model, pathPrefix: state.stubs })
  }, HARNESS_BUILD_TIMEOUT_MS)
  afterAll(async () => {
    await state.host?.close()
    await state.model?.close()
    rmSync(state.stubs, { recursive: true, force: true })
    rmSync(state.policies, { recursive: true, force: true })
  })
  afterEach(async () => {
    while (stops.length > 0) await stops.pop()!().catch(() => undefined)
  })

  /** A bridge on a fresh stand-in under `heldBy`'s policy, relaying from the host. */
  async function relayUnder(heldBy: HeldBy): Promise<Rig> {
    const { text, file } = policyHolding(heldBy)
    const path = join(state.policies, file)
    writeFileSync(path, text)
    const rig = await startRig('socket', { owner: 'service', policy: path })
    rig.slack.createUserGroup({ id: 'S0ENGINEERS', handle: 'engineers', users: [ALICE, BOB] })
    rig.slack.createUserGroup({ id: 'S0LEADS', handle: 'leads', users: [ALICE] })
    const relay: Relay = startRelay({ bridge: rig.bridge, hosts: [state.host.url], logger: recordingLogger(), timing: { ...FAST, requestTimeoutMs: 1500 } })
    stops.push(() => relay.stop())
    await rig.slack.waitFor(() => relay.status().hosts.every((host) => host.state === 'connected') || undefined, { timeoutMs: 15_000, message: 'the relay to connect' })
    return rig
  }

  /** Whether `who`'s click on Reject was refused, the ask staying pending. */
  async function refused(rig: Rig, who: string, ask: AskRecord): Promise<boolean> {
    const before = rig.slack.ephemerals(who).length
    await rig.slack.user(who).click(ask.message!, 'Reject')
    const told = await rig.slack.waitFor(() => rig.slack.ephemerals(who).slice(before).find((message) => /not allowed/.test(message.text ?? '')))
    return told !== undefined && (await rig.bridge.get(ask.id))?.status === 'pending'
  }

  it.each(['force-push', 'rm-root'] as HeldBy[])('holds every evasion to the %s rule through a relayed approval: bob is refused, alice rejects', async (heldBy) => {
    const rig = await relayUnder(heldBy)
    const calls = [...ISSUE_48_EVASIONS.filter((evasion) => evasion.heldBy === heldBy).map((evasion) => ({ command: evasion.command, rule: heldBy as string })), ...CONTROLS.map((command) => ({ command, rule: 'defaults' }))]
    const session = await state.host.createSession()
    state.model.script({ toolCalls: calls.map(({ command }) => escalatedBash(command)) }, { text: 'Done.' })
    const from = state.model.requests.length
    await state.host.prompt(session, 'Run these commands.')

    const seen: { command: string; rule: string | undefined }[] = []
    for (const [index, { command }] of calls.entries()) {
      const ask = await eventually(async () => (await rig.bridge.store.listAsks({ limit: 200 })).asks.find((one) => one.message !== undefined && one.status === 'pending' && commandOfRecord(one) === command), 30_000)
      seen.push({ command, rule: ask.rule })
      // Once per policy: the rule is enforced, not only recorded (the others take the same path).
      if (index === 0) expect(await refused(rig, BOB, ask)).toBe(true)
      await rig.slack.user(ALICE).click(ask.message!, 'Reject')
      await eventually(async () => (await rig.bridge.get(ask.id))?.status !== 'pending' || undefined)
    }

    expect(seen).toEqual(calls.map(({ command, rule }) => ({ command, rule })))
    // The turn goes on (the model hears that each was rejected), and no stub ran.
    await rig.slack.waitFor(() => state.model.requests.length > from + 1 || undefined, { timeoutMs: 30_000, message: 'the model to hear back' })
    expect(existsSync(state.log) ? readFileSync(state.log, 'utf8') : '').toBe('')
  })
})
