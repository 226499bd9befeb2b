import { describe, expect, it } from 'vitest'
import { OpenAsksHere } from '../../src/bridge/open-asks-here.js'
import type { AskRecord } from '../../src/store/ask-record.js'

function ask(id: string, changes: Partial<AskRecord> = {}): AskRecord {
  return { id, kind: 'question', questions: [], target: 'C1', status: 'pending', createdAt: 0, owner: { kind: 'service' }, message: { channel: 'C1', ts: '1.1' }, ...changes }
}

describe('OpenAsksHere', () => {
  it('keeps an open ask whose message is recorded, and nothing else', () => {
    const kept = new OpenAsksHere()
    kept.keep(ask('open'))
    kept.keep(ask('unposted', { message: undefined }))
    kept.keep(ask('answered', { status: 'answered' }))

    expect(kept.get('open')?.id).toBe('open')
    expect(kept.get('unposted')).toBeUndefined()
    expect(kept.get('answered')).toBeUndefined()
  })

  it('remembers the asks it settled, as settled, and a pending one never: a settlement is final', () => {
    const kept = new OpenAsksHere(2)
    kept.settled(ask('pending'))
    expect(kept.settledHere('pending')).toBeUndefined()
    for (const id of ['first', 'second', 'third']) kept.settled(ask(id, { status: 'answered' }))

    expect(kept.settledHere('first')).toBeUndefined()
    expect([kept.settledHere('second')?.status, kept.settledHere('third')?.status]).toEqual(['answered', 'answered'])
    expect(kept.get('third')).toBeUndefined()
  })

  it('never keeps an ask forgotten before its post finished (a fast click settled it)', () => {
    const kept = new OpenAsksHere()
    kept.forget('fast')
    kept.keep(ask('fast'))

    expect(kept.get('fast')).toBeUndefined()
  })

  it('forgets a kept ask when this process changes it', () => {
    const kept = new OpenAsksHere()
    kept.keep(ask('a'))
    kept.forget('a')
    kept.keep(ask('a'))

    expect(kept.get('a')).toBeUndefined()
    expect(kept.size).toBe(0)
  })

  it('keeps the newest asks up to its bound', () => {
    const kept = new OpenAsksHere(3)
    for (const id of ['a', 'b', 'c', 'd']) kept.keep(ask(id))

    expect(kept.size).toBe(3)
    expect(kept.get('a')).toBeUndefined()
    expect(kept.get('d')?.id).toBe('d')
  })

  it('keeps no more text than its budget, dropping the oldest, and never a plan over a tenth of it', () => {
    const kept = new OpenAsksHere(100, 1_000)
    const plan = (id: string, detail: number) => ask(id, { questions: [{ id: 'plan', question: 'Approve?', detail: 'x'.repeat(detail), options: [{ label: 'Approve' }], multiSelect: false }] })
    kept.keep(plan('long', 101))
    for (const id of ['a', 'b', 'c']) kept.keep(plan(id, 80))
    kept.keep(plan('d', 80))

    expect(kept.get('long')).toBeUndefined()
    expect(kept.get('a')?.id).toBe('a')
    expect(kept.size).toBe(4)
    for (const id of ['e', 'f', 'g', 'h', 'i', 'j', 'k']) kept.keep(plan(id, 80))

    // Eleven asks of about 95 characters each: the oldest go until the rest fit in 1,000.
    expect(kept.get('a')).toBeUndefined()
    expect(kept.get('k')?.id).toBe('k')
    expect(kept.size).toBe(10)
  })
})
