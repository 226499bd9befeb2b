import { describe, expect, it } from 'vitest'
import { postedLine, settledLine } from '../../src/service/ask-event-line.js'
import type { AskRecord, Settlement } from '../../src/store/ask-record.js'

const record: AskRecord = {
  id: 'a1',
  kind: 'question',
  questions: [],
  target: 'U0TARGET',
  status: 'pending',
  createdAt: 0,
  owner: { kind: 'service' },
}

const settled = (settlement: Settlement): AskRecord => ({ ...record, status: settlement.status, settlement })

describe('ask event lines', () => {
  it('names the target when the message is not posted yet', () => {
    expect(postedLine(record)).toBe('ask a1 posted in U0TARGET (0 questions)')
  })

  it.each<[string, Settlement, string]>([
    ['a dismissal', { status: 'cancelled', outcome: { kind: 'dismissed', by: { id: 'U0B' }, at: 0 } }, 'ask a1 cancelled: dismissed by (U0B)'],
    ['a withdrawal', { status: 'aborted', outcome: { kind: 'aborted', at: 0 } }, 'ask a1 withdrawn by the agent'],
    ['an expiry', { status: 'expired', outcome: { kind: 'expired', at: 0 } }, 'ask a1 expired'],
    ['a stop', { status: 'aborted', outcome: { kind: 'stopped', at: 0 } }, 'ask a1 withdrawn: the service stopped'],
    ['an approval', { status: 'answered', outcome: { kind: 'decided', by: { id: 'U0C', name: 'carol' }, at: 0, decision: 'allowed-once' } }, 'ask a1 allowed by carol (U0C)'],
    ['a relay failure', { status: 'failed', outcome: { kind: 'failed', at: 0, reason: 'the host refused the answer' } }, 'ask a1 failed: the host refused the answer'],
    ['an answer elsewhere', { status: 'answered', outcome: { kind: 'settled-elsewhere', at: 0, how: 'answered' } }, 'ask a1 closed: answered outside Slack'],
  ])('describes %s in one line', (_, settlement, line) => {
    expect(settledLine(settled(settlement))).toBe(line)
  })
})
