import { describe, expect, it } from 'vitest'
import type { AskRecord } from '../../src/store/ask-record.js'
import { SettleWatchers } from '../../src/store/settle-watchers.js'
import { answered, pendingRecord } from './ask-store-conformance.js'

function settledRecord(id: string): AskRecord {
  return pendingRecord({ id, status: 'answered', settlement: answered() })
}

describe('settle watchers', () => {
  it('give each waiter of the ask a copy, once, that the settling store’s own record does not share', () => {
    const watchers = new SettleWatchers()
    const record = settledRecord('a1')
    const seen: AskRecord[] = []
    watchers.add('a1', (copy) => seen.push(copy))
    watchers.add('a1', (copy) => seen.push(copy))
    watchers.add('other', () => seen.push(settledRecord('wrong')))

    watchers.notifyCopy(record)
    watchers.notifyCopy(record)

    expect(seen).toHaveLength(2)
    expect(seen[0]).toEqual(record)
    seen[0]!.questions[0]!.question = 'changed by a waiter'
    expect(record.questions[0]!.question).toBe('Which package manager?')
    expect(watchers.ids()).toEqual(['other'])
  })

  it('copy nothing when nobody waits for the ask', () => {
    const watchers = new SettleWatchers()
    watchers.add('other', () => {})
    let reads = 0
    const record = settledRecord('a1')
    // structuredClone reads every property: a read of this one means a copy was made.
    Object.defineProperty(record, 'target', { enumerable: true, get: () => (reads++, 'C0123ABCDEF') })

    watchers.notifyCopy(record)

    expect(reads).toBe(0)
  })
})
