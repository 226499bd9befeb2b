import { afterEach, describe, expect, it } from 'vitest'
import { doorOf, OWN_DOOR, type AskDoor, type AskRecord, type Settlement } from '../../src/store/ask-record.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { PendingCapReached } from '../../src/store/pending-caps.js'

/** How a conformance run makes stores. */
export interface StoreFactory {
  /** A fresh, empty store. */
  create(): AskStore | Promise<AskStore>
  /** Closes `store` and opens it again on the same data; absent for stores that keep nothing. */
  reopen?(store: AskStore): AskStore | Promise<AskStore>
}

let nextId = 0

export function pendingRecord(overrides: Partial<AskRecord> = {}): AskRecord {
  nextId += 1
  return {
    id: `ask-${nextId}`,
    kind: 'question',
    questions: [{ id: 'q1', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }], multiSelect: false }],
    target: 'C0123ABCDEF',
    status: 'pending',
    createdAt: 1_700_000_000_000,
    owner: { kind: 'service' },
    ...overrides,
  }
}

export function answered(by = 'U0ALICE', at = 1_700_000_100_000): Settlement {
  return {
    status: 'answered',
    outcome: { kind: 'answered', by: { id: by, name: by.toLowerCase() }, at, answers: [{ id: 'q1', selected: ['pnpm (Recommended)'] }] },
    answer: { answers: [{ id: 'q1', selected: ['pnpm (Recommended)'] }] },
  }
}

export function aborted(at = 1_700_000_100_000): Settlement {
  return { status: 'aborted', outcome: { kind: 'aborted', at }, error: { code: 'ASK_ABORTED', message: 'the agent withdrew the question' } }
}

/**
 * The behaviour every `AskStore` shares (ask-store.ts), run against each
 * implementation so a Redis store later proves itself the same way.
 */
