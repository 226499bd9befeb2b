import { afterEach, describe, expect, it, vi } from 'vitest'
import { AnswerPolicy } from '../../src/bridge/answer-policy.js'
import { HomeTab } from '../../src/bridge/home-tab.js'
import { silentLogger } from '../../src/log/logger.js'
import { ChannelPacer } from '../../src/slack/channel-pacer.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import type { Approval } from '../../src/store/team-records.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'

const NOW = Date.UTC(2026, 6, 1, 12)

/** A store that counts the approvals it is asked for (one read per ask with a quorum drawn on a tab) and the whole records it hands out. */
class ApprovalCountingStore extends MemoryAskStore {
  approvalReads = 0
  recordsRead = 0
  override async approvals(id: string): Promise<Approval[]> {
    this.approvalReads++
    return super.approvals(id)
  }
  override async listPending(): Promise<AskRecord[]> {
    const records = await super.listPending()
    this.recordsRead += records.length
    return records
  }
  override async get(id: string): Promise<AskRecord | undefined> {
    this.recordsRead++
    return super.get(id)
  }
  override async listPendingAmong(ids: readonly string[]): Promise<AskRecord[]> {
    const records = await super.listPendingAmong(ids)
    this.recordsRead += records.length
    return records
  }
}

/** A tool approval needing two people, asked `i` minutes before NOW. */
function approvalAsk(i: number): AskRecord {
  return {
    id: `tool-${String(i).padStart(4, '0')}`,
    kind: 'approval',
    questions: [],
    approval: { toolName: `tool${i}`, reason: 'needs a look' },
    target: 'C0AGENTS',
    status: 'pending',
    createdAt: NOW - i * 60_000,
    owner: { kind: 'service' },
    message: { channel: 'C0AGENTS', ts: `1.${i}` },
    policy: { approvals: 2 },
  }
}

const tabs: HomeTab[] = []

afterEach(async () => {
  for (const tab of tabs.splice(0)) await tab.stop()
})

/** 300 tool approvals alice may answer, in a channel she is in; she opens her tab, and it is published once. */
async function aliceOpensHerTab() {
  const store = new ApprovalCountingStore()
  const slack = new FakeSlackPort()
  slack.members.set('C0AGENTS', ['U0ALICE'])
  for (let i = 0; i < 300; i++) await store.insert(approvalAsk(i))
  const tab = new HomeTab({ store, slack, pacer: new ChannelPacer(), policy: new AnswerPolicy(slack, {}, silentLogger), settings: { locale: 'en' }, logger: silentLogger, now: () => NOW, instance: 'test' })
  tabs.push(tab)
  await tab.opened('U0ALICE')
  await vi.waitFor(() => expect(slack.homes).toHaveLength(1))
  return { store, slack }
}

describe('the Home tab of a person who may answer many asks', () => {
  it('draws only the newest asks that fit and counts the rest, reading the approvals of the drawn ones alone', async () => {
    const { store, slack } = await aliceOpensHerTab()
    const text = JSON.stringify(slack.homes[0]!.view.blocks)
    const drawn = (text.match(/tool-\d{4}/g) ?? []).filter((id, i, all) => all.indexOf(id) === i)

    expect(text).toContain('300 asks wait')
    expect(drawn[0]).toBe('tool-0000')
    expect(text).toContain(`and ${300 - drawn.length} older ones`)
    // Before issue 43 every ask the person may answer was read and drawn (300 reads) for the ~20 that fit.
    expect(store.approvalReads).toBeLessThanOrEqual(40)
  })

  it('finds which asks are theirs from the pending asks\' summaries, and reads whole records only of the ones it draws', async () => {
    const { store, slack } = await aliceOpensHerTab()

    expect(JSON.stringify(slack.homes[0]!.view.blocks)).toContain('300 asks wait')
    // Before issue 43 a publish read all 300 records; a refresh follows every click on an ask an open tab lists.
    expect(store.recordsRead).toBeLessThanOrEqual(40)
  })
})
