import { describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import type { SandboxHomeView } from '../../src/sandbox/index.js'
import { eventually, MODES, startRig } from '../support/e2e.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const CAROL = 'U0SANDBOX03'

const pick = (question: string) => ({ id: 'pm', question, options: [{ label: 'npm' }, { label: 'pnpm' }] })
const plan = () => planReviewQuestion('# Plan: drop the legacy table\n\n1. Back up.\n2. Drop it.')

/** The Home tab as published once it satisfies `check` (the app publishes it after the event, and again on changes). */
function homeWhere(slack: Awaited<ReturnType<typeof startRig>>['slack'], user: string, check: (text: string, view: SandboxHomeView) => boolean): Promise<SandboxHomeView> {
  return slack.waitFor(() => {
    const view = slack.user(user).home()
    return view && check(visibleText({ text: '', blocks: view.blocks }), view) ? view : undefined
  })
}

describe.each(MODES)('the "Waiting for you" Home tab in %s mode', (mode) => {
  it('says nothing is waiting when no ask is open', async () => {
    const { slack } = await startRig(mode)

    await slack.user(ALICE).openHome()
    const home = await homeWhere(slack, ALICE, () => true)

    expect(home.type).toBe('home')
    expect(visibleText({ text: '', blocks: home.blocks })).toContain('Nothing is waiting for you')
  })

  it('lists only the asks this person may answer, newest first', async () => {
    const { slack, bridge } = await startRig(mode)
    await bridge.open({ questions: [pick('Older: which package manager?')] })
    await bridge.open({ questions: [plan()] }, { policy: { approvers: [BOB] } })
    await bridge.open({ questions: [pick('Newer: which package manager?')] })

    await slack.user(ALICE).openHome()
    await slack.user(BOB).openHome()
    const alice = visibleText({ text: '', blocks: (await homeWhere(slack, ALICE, (text) => text.includes('2 asks wait'))).blocks })
    const bob = visibleText({ text: '', blocks: (await homeWhere(slack, BOB, (text) => text.includes('3 asks wait'))).blocks })

    expect(alice).not.toContain('drop the legacy table')
    expect(alice.indexOf('Newer')).toBeLessThan(alice.indexOf('Older'))
    expect(bob.indexOf('drop the legacy table')).toBeLessThan(bob.indexOf('Older'))
    expect(bob.indexOf('Newer')).toBeLessThan(bob.indexOf('drop the legacy table'))
  })

  it('settles a single-select question answered from Home: the waiting ask() resolves and the channel message shows the answer', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [pick('Which package manager?')] })
    const card = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    await alice.openHome()
    const home = await homeWhere(slack, ALICE, (text) => text.includes('Which package manager?'))

    expect(home.blocks.some((block) => block.type === 'actions')).toBe(true)
    await alice.click('home', 'pnpm')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toContain(`<@${ALICE}>`)
    await homeWhere(slack, ALICE, (text) => text.includes('Nothing is waiting for you'))
    expect(slack.ephemerals(ALICE)).toEqual([])
  })

  it('counts an approval from Home toward a quorum like one in the channel, and tells the approver on the tab', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const record = await bridge.open({ questions: [plan()] }, { policy: { approvals: 2 } })
    const card = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    await alice.openHome()
    await homeWhere(slack, ALICE, (text) => text.includes('drop the legacy table') && text.includes('Needs 2 approvals'))

    await alice.click('home', 'Approve')
    const counted = await homeWhere(slack, ALICE, (text) => text.includes('Your approval is counted: 1 of 2'))
    await slack.user(BOB).click(card, 'Approve')

    expect(visibleText({ text: '', blocks: counted.blocks })).toContain('1 of 2 approvals')
    const settled = await bridge.waitForSettlement(record.id, 10_000)
    expect(settled?.settlement?.approvals?.map((a) => a.by.id)).toEqual([ALICE, BOB])
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toContain(`<@${ALICE}>, <@${BOB}>`)
    expect(slack.ephemerals(ALICE)).toEqual([])
  })

  it('answers a tool approval from Home', async () => {
    const { slack, bridge } = await startRig(mode)
    const record = await bridge.openApproval({ toolName: 'bash', reason: 'rm -rf build/' })
    const bob = slack.user(BOB)
    await bob.openHome()
    await homeWhere(slack, BOB, (text) => text.includes('bash'))

    await bob.click('home', 'Reject')

    expect((await bridge.waitForSettlement(record.id, 10_000))?.settlement?.decision).toBe('rejected')
  })

  it('dismisses a plan review from Home, as its card does, and says a tool approval waits in words that fit it', async () => {
    const { slack, bridge } = await startRig(mode)
    const record = await bridge.open({ questions: [plan()] })
    await bridge.openApproval({ toolName: 'bash', reason: 'rm -rf build/' })
    const alice = slack.user(ALICE)
    await alice.openHome()
    await homeWhere(slack, ALICE, (text) => text.includes('2 asks wait for you to answer or approve'))

    await alice.click('home', 'Dismiss')

    const settled = await bridge.waitForSettlement(record.id, 10_000)
    expect(settled?.status).toBe('cancelled')
    expect(visibleText(await settledMessage(slack, record.message!.channel, record.message!.ts))).toContain(`Dismissed by <@${ALICE}>`)
  })

  it('points to the channel for shapes Home does not answer (multi-select)', async () => {
    const { slack, bridge } = await startRig(mode)
    await bridge.open({ questions: [{ id: 'langs', question: 'Which languages?', multiSelect: true, options: [{ label: 'TypeScript' }, { label: 'Go' }] }] })

    await slack.user(ALICE).openHome()
    const home = await homeWhere(slack, ALICE, (text) => text.includes('Which languages?'))

    expect(visibleText({ text: '', blocks: home.blocks })).toContain(`Answer in <#${slack.defaultChannel}>`)
    expect(home.blocks.some((block) => block.type === 'actions')).toBe(false)
  })

  it('refreshes an open Home tab when an ask opens and when it settles', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    await slack.user(ALICE).openHome()
    await homeWhere(slack, ALICE, (text) => text.includes('Nothing is waiting'))

    const record = await bridge.open({ questions: [pick('Opened while Home was open?')] })
    await homeWhere(slack, ALICE, (text) => text.includes('Opened while Home was open?'))
    const card = await postedMessage(slack, channel)
    await slack.user(BOB).click(card, 'npm')

    await homeWhere(slack, ALICE, (text) => text.includes('Nothing is waiting'))
    expect((await bridge.get(record.id))?.status).toBe('answered')
  })

  it('takes a stopping library process’s withdrawn asks off the open Home tabs that listed them', async () => {
    const { slack, bridge } = await startRig(mode)
    await bridge.open({ questions: [pick('Asked by a process about to stop?')] })
    await slack.user(ALICE).openHome()
    await homeWhere(slack, ALICE, (text) => text.includes('Asked by a process about to stop?'))

    await bridge.stop()

    const home = await homeWhere(slack, ALICE, (text) => !text.includes('Asked by a process about to stop?'))
    expect(visibleText({ text: '', blocks: home.blocks })).toContain('Nothing is waiting')
  })

  it('does not publish to people who never opened Home', async () => {
    const { slack, bridge } = await startRig(mode)
    await slack.user(ALICE).openHome()
    await homeWhere(slack, ALICE, () => true)

    await bridge.open({ questions: [pick('Only for open tabs?')] })
    await homeWhere(slack, ALICE, (text) => text.includes('Only for open tabs?'))

    expect(slack.user(BOB).home()).toBeUndefined()
  })

  it('keeps an ask for named users off the tab of everyone else', async () => {
    const { slack, bridge } = await startRig(mode, { allowedUsers: [ALICE] })
    const record = await bridge.open({ questions: [pick('Only Alice?')] })
    slack.addUser({ id: CAROL, name: 'carol' })

    await slack.user(CAROL).openHome()
    const home = await homeWhere(slack, CAROL, () => true)

    expect(visibleText({ text: '', blocks: home.blocks })).toContain('Nothing is waiting')
    await eventually(async () => (await bridge.get(record.id))?.status === 'pending')
  })

  it('ignores a click from a stale tab once the person has left the private channel, and tells them privately', async () => {
    const { slack, bridge } = await startRig(mode, { allowedUsers: [ALICE, BOB] })
    const secret = slack.workspace.createChannel({ name: 'secret', isPrivate: true, botIsMember: true, members: [ALICE, BOB] })
    const record = await bridge.open({ questions: [pick('Private: which package manager?')] }, { channel: secret.id })
    const alice = slack.user(ALICE)
    await alice.openHome()
    await homeWhere(slack, ALICE, (text) => text.includes('Private: which package manager?'))

    secret.members.delete(ALICE)
    await alice.click('home', 'pnpm')
    await homeWhere(slack, ALICE, (text) => /not allowed/i.test(text))

    expect((await bridge.get(record.id))?.status).toBe('pending')
  })

  it('keeps a private channel\'s question off the tab of an allowed user who is not in the channel', async () => {
    const { slack, bridge } = await startRig(mode, { allowedUsers: [ALICE, BOB] })
    const secret = slack.workspace.createChannel({ name: 'secret', isPrivate: true, botIsMember: true, members: [ALICE] })
    await bridge.open({ questions: [pick('Private: ship it?')] }, { channel: secret.id })

    await slack.user(ALICE).openHome()
    await slack.user(BOB).openHome()
    await homeWhere(slack, ALICE, (text) => text.includes('Private: ship it?'))
    const bob = await homeWhere(slack, BOB, () => true)

    expect(visibleText({ text: '', blocks: bob.blocks })).toContain('Nothing is waiting')
  })
})