export function askStoreConformance(name: string, factory: StoreFactory): void {
  describe(`${name} (AskStore conformance)`, () => {
    const open: AskStore[] = []

    async function create(): Promise<AskStore> {
      const store = await factory.create()
      open.push(store)
      return store
    }

    afterEach(async () => {
      await Promise.all(open.splice(0).map((store) => store.close().catch(() => undefined)))
    })

    it('returns an inserted record by id, and nothing for an unknown id', async () => {
      const store = await create()
      const record = pendingRecord()

      await store.insert(record)

      expect(await store.get(record.id)).toEqual(record)
      expect(await store.get('no-such-ask')).toBeUndefined()
    })

    it('keeps its own copy, so changing a record in hand changes nothing stored', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)

      record.target = 'C0CHANGED'
      const copy = await store.get(record.id)
      copy!.questions[0]!.question = 'changed'

      const stored = await store.get(record.id)
      expect(stored?.target).toBe('C0123ABCDEF')
      expect(stored?.questions[0]?.question).toBe('Which package manager?')
    })

    it('refuses a second record with the same id', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)

      await expect(store.insert({ ...record, target: 'C0OTHER' })).rejects.toThrow()
    })

    it('refuses a second record with the same external key, and finds the first by it', async () => {
      const store = await create()
      const first = pendingRecord({ relayDelivery: { key: 'http://host#rpc-1' } })
      await store.insert(first)

      await expect(store.insert(pendingRecord({ relayDelivery: { key: 'http://host#rpc-1' } }))).rejects.toThrow()

      expect((await store.findByExternalKey('http://host#rpc-1'))?.id).toBe(first.id)
      expect(await store.findByExternalKey('http://host#rpc-2')).toBeUndefined()
    })

    it('finds an agent session’s newest asks, newest first, at most the limit asked for', async () => {
      const store = await create()
      const older = pendingRecord({ agent: { id: 'ses-a' }, createdAt: 1_700_000_000_000 })
      const newer = pendingRecord({ agent: { id: 'ses-a' }, createdAt: 1_700_000_500_000 })
      const newest = pendingRecord({ agent: { id: 'ses-a' }, createdAt: 1_700_000_900_000 })
      for (const record of [newer, pendingRecord({ agent: { id: 'ses-b' } }), older, newest, pendingRecord()]) await store.insert(record)
      await store.settle(older.id, answered())

      expect((await store.newestOfAgent(OWN_DOOR, 'ses-a', 10)).map((record) => record.id)).toEqual([newest.id, newer.id, older.id])
      expect((await store.newestOfAgent(OWN_DOOR, 'ses-a', 2)).map((record) => record.id)).toEqual([newest.id, newer.id])
      expect((await store.newestOfAgent(OWN_DOOR, 'ses-a', 10))[2]?.settlement?.status).toBe('answered')
      expect(await store.newestOfAgent(OWN_DOOR, 'ses-none', 10)).toEqual([])
    })

    it('finds a session’s asks only through the door they came in by: two keys, two hosts and the own processes with one agent id never meet', async () => {
      const store = await create()
      const doors = {
        teamA: pendingRecord({ agent: { id: 'session-1' }, apiKey: 'teamA' }),
        teamB: pendingRecord({ agent: { id: 'session-1' }, apiKey: 'teamB', idempotencyKey: 'http-idempotency:teamB:k' }),
        hostX: pendingRecord({ agent: { id: 'session-1' }, relayDelivery: { key: 'http://127.0.0.1:4000#rpc-1' } }),
        // One host's URL the start of another's: `#` ends it, so :4000 never reads :40001's asks.
        hostY: pendingRecord({ agent: { id: 'session-1' }, relayDelivery: { key: 'http://127.0.0.1:40001#rpc-1' } }),
        own: pendingRecord({ agent: { id: 'session-1' } }),
        ownKeyless: pendingRecord({ agent: { id: 'session-1' }, idempotencyKey: 'http-idempotency::k' }),
      }
      for (const record of Object.values(doors)) await store.insert(record)
      const found = async (door: AskDoor) => (await store.newestOfAgent(door, 'session-1', 10)).map((record) => record.id).sort()

      expect(await found({ kind: 'api-key', name: 'teamA' })).toEqual([doors.teamA.id])
      expect(await found({ kind: 'api-key', name: 'teamB' })).toEqual([doors.teamB.id])
      expect(await found({ kind: 'api-key', name: 'team' })).toEqual([])
      expect(await found({ kind: 'host', url: 'http://127.0.0.1:4000' })).toEqual([doors.hostX.id])
      expect(await found({ kind: 'host', url: 'http://127.0.0.1:40001' })).toEqual([doors.hostY.id])
      expect(await found(OWN_DOOR)).toEqual([doors.own.id, doors.ownKeyless.id].sort())
      for (const record of Object.values(doors)) expect(await found(doorOf(record))).toContain(record.id)
    })

    it('records where the message was posted', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)

      await store.attachMessage(record.id, { channel: 'C0123ABCDEF', ts: '1700000000.000100', permalink: 'https://x/p1' })

      expect((await store.get(record.id))?.message).toEqual({ channel: 'C0123ABCDEF', ts: '1700000000.000100', permalink: 'https://x/p1' })
    })

    it('gives back the ask as it now stands once its message is recorded, from the copy the caller wrote', async () => {
      const store = await create()
      const record = pendingRecord({ expiresAt: 1_700_000_600_000, policy: { approvals: 2 } })
      await store.insert(record)
      const message = { channel: 'C0123ABCDEF', ts: '1700000000.000100', permalink: 'https://x/p1' }

      const current = await store.attachMessage(record.id, message, undefined, record)

      expect(current).toStrictEqual(await store.get(record.id))
      expect(current?.message).toEqual(message)
    })

    it('gives back the ask as stored, not the caller’s copy, when it settled or gained arguments while its message was posted', async () => {
      const store = await create()
      const settled = pendingRecord()
      const approval = pendingRecord({ kind: 'approval', questions: [], approval: { toolName: 'bash', callId: 'call-1' } })
      for (const record of [settled, approval]) await store.insert(record)
      await store.settle(settled.id, aborted())
      await store.attachApprovalArguments(approval.id, '{"command":"ls"}')

      const settledNow = await store.attachMessage(settled.id, { channel: 'C0123ABCDEF', ts: '1.1' }, undefined, settled)
      const approvalNow = await store.attachMessage(approval.id, { channel: 'C0123ABCDEF', ts: '1.2' }, undefined, approval)

      expect(settledNow?.status).toBe('aborted')
      expect(settledNow).toStrictEqual(await store.get(settled.id))
      expect(approvalNow?.approval?.arguments).toBe('{"command":"ls"}')
      expect(approvalNow).toStrictEqual(await store.get(approval.id))
      expect(await store.attachMessage('no-such-ask', { channel: 'C0123ABCDEF', ts: '1.3' }, undefined, pendingRecord())).toBeUndefined()
    })

    it('fills in a pending approval’s late arguments, and leaves questions and settled approvals alone', async () => {
      const store = await create()
      const approval = pendingRecord({ kind: 'approval', questions: [], approval: { toolName: 'bash', callId: 'call-1' } })
      const settled = pendingRecord({ kind: 'approval', questions: [], approval: { toolName: 'bash', callId: 'call-2' } })
      const question = pendingRecord()
      for (const record of [approval, settled, question]) await store.insert(record)
      await store.settle(settled.id, answered('U0ALICE'))
      const args = JSON.stringify({ command: 'touch "it\'s" \\ here' })

      expect(await store.attachApprovalArguments(approval.id, args)).toBe(true)
      expect(await store.attachApprovalArguments(settled.id, args)).toBe(false)
      expect(await store.attachApprovalArguments(question.id, args)).toBe(false)
      expect(await store.attachApprovalArguments('no-such-ask', args)).toBe(false)

      expect((await store.get(approval.id))?.approval).toEqual({ toolName: 'bash', callId: 'call-1', arguments: args })
      expect((await store.get(settled.id))?.approval?.arguments).toBeUndefined()
      expect((await store.get(question.id))?.approval).toBeUndefined()
    })

    it('settles a pending ask once and gives a later claimant the winner’s record', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)

      const first = await store.settle(record.id, answered('U0ALICE'))
      const second = await store.settle(record.id, answered('U0BOB'))

      expect(first.won).toBe(true)
      expect(first.record).toMatchObject({ status: 'answered', finalMessageShown: false, settlement: answered('U0ALICE') })
      expect(second.won).toBe(false)
      expect(second.record.settlement).toEqual(answered('U0ALICE'))
    })

    it('gives the settle’s winner the ask as stored, from the copy the caller read', async () => {
      const store = await create()
      const record = pendingRecord({ expiresAt: 1_700_000_600_000 })
      await store.insert(record)
      await store.attachMessage(record.id, { channel: 'C0123ABCDEF', ts: '1.1', permalink: 'https://x/p1' })
      const known = (await store.get(record.id))!

      const result = await store.settle(record.id, answered('U0ALICE'), { known })

      expect(result.won).toBe(true)
      expect(result.record).toStrictEqual(await store.get(record.id))
    })

    it('gives the settle’s winner the ask as stored when the caller’s copy is older: its message recorded, or arguments arrived, since', async () => {
      const store = await create()
      const posted = pendingRecord()
      const approval = pendingRecord({ kind: 'approval', questions: [], approval: { toolName: 'bash', callId: 'call-1' } })
      for (const record of [posted, approval]) await store.insert(record)
      await store.attachMessage(posted.id, { channel: 'C0123ABCDEF', ts: '1.2' })
      await store.attachApprovalArguments(approval.id, '{"command":"ls"}')

      const settledPosted = await store.settle(posted.id, aborted(), { known: posted })
      const settledApproval = await store.settle(approval.id, aborted(), { known: approval })

      expect(settledPosted.record.message?.ts).toBe('1.2')
      expect(settledPosted.record).toStrictEqual(await store.get(posted.id))
      expect(settledApproval.record.approval?.arguments).toBe('{"command":"ls"}')
      expect(settledApproval.record).toStrictEqual(await store.get(approval.id))
    })

    it('lets exactly one of many concurrent settle calls win', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)
      const people = Array.from({ length: 20 }, (_, index) => `U0PERSON${index}`)

      const results = await Promise.all(people.map((person) => store.settle(record.id, answered(person))))

      const winners = results.filter((result) => result.won)
      expect(winners).toHaveLength(1)
      const winner = winners[0]!.record.settlement
      for (const result of results) expect(result.record.settlement).toEqual(winner)
    })

    it('calls a watcher once when the ask settles, then forgets it', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)
      const seen: AskRecord[] = []
      store.watch(record.id, (settled) => seen.push(settled))

      await store.settle(record.id, answered())
      await store.settle(record.id, aborted())

      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({ id: record.id, status: 'answered' })
    })

    it('does not call a watcher that unsubscribed', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)
      const seen: AskRecord[] = []
      const unsubscribe = store.watch(record.id, (settled) => seen.push(settled))

      unsubscribe()
      await store.settle(record.id, answered())

      expect(seen).toEqual([])
    })

    it('lists pending asks, and settled asks whose message does not show it yet', async () => {
      const store = await create()
      const pending = pendingRecord()
      const shown = pendingRecord({ message: { channel: 'C0123ABCDEF', ts: '1.1' } })
      const unshown = pendingRecord({ message: { channel: 'C0123ABCDEF', ts: '1.2' } })
      const neverPosted = pendingRecord()
      for (const record of [pending, shown, unshown, neverPosted]) await store.insert(record)

      for (const record of [shown, unshown, neverPosted]) await store.settle(record.id, aborted())
      await store.markFinalMessageShown(shown.id)

      expect((await store.listPending()).map((record) => record.id)).toEqual([pending.id])
      expect((await store.listUnshownSettled()).map((record) => record.id)).toEqual([unshown.id])
    })

    it('lists every pending ask without its questions, agent or body, oldest first, and nothing of a settled one', async () => {
      const store = await create()
      const library = pendingRecord({ createdAt: 2, expiresAt: 1_700_000_600_000, owner: { kind: 'library', pid: 42, instance: 'host-1' }, agent: { id: 'session-1' } })
      const service = pendingRecord({ createdAt: 1, message: { channel: 'C0123ABCDEF', ts: '1.7' }, policy: { approvals: 2, answerers: ['U0BOB'] } })
      const settled = pendingRecord({ createdAt: 3, expiresAt: 1_700_000_700_000 })
      for (const record of [library, service, settled]) await store.insert(record)

      await store.settle(settled.id, aborted())

      expect(await store.listPendingSummaries()).toEqual([
        { id: service.id, createdAt: 1, owner: { kind: 'service' }, message: { channel: 'C0123ABCDEF', ts: '1.7' }, policy: { approvals: 2, answerers: ['U0BOB'] } },
        { id: library.id, createdAt: 2, owner: { kind: 'library', pid: 42, instance: 'host-1' }, expiresAt: 1_700_000_600_000 },
      ])
    })

    it('gives the sweep only the pending asks it may act on: a library process’s, the expiries due by then, the unposted whose claim ran out', async () => {
      const store = await create()
      const now = 1_700_000_000_000
      const posted = { channel: 'C0123ABCDEF', ts: '1.9' }
      const library = pendingRecord({ owner: { kind: 'library', pid: 42, instance: 'host-1' }, message: posted })
      const dueSoon = pendingRecord({ expiresAt: now + 30_000, message: posted })
      const dueLater = pendingRecord({ expiresAt: now + 3_600_000, message: posted })
      const waiting = pendingRecord({ message: posted })
      const orphan = pendingRecord()
      const beingPosted = pendingRecord()
      const postedSince = pendingRecord()
      const settledSoon = pendingRecord({ expiresAt: now + 10_000, owner: { kind: 'library', pid: 43, instance: 'host-2' } })
      for (const record of [library, dueSoon, dueLater, waiting]) await store.insert(record)
      await store.insert(orphan, undefined, { holder: 'dead', until: now - 1 })
      await store.insert(beingPosted, undefined, { holder: 'alive', until: now + 15_000 })
      await store.insert(postedSince, undefined, { holder: 'dead', until: now - 1 })
      await store.attachMessage(postedSince.id, posted)
      await store.insert(settledSoon)
      await store.settle(settledSoon.id, aborted())

      const found = await store.listSweepable(now, now + 60_000)

      expect(found.map((summary) => summary.id).sort()).toEqual([library.id, dueSoon.id, orphan.id].sort())
      expect(found.find((summary) => summary.id === library.id)).toEqual({ id: library.id, createdAt: library.createdAt, owner: library.owner, message: posted })
      expect(found.find((summary) => summary.id === dueSoon.id)?.expiresAt).toBe(now + 30_000)
      expect((await store.listSweepable(now + 20_000, now + 20_000 + 3_600_000)).map((summary) => summary.id).sort()).toEqual([library.id, dueSoon.id, dueLater.id, orphan.id, beingPosted.id].sort())
    })

    it('gives the sweep an ask recorded without a post claim, unposted: anyone may post it', async () => {
      const store = await create()
      const unclaimed = pendingRecord()
      await store.insert(unclaimed)

      expect((await store.listSweepable(1, 1)).map((summary) => summary.id)).toEqual([unclaimed.id])
    })

    it('reads the asks among some ids that are still pending, whole, and leaves out settled and unknown ones', async () => {
      const store = await create()
      const first = pendingRecord({ message: { channel: 'C0123ABCDEF', ts: '1.8' } })
      const second = pendingRecord()
      const settled = pendingRecord()
      for (const record of [first, second, settled]) await store.insert(record)

      await store.settle(settled.id, aborted())
      const read = await store.listPendingAmong([second.id, settled.id, 'no-such-ask', first.id])

      expect(read.map((record) => record.id).sort()).toEqual([first.id, second.id].sort())
      expect(read.find((record) => record.id === first.id)).toEqual(first)
    })

    it('gives the message claim to one holder at a time until it is released or runs out', async () => {
      const store = await create()
      const record = pendingRecord({ message: { channel: 'C0123ABCDEF', ts: '1.5' } })
      await store.insert(record)
      await store.settle(record.id, aborted())

      const first = await store.claimMessage(record.id, 'instance-a', 1_000, 2_000)
      const whileHeld = await store.claimMessage(record.id, 'instance-b', 1_500, 2_500)
      const afterItRanOut = await store.claimMessage(record.id, 'instance-b', 2_001, 3_000)
      await store.releaseMessage(record.id, 'instance-a', true)
      const stillUnshown = (await store.listUnshownSettled()).map((listed) => listed.id)
      await store.releaseMessage(record.id, 'instance-b', true)

      expect([first, whileHeld, afterItRanOut]).toEqual([true, false, true])
      expect(stillUnshown).toEqual([record.id])
      expect(await store.claimMessage(record.id, 'instance-a', 2_100, 3_100)).toBe(true)
      expect((await store.get(record.id))?.finalMessageShown).toBe(true)
      expect(await store.listUnshownSettled()).toEqual([])
    })

    it('gives the settle’s winner the message claim only once the message is recorded: its poster must be free to show the settlement', async () => {
      const store = await create()
      const posted = pendingRecord({ message: { channel: 'C0123ABCDEF', ts: '1.6' } })
      const stillPosting = pendingRecord()
      for (const record of [posted, stillPosting]) await store.insert(record)
      const claim = { holder: 'instance-b', until: 5_000 }

      await store.settle(posted.id, aborted(), { messageClaim: claim })
      await store.settle(stillPosting.id, aborted(), { messageClaim: claim })
      // The poster records the message a moment after the click settled the ask on another instance.
      await store.attachMessage(stillPosting.id, { channel: 'C0123ABCDEF', ts: '1.7' })

      expect(await store.claimMessage(posted.id, 'instance-a', 1_000, 2_000)).toBe(false)
      expect(await store.claimMessage(stillPosting.id, 'instance-a', 1_000, 2_000)).toBe(true)
    })

    it('gives the post claim taken at insert to its inserter until it runs out, then to the next instance that asks', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record, undefined, { holder: 'instance-a', until: 2_000 })

      const whileHeld = await store.claimPost(record.id, 'instance-b', 1_500, 3_500)
      const renewed = await store.claimPost(record.id, 'instance-a', 1_600, 3_600)
      const afterItRanOut = await store.claimPost(record.id, 'instance-b', 3_601, 5_000)
      const theFirstHolderLate = await store.claimPost(record.id, 'instance-a', 3_700, 5_700)

      expect([whileHeld, renewed, afterItRanOut, theFirstHolderLate]).toEqual([{ kind: 'held', until: 2_000 }, { kind: 'taken' }, { kind: 'taken' }, { kind: 'held', until: 5_000 }])
    })

    it('finds nothing to post for an ask whose message is recorded, one that is settled, or none', async () => {
      const store = await create()
      const posted = pendingRecord()
      const settled = pendingRecord()
      for (const record of [posted, settled]) await store.insert(record, undefined, { holder: 'instance-a', until: 2_000 })
      await store.attachMessage(posted.id, { channel: 'C0123ABCDEF', ts: '1.8' })
      await store.settle(settled.id, aborted())

      const found = await Promise.all([posted.id, settled.id, 'no-such-ask'].map((id) => store.claimPost(id, 'instance-b', 5_000, 6_000)))

      expect(found).toEqual([{ kind: 'moot' }, { kind: 'moot' }, { kind: 'moot' }])
    })

    it('lets anyone take the post claim of an ask inserted without one', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)

      expect(await store.claimPost(record.id, 'instance-b', 1_000, 2_000)).toEqual({ kind: 'taken' })
    })

    it('keeps the latest lease of an instance, never moving it back, and forgets it when ended', async () => {
      const store = await create()

      await store.renewLease('instance-a', 2_000)
      await store.renewLease('instance-a', 1_000)
      const renewed = await store.leaseUntil('instance-a')
      await store.endLease('instance-a')

      expect(renewed).toBe(2_000)
      expect(await store.leaseUntil('instance-a')).toBeUndefined()
      expect(await store.leaseUntil('instance-never-seen')).toBeUndefined()
    })

    it('returns a record with text of any length and any characters unchanged', async () => {
      const store = await create()
      const detail = `# Plan\n\n${'Ünïcødé — "quotes" \\ back\\slash, <tags> & emoji 🚀\n'.repeat(3000)}`
      const record = pendingRecord({ questions: [{ id: 'q1', question: 'Approve?', detail, options: [{ label: 'Approve' }], multiSelect: false }] })

      await store.insert(record)
      await store.settle(record.id, answered())

      expect((await store.get(record.id))?.questions[0]?.detail).toBe(detail)
    })

    it('counts each person once towards a quorum, in order, and refuses approvals once the ask is settled', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)
      const alice = { by: { id: 'U0ALICE', name: 'alice' }, at: 1 }
      const bob = { by: { id: 'U0BOB' }, at: 2 }

      const first = await store.addApproval(record.id, alice)
      const again = await store.addApproval(record.id, { ...alice, at: 3 })
      const second = await store.addApproval(record.id, bob)
      await store.settle(record.id, answered())
      const late = await store.addApproval(record.id, { by: { id: 'U0CAROL' }, at: 4 })

      expect(first).toEqual({ kind: 'added', approvals: [alice] })
      expect(again).toEqual({ kind: 'duplicate', approvals: [alice] })
      expect(second).toEqual({ kind: 'added', approvals: [alice, bob] })
      expect(late).toMatchObject({ kind: 'closed', record: { status: 'answered' } })
      expect(await store.approvals(record.id)).toEqual([alice, bob])
    })

    it('counts twenty concurrent approvals from ten people as ten', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)
      const people = Array.from({ length: 20 }, (_, index) => `U0PERSON${index % 10}`)

      const results = await Promise.all(people.map((id, at) => store.addApproval(record.id, { by: { id }, at })))

      expect(results.filter((result) => result.kind === 'added')).toHaveLength(10)
      expect(new Set((await store.approvals(record.id)).map((approval) => approval.by.id)).size).toBe(10)
    })

    it('hands each due job to exactly one claimant, and none that is not due yet', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)
      await store.schedule([
        { askId: record.id, kind: 'remind', dueAt: 100 },
        { askId: record.id, kind: 'escalate', dueAt: 200 },
      ])

      const claims = await Promise.all(Array.from({ length: 5 }, () => store.claimDueJobs(150)))
      const later = await store.claimDueJobs(250)

      expect(claims.flat()).toEqual([{ askId: record.id, kind: 'remind', dueAt: 100 }])
      expect(later).toEqual([{ askId: record.id, kind: 'escalate', dueAt: 200 }])
      expect(await store.claimDueJobs(1_000)).toEqual([])
    })

    it('drops the jobs of an ask that is settled, and schedules none for a settled ask', async () => {
      const store = await create()
      const record = pendingRecord()
      const settled = pendingRecord()
      await store.insert(record)
      await store.insert(settled)
      await store.schedule([{ askId: record.id, kind: 'remind', dueAt: 100 }])

      await store.settle(record.id, answered())
      await store.settle(settled.id, aborted())
      await store.schedule([{ askId: settled.id, kind: 'remind', dueAt: 100 }])

      expect(await store.listScheduled()).toEqual([])
      expect(await store.claimDueJobs(1_000)).toEqual([])
    })

    it('keeps one job of each kind per ask', async () => {
      const store = await create()
      const record = pendingRecord()
      await store.insert(record)

      await store.schedule([{ askId: record.id, kind: 'remind', dueAt: 100 }])
      await store.schedule([{ askId: record.id, kind: 'remind', dueAt: 50 }])

      expect(await store.listScheduled()).toEqual([{ askId: record.id, kind: 'remind', dueAt: 100 }])
    })

    it('appends events in order, per ask and across asks, with increasing sequence numbers', async () => {
      const store = await create()
      const a = pendingRecord()
      const b = pendingRecord()
      await store.insert(a)
      await store.insert(b)

      const posted = await store.appendEvent({ askId: a.id, type: 'posted', at: 10, detail: { channel: 'C0123ABCDEF', ts: '1.1' } })
      await store.appendEvent({ askId: b.id, type: 'posted', at: 20 })
      const approved = await store.appendEvent({ askId: a.id, type: 'approved', at: 30, by: { id: 'U0ALICE', name: 'alice' } })

      expect(approved.seq).toBeGreaterThan(posted.seq)
      expect(await store.events(a.id)).toEqual([posted, approved])
      expect((await store.listEvents({ limit: 10 })).map((event) => event.at)).toEqual([10, 20, 30])
      expect((await store.listEvents({ since: 15, limit: 10 })).map((event) => event.at)).toEqual([20, 30])
      expect((await store.listEvents({ afterSeq: posted.seq, limit: 1 })).map((event) => event.at)).toEqual([20])
    })

    it('lists asks newest first by status and age, a page at a time', async () => {
      const store = await create()
      const records = [1, 2, 3, 4, 5].map((n) => pendingRecord({ createdAt: n * 1000 }))
      for (const record of records) await store.insert(record)
      await store.settle(records[1]!.id, aborted())

      const first = await store.listAsks({ limit: 2 })
      const second = await store.listAsks({ limit: 2, cursor: first.nextCursor! })
      const third = await store.listAsks({ limit: 2, cursor: second.nextCursor! })
      const pending = await store.listAsks({ status: 'pending', since: 2000, limit: 10 })

      expect([...first.asks, ...second.asks, ...third.asks].map((r) => r.createdAt)).toEqual([5000, 4000, 3000, 2000, 1000])
      expect(third.nextCursor).toBeUndefined()
      expect(pending.asks.map((r) => r.createdAt)).toEqual([5000, 4000, 3000])
    })

    it('keeps the rule and the key on an ask and on its events', async () => {
      const store = await create()
      const record = pendingRecord({ apiKey: 'ci', rule: 'force-push' })
      await store.insert(record)

      await store.appendEvent({ askId: record.id, type: 'posted', at: 10, rule: 'force-push', key: 'ci' })

      expect(await store.get(record.id)).toMatchObject({ apiKey: 'ci', rule: 'force-push' })
      expect((await store.events(record.id))[0]).toMatchObject({ rule: 'force-push', key: 'ci' })
      expect((await store.listEvents({ limit: 10 }))[0]).toMatchObject({ rule: 'force-push', key: 'ci' })
    })

    it('lists only the asks of one API key or one operator rule when asked', async () => {
      const store = await create()
      const ci = pendingRecord({ createdAt: 1000, apiKey: 'ci', rule: 'force-push' })
      const laptop = pendingRecord({ createdAt: 2000, apiKey: 'laptop', rule: 'defaults' })
      const library = pendingRecord({ createdAt: 3000, rule: 'force-push' })
      for (const record of [ci, laptop, library]) await store.insert(record)

      expect((await store.listAsks({ key: 'ci', limit: 10 })).asks.map((r) => r.id)).toEqual([ci.id])
      expect((await store.listAsks({ rule: 'force-push', limit: 10 })).asks.map((r) => r.id)).toEqual([library.id, ci.id])
      expect((await store.listAsks({ rule: 'force-push', key: 'laptop', limit: 10 })).asks).toEqual([])
    })

    it('counts pending asks in total and for one key, leaving settled ones out', async () => {
      const store = await create()
      const records = [pendingRecord({ apiKey: 'ci' }), pendingRecord({ apiKey: 'ci' }), pendingRecord({ apiKey: 'laptop' }), pendingRecord()]
      for (const record of records) await store.insert(record)
      await store.settle(records[0]!.id, aborted())

      expect(await store.countPending('ci')).toEqual({ total: 3, forKey: 1 })
      expect(await store.countPending('nobody')).toEqual({ total: 3, forKey: 0 })
      expect(await store.countPending()).toEqual({ total: 3, forKey: 0 })
    })

    it('refuses an insert past a cap on pending asks, per key or in all, saying which, and counts settled asks out', async () => {
      const store = await create()
      const caps = { pending: 4, pendingPerKey: 2 }
      const first = pendingRecord({ apiKey: 'ci' })
      for (const record of [first, pendingRecord({ apiKey: 'ci' }), pendingRecord({ apiKey: 'laptop' })]) await store.insert(record, caps)

      const thirdForCi = pendingRecord({ apiKey: 'ci' })
      const perKey = await store.insert(thirdForCi, caps).catch((error: unknown) => error)
      await store.insert(pendingRecord(), caps)
      const overall = await store.insert(pendingRecord({ apiKey: 'laptop' }), caps).catch((error: unknown) => error)
      await store.settle(first.id, aborted())
      await store.insert(thirdForCi, caps)

      expect(perKey).toBeInstanceOf(PendingCapReached)
      expect(perKey).toMatchObject({ count: { total: 3, forKey: 2 }, key: 'ci', perKey: true })
      expect(overall).toMatchObject({ count: { total: 4, forKey: 1 }, key: 'laptop', perKey: false })
      expect(await store.get(thirdForCi.id)).toMatchObject({ status: 'pending' })
      expect(await store.countPending('ci')).toEqual({ total: 4, forKey: 2 })
    })

    it('inserts without a count when no caps are given', async () => {
      const store = await create()
      for (let n = 0; n < 3; n++) await store.insert(pendingRecord({ apiKey: 'ci' }))
      await expect(store.insert(pendingRecord({ apiKey: 'ci' }), { pending: 10, pendingPerKey: 3 })).rejects.toBeInstanceOf(PendingCapReached)
      await store.insert(pendingRecord({ apiKey: 'ci' }))

      expect(await store.countPending('ci')).toEqual({ total: 4, forKey: 4 })
    })

    if (factory.reopen) {
      const reopen = factory.reopen
      it('keeps asks, settlements and messages across a reopen', async () => {
        const store = await create()
        const pending = pendingRecord({ relayDelivery: { key: 'http://host#rpc-9' } })
        const settled = pendingRecord()
        await store.insert(pending)
        await store.insert(settled)
        await store.attachMessage(pending.id, { channel: 'C0123ABCDEF', ts: '1.3' })
        await store.settle(settled.id, answered())

        const reopened = await reopen(store)
        open.push(reopened)

        expect(await reopened.get(pending.id)).toEqual({ ...pending, message: { channel: 'C0123ABCDEF', ts: '1.3' } })
        expect((await reopened.findByExternalKey('http://host#rpc-9'))?.id).toBe(pending.id)
        expect((await reopened.get(settled.id))?.settlement).toEqual(answered())
        expect((await reopened.listPending()).map((record) => record.id)).toEqual([pending.id])
      })
    }
  })
}
