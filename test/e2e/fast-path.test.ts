import { describe, expect, it } from 'vitest'
import { wordsFor } from '../../blocks/i18n.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { postScheduleMs } from '../../src/slack/rate-rules.js'
import { MODES, startRig, type Rig } from '../support/e2e.js'
import { settledMessage } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** A plan long enough for several thread parts: numbered steps with prose, lists and code. */
function longPlan(steps: number): string {
  const parts = ['# Plan']
  for (let i = 0; i < steps; i++) {
    parts.push(`## Step ${i}\n\nChange \`module${i}.ts\` so that **every** caller uses the new API; keep the old one until step ${i + 3}. ${'Explain why. '.repeat(20)}`)
    parts.push(`- update the callers\n  - in \`src/\`\n  - in \`test/\`\n- run the suite`)
  }
  return parts.join('\n\n')
}

/** Allowance for a busy machine on top of what pacing imposes; never a measure of speed. */
const GRACE_MS = 10_000

/** The replies in a message's thread (Slack marks the parent with its own thread_ts too). */
function replies(slack: Rig['slack'], channel: string, ts: string) {
  return slack.messages(channel).filter((m) => m.thread_ts === ts && m.ts !== ts)
}

describe('the fast path on the local stand-in', () => {
  it('posts a burst of asks to one channel in order, riding out a 429 in the middle with no error reaching a caller', async () => {
    const { slack, bridge, channel } = await startRig('socket')
    const count = 7

    const opening = Array.from({ length: count }, (_, i) => bridge.open({ questions: [{ ...pm, id: `q${i}`, question: `Question number ${i}?` }] }))
    await slack.waitFor(() => slack.messages(channel).length >= 3 || undefined, { timeoutMs: postScheduleMs(3) + GRACE_MS })
    slack.faults.inject('chat.postMessage', { status: 429, retryAfter: 1 })
    const records = await Promise.all(opening)

    const posted = slack.messages(channel)
    expect(posted.map((m) => m.text)).toEqual(records.map((_, i) => expect.stringContaining(`Question number ${i}?`)))
    expect(records.map((r) => r.message!.ts)).toEqual(posted.map((m) => m.ts))
    expect(slack.callCount('chat.postMessage')).toBe(count + 1)
  }, postScheduleMs(8) + 1000 + GRACE_MS)

  it('returns once the plan card is up and settles an answer given while the thread parts are still going out', async () => {
    const { slack, bridge, channel } = await startRig('socket')

    const record = await bridge.open({ questions: [planReviewQuestion(longPlan(130))] })
    const threadNow = replies(slack, channel, record.message!.ts).length
    const card = slack.messages(channel).find((m) => m.ts === record.message!.ts)!
    await slack.user(ALICE).click(card, 'Approve')
    const settled = await bridge.waitForSettlement(record.id, GRACE_MS)
    const threadAtAnswer = replies(slack, channel, record.message!.ts).length
    await settledMessage(slack, channel, record.message!.ts)
    const parts = Array.from({ length: 30 }, (_, n) => n).find((n) => JSON.stringify(card.blocks).includes(wordsFor('en').continuedInThread(n))) ?? Number.NaN
    const thread = await slack.waitFor(() => {
      const posted = replies(slack, channel, record.message!.ts)
      return posted.length === parts ? posted : undefined
    }, { timeoutMs: postScheduleMs(parts + 1) + GRACE_MS })

    expect(settled).toMatchObject({ status: 'answered', settlement: { answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] } } })
    expect(parts).toBeGreaterThan(4)
    expect(threadNow).toBeLessThan(parts)
    expect(threadAtAnswer).toBeLessThan(parts)
    expect(thread.map((m) => m.text)).toEqual(thread.map((_, i) => expect.stringContaining(wordsFor('en').part(i + 1, parts))))
  }, 60_000)

  it.each(MODES)('builds each permalink from the workspace URL, with no chat.getPermalink per ask (%s mode)', async (mode) => {
    const { slack, bridge, channel } = await startRig(mode)

    const records = [await bridge.open({ questions: [pm] }), await bridge.open({ questions: [pm] })]

    expect(slack.callCount('chat.getPermalink')).toBe(0)
    expect(slack.callCount('auth.test')).toBeGreaterThanOrEqual(1)
    for (const record of records) expect(record.message!.permalink).toBe(`${slack.webUrl}archives/${channel}/p${record.message!.ts.replace('.', '')}`)
  })
})
