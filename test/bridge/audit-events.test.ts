import { describe, expect, it } from 'vitest'

import { settlementEvent } from '../../src/bridge/audit-events.js'
import type { Settlement } from '../../src/store/ask-record.js'

const answered = (quoted?: Settlement['quoted']): Settlement => ({
  status: 'answered',
  outcome: { kind: 'answered', by: { id: 'U0ALICE', name: 'alice' }, at: 1, answers: [{ id: 'plan', selected: [], custom: 'changes' }] },
  answer: { answers: [{ id: 'plan', selected: [], custom: 'changes' }] },
  ...(quoted ? { quoted } : {}),
})

describe('the answered event of a plan review’s Request changes (decision 0091)', () => {
  it('says whose words went to the agent, the answerer first and once, and whose comments were left out', () => {
    const event = settlementEvent('a1', answered({ from: ['U0BOB', 'U0ALICE'], leftOut: [{ userId: 'U0OUT', comments: 2 }] }))

    expect(event.detail).toMatchObject({ wordsFrom: ['U0ALICE', 'U0BOB'], leftOut: [{ userId: 'U0OUT', comments: 2 }] })
  })

  it('adds nothing to an answer that quoted no one’s words (no canvas was read)', () => {
    expect(Object.keys(settlementEvent('a1', answered()).detail ?? {})).toEqual(['status', 'answer'])
  })
})
