import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { startRelay, type Relay } from '../../src/relay/index.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { eventually, startRig, type Rig } from '../support/e2e.js'
import { startFakeHost, type FakeHost } from '../support/fake-host.js'
import { EVASIONS, OVER_MATCHES, standInPolicy } from '../policy/command/evasions.js'
import { recordingLogger } from '../relay/support/recording-logger.js'
import { FAST } from '../relay/support/fixtures.js'

// Issue 40 item 3, live: a tool approval relayed from the (fake) harness host
// to the real bridge on the local Slack stand-in, under the force-push rule
// of docs/policy.md (alice approves) next to allow rules for `git status*`
// and `ls *` (carol may approve too) and defaults where bob may approve.

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const CAROL = 'U0SANDBOX03'

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-command-rules-'))
const path = join(dir, 'policy.json')
writeFileSync(path, standInPolicy({ alice: ALICE, bob: BOB, carol: CAROL }))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  while (stops.length > 0) await stops.pop()!().catch(() => undefined)
})

let rig: Rig
let host: FakeHost
let call = 0

/** A fresh host, bridge (its rig is stopped after each test by test/support/e2e.ts) and relay. */
async function start(): Promise<void> {
  host = await startFakeHost()
  stops.push(() => host.close())
  rig = await startRig('socket', { policy: path })
  const relay: Relay = startRelay({ bridge: rig.bridge, hosts: [host.url], logger: recordingLogger(), timing: FAST })
  stops.push(() => relay.stop())
  await host.waitForConnections(1)
}

/** The agent asks to run `command` through bash; the card it gets, and its ask. */
async function approvalFor(command: string): Promise<{ record: AskRecord; card: { channel: string; ts: string }; outcome: Promise<unknown> }> {
  call += 1
  const { rpcId, outcome } = host.requestApproval({ sessionId: 'session-1', toolName: 'bash', callId: `call-${call}`, reason: 'Runs a shell command.', arguments: { command } })
  // The relay keys its ask by the host's request id; the card is posted once the ask has its message.
  const record = await eventually(async () => (await rig.bridge.store.listAsks({ limit: 200 })).asks.find((ask) => ask.relayDelivery?.key.endsWith(`#${rpcId}`) && ask.message !== undefined))
  return { record, card: record.message!, outcome }
}

/** `who` clicks Allow once; whether they were told they are not allowed (the ask staying pending). */
async function refused(who: string, card: { channel: string; ts: string }, askId: string): Promise<boolean> {
  const before = rig.slack.ephemerals(who).length
  await rig.slack.user(who).click(card, 'Allow once')
  const told = await rig.slack.waitFor(() => rig.slack.ephemerals(who).slice(before).find((message) => /not allowed/.test(message.text ?? '')))
  return told !== undefined && (await rig.bridge.get(askId))?.status === 'pending'
}

/** The call falls under `rule`; `outsider` is refused, and `approver`'s click lets it run. */
async function expectHeld(command: string, rule: string, people: { outsider?: string; approver: string }): Promise<void> {
  await start()
  const { record, card, outcome } = await approvalFor(command)

  expect(record.rule).toBe(rule)
  if (people.outsider !== undefined) expect(await refused(people.outsider, card, record.id)).toBe(true)
  await rig.slack.user(people.approver).click(card, 'Allow once')
  expect(await outcome).toMatchObject({ kind: 'decided', outcome: 'allowed-once' })
}

describe('command rules hold live, through the relay and the stand-in', () => {
  it.each(EVASIONS)('holds $name ($command) to the force-push rule: bob cannot approve it, alice can', async ({ command }) => {
    await expectHeld(command, 'force-push', { outsider: BOB, approver: ALICE })
  })

  it.each(OVER_MATCHES)('keeps the allow rule $allowRule off $command: carol, allowed only by it, cannot approve', async ({ command, expected }) => {
    await expectHeld(command, expected, { outsider: CAROL, approver: ALICE })
  })

  it('lets bob approve a plain push under the defaults: the evasions above would have let him too', async () => {
    await expectHeld('git push origin main', 'defaults', { approver: BOB })
  })

  it('still lets carol approve what every part of falls under an allow rule', async () => {
    await expectHeld('git status && ls *', 'git-status', { approver: CAROL })
  })
})
