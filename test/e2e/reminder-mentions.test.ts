import { describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import type { Sandbox } from '../../src/sandbox/index.js'
import { startRig } from '../support/e2e.js'
import { postedMessage } from '../support/messages.js'

const BOB = 'U0SANDBOX02'
const MINUTE = 60_000

/**
 * Who a reminder mentions (docs/policy.md, "Who a reminder mentions"): the
 * ask's approvers when it has some, since only they can settle it; else the
 * `mention` people, who were told of the question when it was posted.
 */
describe('who a reminder mentions', () => {
  it('mentions the approvers of a plan review, and `mention` for a plain question', async () => {
    let now = Date.now()
    const { slack, bridge, channel } = await startRig('socket', { now: () => now, schedulerIntervalMs: 20, mention: 'S0REVIEWERS', approvers: [BOB], remindAfter: '15m' })
    await bridge.open({ questions: [planReviewQuestion('# Plan\n\nDrop the table.')] })
    const plan = await postedMessage(slack, channel)
    await bridge.open({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] })
    const question = await slack.waitFor(() => slack.messages(channel).find((m) => m.ts !== plan.ts && m.thread_ts === undefined))

    now += 16 * MINUTE
    const reminderOf = (card: { ts: string }) => slack.waitFor(() => replyIn(slack, channel, card.ts))
    const [planReminder, questionReminder] = await Promise.all([reminderOf(plan), reminderOf(question)])

    expect(planReminder.text).toContain(`<@${BOB}>`)
    expect(planReminder.text).not.toContain('S0REVIEWERS')
    expect(questionReminder.text).toContain('<!subteam^S0REVIEWERS>')
    expect(questionReminder.text).not.toContain(BOB)
  })
})

function replyIn(slack: Sandbox, channel: string, ts: string) {
  return slack.messages(channel).find((m) => m.thread_ts === ts && m.ts !== ts)
}
