import { describe, expect, it } from 'vitest'
import { checkMessagePayload } from '../../blocks/check.js'
import { LIMIT, questionMessage, settledMessage } from '../../blocks/index.js'
import type { Outcome } from '../../blocks/view.js'
import { ask, elementsOfType, mrkdwnTexts, NOW, planReview, question, richText } from './fixtures.js'

const WHEN = '<!date^1782907200^{date_short_pretty} at {time}|2026-07-01 12:00 UTC>'
const by = { id: 'U0ALICE', name: 'alice' }

function status(view: ReturnType<typeof ask>, outcome: Outcome): string {
  const message = settledMessage(view, outcome)
  expect(checkMessagePayload(message)).toEqual([])
  expect(elementsOfType(message, 'actions')).toEqual([])
  return mrkdwnTexts(message).at(-1)!
}

describe('settledMessage', () => {
  it('shows who answered and when instead of the expiry', () => {
    const view = ask({ expiresAt: Date.UTC(2026, 6, 2, 0, 0), agent: { id: 'sess-1', title: 'Refactor' } })

    const message = settledMessage(view, { kind: 'answered', by, at: NOW, answers: [{ id: 'q1', selected: ['Option 1'] }] })

    expect(message.blocks[0]).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: '*Agent*' }, { type: 'plain_text', text: 'Refactor', emoji: false }, { type: 'mrkdwn', text: '· session `sess-1`' }] })
    expect(JSON.stringify(message)).not.toContain('expires')
    expect(mrkdwnTexts(message).at(-1)).toBe(`Answered by <@U0ALICE> · ${WHEN}`)
  })

  it('replaces the controls with who answered which label, and when', () => {
    const message = settledMessage(ask(), { kind: 'answered', by, at: NOW, answers: [{ id: 'q1', selected: ['Option 1'] }] })

    expect(elementsOfType(message, 'button')).toEqual([])
    expect(mrkdwnTexts(message).at(-1)).toBe(`Answered by <@U0ALICE> · ${WHEN}`)
    expect(richText(message.blocks.at(-1))).toBe('Option 1')
    expect(richText(message)).toContain('Which package manager?')
  })

  it('quotes a custom answer literally', () => {
    const message = settledMessage(ask(), { kind: 'answered', by, at: NOW, answers: [{ id: 'q1', selected: [], custom: '<!channel> yarn' }] })

    expect(richText(message.blocks.at(-1))).toBe('“<!channel> yarn”')
    expect(mrkdwnTexts(message).join('')).not.toContain('<!channel>')
  })

  it('says approved for exactly the approve label, and shows requested changes with the feedback', () => {
    const plan = planReview('# P')

    expect(status(plan, { kind: 'answered', by, at: NOW, answers: [{ id: 'plan-review', selected: ['Approve'] }] })).toBe(`:white_check_mark: Approved by <@U0ALICE> · ${WHEN}`)
    const changes = settledMessage(plan, { kind: 'answered', by, at: NOW, answers: [{ id: 'plan-review', selected: [], custom: 'Add tests' }] })
    expect(mrkdwnTexts(changes).at(-1)).toBe(`:pencil2: Changes requested by <@U0ALICE> · ${WHEN}`)
    expect(richText(changes.blocks.at(-1))).toBe('“Add tests”')
    expect(status(plan, { kind: 'answered', by, at: NOW, answers: [{ id: 'plan-review', selected: ['Keep planning'] }] })).toBe(`Answered by <@U0ALICE> · ${WHEN}`)
  })

  it('states every way a question can close without an answer', () => {
    expect(status(ask(), { kind: 'dismissed', by, at: NOW })).toBe(`Dismissed by <@U0ALICE> · ${WHEN}`)
    expect(status(ask(), { kind: 'aborted', at: NOW })).toBe(`The agent withdrew this question · ${WHEN}`)
    expect(status(ask(), { kind: 'expired', at: NOW })).toBe(`This question expired unanswered · ${WHEN}`)
    expect(status(ask(), { kind: 'stopped', at: NOW })).toBe(`Closed: the service stopped before an answer · ${WHEN}`)
    expect(status(ask(), { kind: 'settled-elsewhere', how: 'answered', at: NOW })).toBe(`Answered outside Slack · ${WHEN}`)
    expect(status(ask(), { kind: 'settled-elsewhere', how: 'cancelled', at: NOW })).toBe(`Cancelled outside Slack · ${WHEN}`)
    expect(status(ask(), { kind: 'settled-elsewhere', how: 'gone', at: NOW })).toBe(`No longer open on the host · ${WHEN}`)
    expect(status(ask(), { kind: 'failed', reason: 'host said <no>', at: NOW })).toBe(`:warning: Something went wrong; this was not answered · ${WHEN} — host said &lt;no&gt;`)
  })

  it('says whose answer was not delivered when the host no longer held the question, and never that it was answered', () => {
    const line = status(ask(), { kind: 'settled-elsewhere', how: 'undelivered', by, at: NOW })

    expect(line).toBe(`:warning: No longer open on the host; <@U0ALICE>'s answer was not delivered · ${WHEN}`)
    expect(line).not.toMatch(/Answered/)
  })

  it('speaks Chinese when the locale is zh-CN, keeping the agent text as written', () => {
    const message = settledMessage(ask({ locale: 'zh-CN' }), { kind: 'dismissed', by, at: NOW })

    expect(mrkdwnTexts(message).at(-1)).toBe(`<@U0ALICE> 已忽略 · <!date^1782907200^{date_short_pretty} {time}|2026-07-01 12:00 UTC>`)
    expect(richText(message)).toContain('Which package manager?')
  })

  it('lists a batch answer per question, skipped ones marked, within the status budget', () => {
    const view = ask({ questions: Array.from({ length: 300 }, (_, i) => question({ id: `q${i}`, question: `Q${i}` })) })
    const answers = view.questions.map((q, i) => (i % 2 === 0 ? { id: q.id, selected: ['Option 0'] } : { id: q.id, selected: [] }))

    const message = settledMessage(view, { kind: 'answered', by, at: NOW, answers })

    const list = richText(message.blocks.at(-1))
    expect(list).toContain('Q0: Option 0')
    expect(list).toContain('Q1: skipped')
    expect(list).toMatch(/…and \d+ more$/)
    expect(richText(message.blocks.at(-1)).length).toBeLessThanOrEqual(LIMIT.statusText)
    expect(checkMessagePayload(message)).toEqual([])
  })

  it('keeps the same body excerpt as the open card, so the thread note still matches', () => {
    const plan = planReview(`# Big\n\n${Array.from({ length: 200 }, (_, i) => `Paragraph ${i} ${'lorem '.repeat(40)}`).join('\n\n')}`)
    const open = questionMessage(plan).message
    const settled = settledMessage(plan, { kind: 'expired', at: NOW })

    expect(settled.blocks.slice(0, -1)).toEqual(open.blocks.slice(0, open.blocks.length - 2))
  })

  it('drops the form’s how-to from a settled batch (the form is gone) and still splits as the open card did', () => {
    const view = ask({ questions: Array.from({ length: 12 }, (_, i) => question({ id: `q${i}`, question: `Q${i}`, detail: `Detail ${i} ${'lorem '.repeat(300)}` })) })
    const open = questionMessage(view)
    const settled = settledMessage(view, { kind: 'expired', at: NOW })

    expect(open.thread.length).toBeGreaterThan(0)
    expect(mrkdwnTexts(open.message)[1]).toContain('Tap Answer…')
    expect(mrkdwnTexts(settled)[1]).toBe('*12 questions.*')
    expect(JSON.stringify(settled)).not.toContain('Tap Answer')
    const bodyOf = (blocks: unknown[]) => blocks.slice(2, -1)
    expect(bodyOf(settled.blocks)).toEqual(bodyOf(open.message.blocks))
  })

  it('splits a settled batch as the open card at every size of the piece on the edge (the shorter intro frees no room)', () => {
    // Four full pieces, then one that grows word by word past the card's last room.
    const words = Array.from({ length: 200 }, (_, i) => 10 + i)
    const differing = words.filter((count) => {
      const view = ask({ questions: Array.from({ length: 6 }, (_, i) => question({ id: `q${i}`, question: `Q${i}`, detail: 'lorem '.repeat(i === 4 ? count : 300) })) })
      const open = questionMessage(view).message.blocks
      const settled = settledMessage(view, { kind: 'expired', at: NOW }).blocks
      return JSON.stringify(settled.slice(2, -1)) !== JSON.stringify(open.slice(2, -1))
    })

    expect(differing).toEqual([])
  })
})
