import { describe, expect, it } from 'vitest'
import { UserInteractionError } from '../../src/contract/index.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { eventually, MODES, startRig } from '../support/e2e.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const CAROL = 'U0SANDBOX03'

const plan = () => planReviewQuestion('# Plan: drop the legacy table\n\n1. Back up.\n2. Drop it.')

describe.each(MODES)('team approvals with a quorum in %s mode', (mode) => {
  it('keeps one person clicking Approve twice at 1 of 2, and settles approved when a second person approves', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [plan()] }, { policy: { approvals: 2 } })
    const card = await postedMessage(slack, channel)
    expect(visibleText(card)).toContain('Needs 2 approvals')
    const alice = slack.user(ALICE)

    await alice.click(card, 'Approve')
    await slack.waitFor(() => slack.ephemerals(ALICE).at(-1))
    const progress = await slack.waitFor(() => {
      const current = slack.messages(channel).find((m) => m.ts === card.ts)!
      return visibleText(current).includes('1 of 2 approvals') ? current : undefined
    })
    await alice.click(progress, 'Approve')
    const repeat = await slack.waitFor(() => (slack.ephemerals(ALICE).length >= 2 ? slack.ephemerals(ALICE).at(-1) : undefined))

    expect(visibleText(progress)).toContain(`<@${ALICE}>`)
    expect(visibleText(progress)).toContain('waiting for one more')
    expect(repeat.text).toMatch(/already approved/)
    expect((await bridge.store.approvals((await bridge.store.listPending())[0]!.id)).map((a) => a.by.id)).toEqual([ALICE])

    await slack.user(BOB).click(progress, 'Approve')

    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] })
    const final = visibleText(await settledMessage(slack, channel, card.ts))
    expect(final).toMatch(/Approved by/)
    expect(final).toContain(`<@${ALICE}>, <@${BOB}>`)
  })

  it('records every approver on the settled ask', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const record = await bridge.open({ questions: [plan()] }, { policy: { approvals: 2 } })
    const card = await postedMessage(slack, channel)

    await slack.user(ALICE).click(card, 'Approve')
    await eventually(async () => (await bridge.store.approvals(record.id)).length === 1)
    await slack.user(BOB).click(card, 'Approve')
    const settled = await bridge.waitForSettlement(record.id, 10_000)

    expect(settled?.settlement?.approvals?.map((a) => a.by.id)).toEqual([ALICE, BOB])
    expect(settled?.settlement?.answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] })
  })

  it('settles at once when an allowed person keeps planning after one approval (a veto)', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [plan()] }, { policy: { approvals: 2 } })
    const card = await postedMessage(slack, channel)

    await slack.user(ALICE).click(card, 'Approve')
    await slack.waitFor(() => slack.ephemerals(ALICE).at(-1))
    await slack.user(BOB).click(card, 'Keep planning')

    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Keep planning'] }] })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toContain(`<@${BOB}>`)
  })

  it('refuses a user outside the approvers privately and does not count them', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const record = await bridge.open({ questions: [plan()] }, { policy: { approvals: 2, approvers: [ALICE, BOB] } })
    const card = await postedMessage(slack, channel)

    await slack.user(CAROL).click(card, 'Approve')
    const refusal = await slack.waitFor(() => slack.ephemerals(CAROL).at(-1))

    expect(refusal.text).toMatch(/not allowed/)
    expect(await bridge.store.approvals(record.id)).toEqual([])
    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('needs two approvals on a relayed tool approval too, and a Reject vetoes it', async () => {
    const { slack, bridge, channel } = await startRig(mode, { approvals: 2 })
    const approved = await bridge.openApproval({ toolName: 'bash', reason: 'rm -rf build/' })
    const card = await postedMessage(slack, channel)

    await slack.user(ALICE).click(card, 'Allow once')
    await eventually(async () => (await bridge.store.approvals(approved.id)).length === 1)
    expect((await bridge.get(approved.id))?.status).toBe('pending')
    await slack.user(BOB).click(card, 'Allow once')
    const allowed = await bridge.waitForSettlement(approved.id, 10_000)

    expect(allowed?.settlement?.decision).toBe('allowed-once')
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toContain(`<@${ALICE}>, <@${BOB}>`)

    const vetoed = await bridge.openApproval({ toolName: 'bash', reason: 'git push --force' })
    const second = await slack.waitFor(() => slack.messages(channel).find((m) => m.ts !== card.ts && m.ts !== undefined && !m.thread_ts))
    await slack.user(ALICE).click(second, 'Allow once')
    await eventually(async () => (await bridge.store.approvals(vetoed.id)).length === 1)
    await slack.user(CAROL).click(second, 'Reject')

    expect((await bridge.waitForSettlement(vetoed.id, 10_000))?.settlement?.decision).toBe('rejected')
  })

  it('refuses a quorum on a plain question with BAD_REQUEST', async () => {
    const { bridge } = await startRig(mode)

    const refused = bridge.provider.ask({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] }, { policy: { approvals: 2 } })

    await expect(refused).rejects.toMatchObject({ name: 'UserInteractionError', code: 'BAD_REQUEST' })
    await expect(refused).rejects.toBeInstanceOf(UserInteractionError)
  })
})
