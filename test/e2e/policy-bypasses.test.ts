import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSlackBridge } from '../../src/index.js'
import { UserInteractionError } from '../../src/contract/index.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { eventually, MODES, startRig } from '../support/e2e.js'
import { liveMentions, postedMessage } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const CAROL = 'U0SANDBOX03'
const MINUTE = 60_000
const plan = () => planReviewQuestion('# Plan: drop the legacy table\n\n1. Back up.\n2. Drop it.')
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** The operator's rules of the outside review: alice and carol answer, and two of them approve. */
const TWO_PERSON_RULE = { allowedUsers: [ALICE, CAROL], approvals: 2, approvers: [ALICE, CAROL] }

function fakeClock(start = Date.now()) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

describe.each(MODES)('requests can only tighten the operator\'s policy in %s mode', (mode) => {
  it('refuses a plan review that lowers the quorum to one approval by an approver of its own choosing', async () => {
    const { slack, bridge, channel } = await startRig(mode, TWO_PERSON_RULE)

    const refused = bridge.provider.ask({ questions: [plan()] }, { policy: { approvals: 1, approvers: [BOB] } })

    await expect(refused).rejects.toBeInstanceOf(UserInteractionError)
    await expect(refused).rejects.toMatchObject({ code: 'POLICY_FORBIDDEN', message: expect.stringMatching(/policy\.approvals.*rule "environment"/) })
    expect(slack.messages(channel)).toEqual([])
  })

  it('refuses approvers outside the operator\'s approvers even when the quorum is kept', async () => {
    const { bridge } = await startRig(mode, TWO_PERSON_RULE)

    const refused = bridge.provider.ask({ questions: [plan()] }, { policy: { approvals: 2, approvers: [ALICE, BOB] } })

    await expect(refused).rejects.toMatchObject({ name: 'UserInteractionError', code: 'POLICY_FORBIDDEN', message: expect.stringMatching(/policy\.approvers.*U0SANDBOX02/) })
  })

  it('refuses a plain question that names an approver the operator does not allow to answer', async () => {
    const { bridge } = await startRig(mode, TWO_PERSON_RULE)

    const refused = bridge.provider.ask({ questions: [pm] }, { policy: { approvers: [BOB] } })

    await expect(refused).rejects.toMatchObject({ name: 'UserInteractionError', code: 'POLICY_FORBIDDEN', message: expect.stringContaining('policy.approvers') })
  })

  it('refuses an escalation to someone the operator does not name', async () => {
    const { bridge } = await startRig(mode, TWO_PERSON_RULE)

    const refused = bridge.open({ questions: [plan()] }, { policy: { approvers: [ALICE], remindAfter: '15m', escalateTo: 'S0PICKED', escalateAfter: '30m' } })

    await expect(refused).rejects.toMatchObject({ code: 'POLICY_FORBIDDEN', message: expect.stringContaining('policy.escalateTo') })
  })

  it('keeps a stricter request: more approvals from fewer of the operator\'s approvers', async () => {
    const { bridge } = await startRig(mode, { allowedUsers: [ALICE, BOB, CAROL], approvals: 2, approvers: [ALICE, BOB, CAROL] })

    const record = await bridge.open({ questions: [plan()] }, { policy: { approvals: 3, approvers: [ALICE, BOB] } })

    expect(record.policy).toMatchObject({ approvals: 3, approvers: [ALICE, BOB] })
    expect(record.rule).toBe('environment')
  })

  it('mentions nobody the operator did not name when a request picks its own approvers and a reminder falls due', async () => {
    const clock = fakeClock()
    // Nobody is named: anyone may answer, so narrowing to bob and a group is a tightening, but not a licence to ping them.
    const { slack, bridge, channel } = await startRig(mode, { now: clock.now, schedulerIntervalMs: 20 })
    const record = await bridge.open({ questions: [plan()] }, { policy: { approvers: [BOB, 'S0PICKED'], remindAfter: '15m' } })
    const card = await postedMessage(slack, channel)

    clock.advance(16 * MINUTE)
    const reminder = await slack.waitFor(() => slack.messages(channel).find((m) => m.thread_ts === card.ts && m.ts !== card.ts))
    await eventually(async () => (await bridge.store.events(record.id)).find((e) => e.type === 'reminded'))

    expect(liveMentions(reminder).filter((mention) => !mention.startsWith('<http'))).toEqual([])
    expect(slack.workspace.channels.get(channel)).toBeDefined()
  })

  it('mentions the operator\'s approvers in a reminder', async () => {
    const clock = fakeClock()
    const { slack, bridge, channel } = await startRig(mode, { now: clock.now, schedulerIntervalMs: 20, approvals: 2, approvers: [ALICE, 'S0LEADS'], remindAfter: '15m' })
    await bridge.open({ questions: [plan()] })
    const card = await postedMessage(slack, channel)

    clock.advance(16 * MINUTE)
    const reminder = await slack.waitFor(() => slack.messages(channel).find((m) => m.thread_ts === card.ts && m.ts !== card.ts))

    expect(reminder.text).toContain(`<@${ALICE}>`)
    expect(reminder.text).toContain('<!subteam^S0LEADS>')
  })
})

