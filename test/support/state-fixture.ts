import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AskRecord, Settlement } from '../../src/store/ask-record.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import type { Approval, NewAskEvent, ScheduledJob } from '../../src/store/team-records.js'

/**
 * A small state file as dsh-slack 0.1.0 wrote it (better-sqlite3, schema 6),
 * committed so that every later driver or schema must open it and keep its
 * asks (test/store/state-fixture.test.ts). It was written once, by
 * `node dist/test/support/state-fixture.js` on the commit that added it;
 * running that again now would write it with today's driver, which is not
 * the point: leave the committed file as it is.
 */
export const STATE_FIXTURE = join(checkoutRoot(), 'test/store/fixtures/state-0.1.0.sqlite')

/** The checkout this module is in, from its source (tests) or from dist/ (the writer). */
function checkoutRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir)
  return dir
}

/** The store's clock while the file was written, so opening it at this time prunes nothing. */
export const FIXTURE_NOW = 1_780_000_000_000

const alice = { id: 'U0ALICE', name: 'alice' }
const bob = { id: 'U0BOB', name: 'bob' }

function question(id: string, overrides: Partial<AskRecord> = {}): AskRecord {
  return {
    id,
    kind: 'question',
    questions: [{ id: 'q1', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }], multiSelect: false }],
    target: 'C0FIXTURE1',
    status: 'pending',
    createdAt: FIXTURE_NOW - 60_000,
    owner: { kind: 'service' },
    ...overrides,
  }
}

/** Each ask as inserted, before the steps below changed it. */
export const FIXTURE_INSERTED = {
  // 0.1.0 wrote this relayed request's key as `externalKey`; migration 0007 reads it back as `relayDelivery`.
  pending: question('ask-pending', { relayDelivery: { key: 'http://127.0.0.1:4100#rpc-7' }, apiKey: 'ci', rule: 'default', expiresAt: FIXTURE_NOW + 3_600_000 }),
  answered: question('ask-answered', { createdAt: FIXTURE_NOW - 50_000 }),
  expired: question('ask-expired', { createdAt: FIXTURE_NOW - 40_000, expiresAt: FIXTURE_NOW - 1000 }),
  approval: {
    id: 'ask-approval',
    kind: 'approval',
    questions: [],
    approval: { toolName: 'shell', reason: 'runs `rm -rf build`', callId: 'call-1' },
    target: 'C0FIXTURE1',
    status: 'pending',
    createdAt: FIXTURE_NOW - 30_000,
    owner: { kind: 'library', pid: 4242, instance: 'instance-fixture' },
  } satisfies AskRecord,
} as const

export const FIXTURE_MESSAGES = {
  pending: { channel: 'C0FIXTURE1', ts: '1780000000.000100', permalink: 'https://example.slack.com/archives/C0FIXTURE1/p1780000000000100' },
  answered: { channel: 'C0FIXTURE1', ts: '1780000000.000200' },
  approval: { channel: 'C0FIXTURE1', ts: '1780000000.000300' },
} as const

export const FIXTURE_SETTLEMENTS = {
  answered: {
    status: 'answered',
    outcome: { kind: 'answered', by: alice, at: FIXTURE_NOW - 20_000, answers: [{ id: 'q1', selected: ['npm'] }] },
    answer: { answers: [{ id: 'q1', selected: ['npm'] }] },
  },
  expired: { status: 'expired', outcome: { kind: 'expired', at: FIXTURE_NOW - 1000 }, error: { code: 'ASK_EXPIRED', message: 'nobody answered the question in time' } },
} as const satisfies Record<string, Settlement>

export const FIXTURE_APPROVALS: Approval[] = [{ by: bob, at: FIXTURE_NOW - 10_000 }]

export const FIXTURE_JOBS: ScheduledJob[] = [
  { askId: 'ask-approval', kind: 'remind', dueAt: FIXTURE_NOW + 600_000 },
  { askId: 'ask-approval', kind: 'escalate', dueAt: FIXTURE_NOW + 1_800_000 },
]

export const FIXTURE_LEASE = { instance: 'instance-fixture', until: FIXTURE_NOW + 30_000 } as const

/** The card claim left held on the pending ask, as a process that died mid-update leaves it. */
export const FIXTURE_CLAIM = { askId: 'ask-pending', holder: 'instance-fixture', until: FIXTURE_NOW + 5000 } as const

function event(askId: string, type: NewAskEvent['type'], at: number, more: Partial<NewAskEvent> = {}): NewAskEvent {
  return { askId, type, at, ...more }
}

/** Writes the fixture at `path` with the store as it is on this commit. */
export async function writeStateFixture(path: string): Promise<void> {
  const store = new SqliteAskStore(path, { now: () => FIXTURE_NOW })
  try {
    for (const record of Object.values(FIXTURE_INSERTED)) await store.insert(structuredClone(record))
    await store.attachMessage('ask-pending', FIXTURE_MESSAGES.pending, event('ask-pending', 'posted', FIXTURE_NOW - 59_000, { rule: 'default', detail: { channel: 'C0FIXTURE1' } }))
    await store.attachMessage('ask-answered', FIXTURE_MESSAGES.answered, event('ask-answered', 'posted', FIXTURE_NOW - 49_000))
    await store.attachMessage('ask-approval', FIXTURE_MESSAGES.approval, event('ask-approval', 'posted', FIXTURE_NOW - 29_000))
    await store.attachApprovalArguments('ask-approval', '{"command":"rm -rf build"}')
    await store.settle('ask-answered', FIXTURE_SETTLEMENTS.answered, { event: event('ask-answered', 'answered', FIXTURE_NOW - 20_000, { by: alice, detail: { selected: ['npm'] } }) })
    await store.markFinalMessageShown('ask-answered')
    await store.settle('ask-expired', FIXTURE_SETTLEMENTS.expired, { event: event('ask-expired', 'expired', FIXTURE_NOW - 1000) })
    for (const approval of FIXTURE_APPROVALS) await store.addApproval('ask-approval', approval)
    await store.appendEvent(event('ask-approval', 'approved', FIXTURE_NOW - 10_000, { by: bob }))
    await store.schedule(FIXTURE_JOBS)
    await store.renewLease(FIXTURE_LEASE.instance, FIXTURE_LEASE.until)
    await store.claimMessage(FIXTURE_CLAIM.askId, FIXTURE_CLAIM.holder, FIXTURE_NOW, FIXTURE_CLAIM.until)
  } finally {
    // Closing the last connection folds the WAL into the file: one file to commit.
    await store.close()
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const scratch = `${STATE_FIXTURE}.writing`
  rmSync(scratch, { force: true })
  mkdirSync(dirname(STATE_FIXTURE), { recursive: true })
  await writeStateFixture(scratch)
  if (existsSync(`${scratch}-wal`)) throw new Error('the WAL was not folded into the file')
  copyFileSync(scratch, STATE_FIXTURE)
  rmSync(scratch, { force: true })
  console.log(`wrote ${STATE_FIXTURE}`)
}
