import { describe, expect, it } from 'vitest'
import { responseFor, type HostRequest } from '../../src/relay/responses.js'
import type { AskRecord, Settlement } from '../../src/store/ask-record.js'

const question: HostRequest = { kind: 'question', rpcId: 'rpc-1', sessionId: 'session-1' }
const approval: HostRequest = { kind: 'approval', rpcId: 'rpc-2', sessionId: 'session-2', approvalId: 'a-1' }
const by = { id: 'U0PERSON', name: 'ada' }

function settled(settlement: Settlement): AskRecord {
  return { id: 'ask-1', kind: 'question', questions: [], target: 'C0TEST', status: settlement.status, createdAt: 0, owner: { kind: 'service' }, settlement }
}

describe('responseFor', () => {
  it('sends an answer with the session id, labels untouched', () => {
    const answer = { answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] }

    const response = responseFor(settled({ status: 'answered', outcome: { kind: 'answered', by, at: 1, answers: answer.answers }, answer }), question)

    expect(response).toEqual({ type: 'client-response', rpcId: 'rpc-1', result: { ok: true, value: { sessionId: 'session-1', answer } } })
  })

  it('sends a dismissal as the cancelled error with empty details', () => {
    const response = responseFor(settled({ status: 'cancelled', outcome: { kind: 'dismissed', by, at: 1 } }), question)

    expect(response).toEqual({ type: 'client-response', rpcId: 'rpc-1', result: { ok: false, error: { code: 'cancelled', message: 'dismissed in Slack by ada', details: {} } } })
  })

  it('sends an approval decision with the approval id', () => {
    const response = responseFor(settled({ status: 'answered', outcome: { kind: 'decided', by, at: 1, decision: 'allowed-once' }, decision: 'allowed-once' }), approval)

    expect(response).toEqual({ type: 'client-response', rpcId: 'rpc-2', result: { ok: true, value: { sessionId: 'session-2', approvalId: 'a-1', outcome: 'allowed-once' } } })
  })

  it('cancels an expired question and rejects an expired approval', () => {
    const expired = settled({ status: 'expired', outcome: { kind: 'expired', at: 1 } })

    expect(responseFor(expired, question)?.result).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    expect(responseFor(expired, approval)?.result).toMatchObject({ ok: true, value: { outcome: 'rejected' } })
  })

  it.each([
    ['aborted', { status: 'aborted', outcome: { kind: 'aborted', at: 1 } }],
    ['stopped', { status: 'aborted', outcome: { kind: 'stopped', at: 1 } }],
    ['settled elsewhere', { status: 'answered', outcome: { kind: 'settled-elsewhere', at: 1, how: 'answered' } }],
    ['failed', { status: 'failed', outcome: { kind: 'failed', at: 1, reason: 'refused' } }],
  ] as [string, Settlement][])('tells the host nothing for an ask %s: it did not come from the person', (_name, settlement) => {
    expect(responseFor(settled(settlement), question)).toBeNull()
  })
})