describe.each(MODES)('declines on a quorum ask count only from approvers in %s mode', (mode) => {
  it('leaves a plan pending and tells an outsider privately when they click Keep planning', async () => {
    const { slack, bridge, channel } = await startRig(mode, { approvals: 2, approvers: [ALICE, BOB] })
    const record = await bridge.open({ questions: [plan()] })
    const card = await postedMessage(slack, channel)

    await slack.user(CAROL).click(card, 'Keep planning')
    const refusal = await slack.waitFor(() => slack.ephemerals(CAROL).at(-1))

    expect(refusal.text).toMatch(/not allowed/)
    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('leaves a tool approval pending and tells an outsider privately when they click Reject', async () => {
    const { slack, bridge, channel } = await startRig(mode, { approvals: 2, approvers: [ALICE, BOB] })
    const record = await bridge.openApproval({ toolName: 'bash', reason: 'rm -rf build/' })
    const card = await postedMessage(slack, channel)

    await slack.user(CAROL).click(card, 'Reject')
    const refusal = await slack.waitFor(() => slack.ephemerals(CAROL).at(-1))

    expect(refusal.text).toMatch(/not allowed/)
    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('still lets an approver veto with Reject', async () => {
    const { slack, bridge, channel } = await startRig(mode, { approvals: 2, approvers: [ALICE, BOB] })
    const record = await bridge.openApproval({ toolName: 'bash', reason: 'rm -rf build/' })
    const card = await postedMessage(slack, channel)

    await slack.user(BOB).click(card, 'Reject')

    expect((await bridge.waitForSettlement(record.id, 10_000))?.settlement?.decision).toBe('rejected')
  })
})

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-library-policy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const LEADS_POLICY = `defaults:
  approvals: 1
rules:
  - name: destructive-shell
    match:
      kind: tool-approval
      tool: bash
      command: ["rm -rf *", "git push --force*"]
      host: "http://127.0.0.1:*"
    approvers: [${ALICE}]
    approvals: 1
`

describe('the library and the relay follow the policy file', () => {
  it('takes the policy file\'s path as the policy option and holds a relayed rm -rf to its rule', async () => {
    const path = join(dir, 'policy.yml')
    writeFileSync(path, LEADS_POLICY)
    const { slack, bridge, channel } = await startRig('socket', { policy: path })

    const record = await bridge.openApproval({ toolName: 'bash', arguments: JSON.stringify({ command: 'rm -rf build/' }) }, { origin: { host: 'http://127.0.0.1:4000' } })
    const card = await postedMessage(slack, channel)
    await slack.user(BOB).click(card, 'Allow once')
    const refusal = await slack.waitFor(() => slack.ephemerals(BOB).at(-1))

    expect(record).toMatchObject({ rule: 'destructive-shell', policy: { approvers: [ALICE] } })
    expect(refusal.text).toMatch(/not allowed/)
    expect((await bridge.get(record.id))?.status).toBe('pending')
    const harmless = await bridge.openApproval({ toolName: 'bash', arguments: JSON.stringify({ command: 'ls' }) }, { origin: { host: 'http://127.0.0.1:4000' } })
    expect(harmless.rule).toBe('defaults')
  })

  it('refuses to start on a broken policy file, naming the option, file, line and field', async () => {
    const path = join(dir, 'broken.yml')
    writeFileSync(path, LEADS_POLICY.replace('approvals: 1\nrules', 'approvals: 0\nrules'))

    await expect(createSlackBridge({ botToken: 'xoxb-unused', appToken: 'xapp-unused', policy: path })).rejects.toMatchObject({ name: 'ConfigError', variable: 'policy', message: expect.stringContaining(`${path}:2: defaults.approvals must be at least 1`) })
  })
})
