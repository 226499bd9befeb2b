import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { AskRecord } from '../../src/store/ask-record.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { FIXTURE_APPROVALS, FIXTURE_CLAIM, FIXTURE_INSERTED, FIXTURE_JOBS, FIXTURE_LEASE, FIXTURE_MESSAGES, FIXTURE_NOW, FIXTURE_SETTLEMENTS, STATE_FIXTURE } from '../support/state-fixture.js'
import { answered, pendingRecord } from './ask-store-conformance.js'

// A state file written by dsh-slack 0.1.0 (better-sqlite3) must open with
// whatever driver the store uses now and keep every ask, event and team row.
const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-fixture-'))
let copies = 0
const open: SqliteAskStore[] = []

/** A copy of the committed file (opening writes to it), opened at the time it was written so nothing is pruned. */
function openCopy(): SqliteAskStore {
  const path = join(dir, `state-${++copies}.sqlite`)
  copyFileSync(STATE_FIXTURE, path)
  const store = new SqliteAskStore(path, { now: () => FIXTURE_NOW })
  open.push(store)
  return store
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const pending: AskRecord = { ...FIXTURE_INSERTED.pending, message: FIXTURE_MESSAGES.pending }
const approval: AskRecord = {
  ...FIXTURE_INSERTED.approval,
  approval: { ...FIXTURE_INSERTED.approval.approval, arguments: '{"command":"rm -rf build"}' },
  message: FIXTURE_MESSAGES.approval,
}

describe('a state file written by dsh-slack 0.1.0', () => {
  it('opens and keeps its pending, answered and expired asks as they were', async () => {
    const store = openCopy()

    expect(await store.get('ask-pending')).toEqual(pending)
    expect(await store.get('ask-approval')).toEqual(approval)
    expect(await store.get('ask-answered')).toEqual({ ...FIXTURE_INSERTED.answered, message: FIXTURE_MESSAGES.answered, status: 'answered', settlement: FIXTURE_SETTLEMENTS.answered, finalMessageShown: true })
    expect(await store.get('ask-expired')).toEqual({ ...FIXTURE_INSERTED.expired, status: 'expired', settlement: FIXTURE_SETTLEMENTS.expired, finalMessageShown: false })
    expect(await store.listPending()).toEqual([pending, approval])
    expect(await store.findByExternalKey('http://127.0.0.1:4100#rpc-7')).toEqual(pending)
    expect(await store.countPending('ci')).toEqual({ total: 2, forKey: 1 })
  })

  it('keeps the audit trail in order with its sequence numbers', async () => {
    const store = openCopy()

    const events = await store.listEvents({ limit: 100 })

    expect(events.map(({ seq, askId, type }) => [seq, askId, type])).toEqual([
      [1, 'ask-pending', 'posted'],
      [2, 'ask-answered', 'posted'],
      [3, 'ask-approval', 'posted'],
      [4, 'ask-answered', 'answered'],
      [5, 'ask-expired', 'expired'],
      [6, 'ask-approval', 'approved'],
    ])
    expect(events[3]).toEqual({ seq: 4, askId: 'ask-answered', type: 'answered', at: FIXTURE_NOW - 20_000, by: { id: 'U0ALICE', name: 'alice' }, detail: { selected: ['npm'] } })
    expect(await store.events('ask-pending')).toEqual([{ seq: 1, askId: 'ask-pending', type: 'posted', at: FIXTURE_NOW - 59_000, rule: 'default', detail: { channel: 'C0FIXTURE1' } }])
  })

  it('keeps approvals, scheduled jobs, leases and the card claim', async () => {
    const store = openCopy()

    expect(await store.approvals('ask-approval')).toEqual(FIXTURE_APPROVALS)
    expect(await store.listScheduled()).toEqual(FIXTURE_JOBS)
    expect(await store.leaseUntil(FIXTURE_LEASE.instance)).toBe(FIXTURE_LEASE.until)
    expect(await store.claimMessage(FIXTURE_CLAIM.askId, 'another-instance', FIXTURE_NOW, FIXTURE_NOW + 1000)).toBe(false)
    expect(await store.claimMessage(FIXTURE_CLAIM.askId, 'another-instance', FIXTURE_CLAIM.until + 1, FIXTURE_CLAIM.until + 1000)).toBe(true)
  })

  it('goes on working: a pending ask settles once, its jobs go, and new asks and events follow the old ones', async () => {
    const store = openCopy()

    const first = await store.settle('ask-approval', answered('U0CAROL'))
    const second = await store.settle('ask-approval', answered('U0DAVE'))
    await store.insert(pendingRecord({ id: 'ask-after', createdAt: FIXTURE_NOW, relayDelivery: { key: 'http://127.0.0.1:4100#rpc-8' } }))
    const next = await store.appendEvent({ askId: 'ask-after', type: 'posted', at: FIXTURE_NOW + 1 })

    expect(first.won).toBe(true)
    expect(second).toMatchObject({ won: false, record: { settlement: answered('U0CAROL') } })
    expect(await store.listScheduled()).toEqual([])
    expect((await store.listPending()).map((record) => record.id)).toEqual(['ask-pending', 'ask-after'])
    expect(next.seq).toBe(7)
    await expect(store.insert(pendingRecord({ relayDelivery: { key: 'http://127.0.0.1:4100#rpc-7' } }))).rejects.toThrow(/already exists/)
  })
})
