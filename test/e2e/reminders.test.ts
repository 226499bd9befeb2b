import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { eventually, MODES, startRig } from '../support/e2e.js'
import { interactiveElements, postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const MINUTE = 60_000
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** A clock the test moves by hand: reminders fall due when it says so, never by waiting. */
function fakeClock(start = Date.now()) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-reminders-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.each(MODES)('reminders and escalation in %s mode', (mode) => {
  it('reminds once in the thread, mentioning DSH_SLACK_MENTION with a link, after remindAfter without an answer', async () => {
    const clock = fakeClock()
    const { slack, bridge, channel } = await startRig(mode, { now: clock.now, schedulerIntervalMs: 20, mention: 'S0REVIEWERS', remindAfter: '15m' })
    const record = await bridge.open({ questions: [pm] })
    const card = await postedMessage(slack, channel)

    clock.advance(16 * MINUTE)
    const reminder = await slack.waitFor(() => slack.messages(channel).find((m) => m.thread_ts === card.ts && m.ts !== card.ts))

    const reminded = await eventually(async () => (await bridge.store.events(record.id)).find((e) => e.type === 'reminded'))

    expect(reminder.text).toContain('<!subteam^S0REVIEWERS>')
    expect(visibleText(reminder)).toMatch(/waited 16 min/)
    expect(JSON.stringify(reminder.blocks)).toContain((await bridge.get(record.id))!.message!.permalink!)
    expect(reminded.detail).toMatchObject({ channel, ts: reminder.ts })
    expect(await bridge.store.listScheduled()).toEqual([])
  })

  it('escalates to a user with a DM carrying the same controls; a click there settles the ask and updates both messages', async () => {
    const clock = fakeClock()
    // The operator names Bob and waits two hours; the request may only bring that forward.
    const { slack, bridge, channel } = await startRig(mode, { now: clock.now, schedulerIntervalMs: 20, escalateTo: BOB, escalateAfter: '2h' })
    const answer = bridge.provider.ask({ questions: [planReviewQuestion('# Plan\n\nShip it.')] }, { policy: { escalateTo: BOB, escalateAfter: '1h' } })
    const card = await postedMessage(slack, channel)

    clock.advance(61 * MINUTE)
    const dm = await slack.waitFor(() => [...slack.workspace.channels.values()].find((c) => c.isIm && c.imUser === BOB && slack.messages(c.id).some((m) => interactiveElements(m).length > 0)))
    const copy = slack.messages(dm.id).find((m) => interactiveElements(m).length > 0)!
    const intro = slack.messages(dm.id).find((m) => m.ts !== copy.ts)!

    expect(intro.text).toContain(`<@${BOB}>`)
    expect(intro.text).toMatch(/waited 1 h/)
    await slack.user(BOB).click(copy, 'Approve')

    expect(await answer).toEqual({ answers: [{ id: 'plan-review', selected: ['Approve'] }] })
    expect(visibleText(await settledMessage(slack, channel, card.ts))).toContain(`<@${BOB}>`)
    await settledMessage(slack, dm.id, copy.ts)
  })

  it('mentions a user group in the thread when the escalation goes to a group', async () => {
    const clock = fakeClock()
    const { slack, bridge, channel } = await startRig(mode, { now: clock.now, schedulerIntervalMs: 20, escalateTo: 'S0ONCALL', escalateAfter: '30m' })
    await bridge.open({ questions: [pm] })
    const card = await postedMessage(slack, channel)

    clock.advance(31 * MINUTE)
    const escalation = await slack.waitFor(() => slack.messages(channel).find((m) => m.thread_ts === card.ts && m.ts !== card.ts))

    expect(escalation.text).toContain('<!subteam^S0ONCALL>')
  })

  it('cancels what is still scheduled when the question is answered', async () => {
    const clock = fakeClock()
    const { slack, bridge, channel } = await startRig(mode, { now: clock.now, schedulerIntervalMs: 20, remindAfter: '15m', escalateTo: BOB, escalateAfter: '1h' })
    const record = await bridge.open({ questions: [pm] })
    const card = await postedMessage(slack, channel)
    expect((await bridge.store.listScheduled()).map((job) => job.kind).sort()).toEqual(['escalate', 'remind'])

    await slack.user(ALICE).click(card, 'npm')
    await bridge.waitForSettlement(record.id, 10_000)
    clock.advance(2 * 60 * MINUTE)

    expect(await bridge.store.listScheduled()).toEqual([])
    expect(await bridge.store.claimDueJobs(clock.now())).toEqual([])
    expect((await bridge.store.events(record.id)).map((e) => e.type)).toEqual(['posted', 'answered'])
  })
})

describe('reminders across a restart', () => {
  it('sends a reminder scheduled before a restart once, with two instances sharing the state file', async () => {
    const clock = fakeClock()
    const state = join(dir, `restart-${Date.now()}.sqlite`)
    const { slack, bridge, channel, restartBridge } = await startRig('socket', { now: clock.now, schedulerIntervalMs: 20, state, owner: 'service' })
    const record = await bridge.open({ questions: [pm] }, { policy: { remindAfter: '15m' } })
    const card = await postedMessage(slack, channel)

    await bridge.stop()
    const first = await restartBridge()
    const second = await restartBridge()
    clock.advance(20 * MINUTE)
    await slack.waitFor(() => slack.messages(channel).find((m) => m.thread_ts === card.ts && m.ts !== card.ts))
    await eventually(async () => (await second.store.events(record.id)).find((e) => e.type === 'reminded'))

    expect(await first.store.listScheduled()).toEqual([])
    expect((await second.store.events(record.id)).filter((e) => e.type === 'reminded')).toHaveLength(1)
    expect(slack.messages(channel).filter((m) => m.thread_ts === card.ts && m.ts !== card.ts)).toHaveLength(1)
  })
})
