import { describe, expect, it } from 'vitest'
import { HOME_ASKS_AT_MOST, homeView, type HomeAskView } from '../../blocks/index.js'
import { ask, NOW, question } from './fixtures.js'

/** The smallest ask on a tab: a multi-select, which points to its message (title, about line, divider: three blocks). */
function smallest(i: number): HomeAskView {
  return { kind: 'question', view: ask({ askId: `a${String(i).padStart(4, '0')}`, questions: [question({ question: `Many ${i}?`, multiSelect: true })] }), createdAt: NOW - i * 60_000, channel: 'C0AGENTS' }
}

describe('a Home tab given only the newest asks and a count of the older ones', () => {
  it('is the same tab as one given every ask, even when every ask is as small as one can be', () => {
    const every = Array.from({ length: HOME_ASKS_AT_MOST + 40 }, (_, i) => smallest(i))

    const drawnOnly = homeView({ locale: 'en', now: NOW, asks: every.slice(0, HOME_ASKS_AT_MOST), older: 40 })

    expect(drawnOnly).toEqual(homeView({ locale: 'en', now: NOW, asks: every }))
  })

  it('counts the older asks in its intro and its last line', () => {
    const tab = JSON.stringify(homeView({ locale: 'en', now: NOW, asks: [smallest(0)], older: 1_000 }).blocks)

    expect(tab).toContain('1001 asks wait')
    expect(tab).toContain('and 1000 older ones')
  })
})
