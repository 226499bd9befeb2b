import { describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { BodyCache } from '../../src/bridge/body-cache.js'
import { renderOpen, renderSettled } from '../../src/bridge/render.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import type { AskView } from '../../blocks/view.js'

function plan(id: string, text: string): AskView {
  return { askId: id, locale: 'en', questions: [planReviewQuestion(text)] }
}

function record(id: string, text: string): AskRecord {
  return { id, kind: 'question', questions: [planReviewQuestion(text)], target: 'C1', status: 'pending', createdAt: 0, owner: { kind: 'service' } }
}

const longPlan = Array.from({ length: 200 }, (_, i) => `## Step ${i}\n\n- change \`module${i}.ts\`\n- run the **suite**`).join('\n\n')
const settings = { locale: 'en' as const }
const outcome = { kind: 'answered' as const, by: { id: 'U1' }, at: 0, answers: [{ id: 'plan-review', selected: ['Approve'] }] }

describe('BodyCache', () => {
  it('renders an ask body once and hands the same body to later renders of the ask', () => {
    const cache = new BodyCache()

    const first = cache.body(plan('A1', longPlan))
    const again = cache.body(plan('A1', longPlan))

    expect(again).toBe(first)
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1, entries: 1 })
  })

  it('renders again when the same ask id comes with other words, so a body never shows another text', () => {
    const cache = new BodyCache()

    const first = cache.body(plan('A1', '# One'))
    const other = cache.body(plan('A1', '# Two'))

    expect(other).not.toBe(first)
    expect(cache.stats.misses).toBe(2)
  })

  it('tells apart questions whose details only split the same text differently', () => {
    const cache = new BodyCache()
    const batch = (a: string, b: string): AskView => ({ askId: 'A1', locale: 'en', questions: [{ ...planReviewQuestion(a), id: 'q1' }, { ...planReviewQuestion(b), id: 'q2' }] })

    cache.body(batch('ab', 'c'))
    cache.body(batch('a', 'bc'))

    expect(cache.stats.misses).toBe(2)
  })

  it('forgets the least recently used bodies past its character budget', () => {
    const cache = new BodyCache(3 * longPlan.length + 1000)

    cache.body(plan('A1', longPlan))
    cache.body(plan('A2', longPlan))
    cache.body(plan('A1', longPlan))
    cache.body(plan('A3', longPlan))
    cache.body(plan('A4', longPlan))

    expect(cache.stats.entries).toBe(3)
    expect(cache.stats.chars).toBeLessThanOrEqual(3 * longPlan.length + 1000)
    cache.body(plan('A1', longPlan))
    expect(cache.stats.hits).toBe(2)
  })

  it('keeps no body larger than its whole budget', () => {
    const cache = new BodyCache(1000)

    cache.body(plan('A1', longPlan))

    expect(cache.stats.entries).toBe(0)
  })

  it('hands out frozen bodies, so a caller that changed a shared block would fail loudly', () => {
    const body = new BodyCache().body(plan('A1', longPlan))

    expect(Object.isFrozen(body.blocks[0]!.block)).toBe(true)
    expect(() => (body.blocks as unknown[]).push({})).toThrow(TypeError)
  })

  it('renders the open card, its quorum progress and its settled card exactly as without it', () => {
    const cache = new BodyCache()
    const ask = record('A1', longPlan)
    const approvals = [{ by: { id: 'U2' }, at: 0 }]

    expect(renderOpen(ask, settings, [], cache)).toEqual(renderOpen(ask, settings))
    expect(renderOpen(ask, settings, approvals, cache)).toEqual(renderOpen(ask, settings, approvals))
    expect(renderSettled(ask, outcome, settings, cache)).toEqual(renderSettled(ask, outcome, settings))
    expect(cache.stats).toMatchObject({ hits: 2, misses: 1 })
  })
})
