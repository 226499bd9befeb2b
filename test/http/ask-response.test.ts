import { describe, expect, it } from 'vitest'
import { askCreatedResponse, askStateResponse } from '../../src/http/ask-response.js'
import type { AskRecord } from '../../src/store/ask-record.js'

const base: AskRecord = {
  id: 'a1',
  kind: 'question',
  questions: [],
  target: 'C0TARGET',
  status: 'pending',
  createdAt: 0,
  owner: { kind: 'service' },
  message: { channel: 'C0POSTED', ts: '1.5' },
}

describe('askStateResponse', () => {
  it('shows a pending ask as its id and status only', () => {
    expect(askStateResponse(base)).toEqual({ id: 'a1', status: 'pending' })
  })

  it('shows an approval decided in Slack with who decided it and no answer', () => {
    const record: AskRecord = {
      ...base,
      kind: 'approval',
      status: 'answered',
      settlement: { status: 'answered', outcome: { kind: 'decided', by: { id: 'U0CAROL' }, at: 1, decision: 'rejected' }, decision: 'rejected' },
    }

    expect(askStateResponse(record)).toEqual({ id: 'a1', status: 'answered', answeredBy: { id: 'U0CAROL' } })
  })

  it('shows an expired ask with the seam’s code and no one who answered', () => {
    const record: AskRecord = {
      ...base,
      status: 'expired',
      settlement: { status: 'expired', outcome: { kind: 'expired', at: 1 }, error: { code: 'ASK_EXPIRED', message: 'nobody answered within 10m' } },
    }

    expect(askStateResponse(record)).toEqual({ id: 'a1', status: 'expired', error: { code: 'ASK_EXPIRED', message: 'nobody answered within 10m' } })
  })
})

describe('askCreatedResponse', () => {
  it('names the channel the message went to (a DM’s channel for a user target) and leaves out a missing permalink', () => {
    expect(askCreatedResponse(base)).toEqual({ id: 'a1', status: 'pending', channel: 'C0POSTED', ts: '1.5' })
  })
})
