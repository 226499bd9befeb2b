import { describe, expect, it } from 'vitest'
import { shownOutcome } from '../../src/bridge/shown-outcome.js'
import type { AskRecord } from '../../src/store/ask-record.js'

const ask: AskRecord = { id: 'a', kind: 'question', questions: [], target: 'C0AGENTS', status: 'answered', createdAt: 0, owner: { kind: 'service' } }
const alice = { id: 'U1', name: 'alice' }
const answered = { kind: 'answered' as const, by: alice, at: 1, answers: [] }

describe('shownOutcome', () => {
  it("says a relayed request's answer, approval or dismissal is being delivered", () => {
    const relayed = { ...ask, relayDelivery: { key: 'http://host#rpc-1' } }

    const shown = [answered, { kind: 'dismissed' as const, by: alice, at: 1 }, { kind: 'decided' as const, by: alice, at: 1, decision: 'allowed-once' as const }].map((outcome) => shownOutcome(relayed, outcome))

    expect(shown.map((outcome) => 'delivering' in outcome && outcome.delivering)).toEqual([true, true, true])
  })

  it('shows an idempotent ask settled by a person as it is: nothing is left to deliver', () => {
    expect(shownOutcome({ ...ask, idempotencyKey: 'http-idempotency:k' }, answered)).toEqual(answered)
  })

  it('shows a relayed request that expired as it is: no person answered', () => {
    const expired = { kind: 'expired' as const, at: 1 }

    expect(shownOutcome({ ...ask, relayDelivery: { key: 'http://host#rpc-1' } }, expired)).toEqual(expired)
  })
})
