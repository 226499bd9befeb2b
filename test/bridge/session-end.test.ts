/**
 * A session's end reaches only its own door's code channels (decision
 * 0090): the stores' newestOfAgent is scoped by the door, and each card
 * channel the session asked in has its own code channel.
 */
import { describe, expect, it } from 'vitest'

import { PlanCanvases, reviewOf } from '../../src/bridge/code-channel/plan-canvases.js'
import { SessionEnds } from '../../src/bridge/code-channel/session-end.js'
import type { CodeChannelPort } from '../../src/slack/code-channel-port.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { recordingLogger } from '../support/e2e.js'

let n = 0
function review(overrides: Partial<AskRecord> = {}): AskRecord {
  n += 1
  return {
    id: `ask-${n}`,
    kind: 'question',
    questions: [{ id: 'plan', question: 'Approve this plan?', detail: '1. One', options: [{ label: 'Approve' }, { label: 'Dismiss' }], intent: { kind: 'plan-review', approve: 'Approve' } }],
    agent: { id: 'session-1' },
    target: 'C1',
    message: { channel: 'C1', ts: `1.00000${n}` },
    status: 'pending',
    createdAt: n,
    owner: { kind: 'service' },
    ...overrides,
  } as AskRecord
}

/** A port whose code channel for a `session_id` is named after the ask that first made it, and which records what it archived. */
function recordingPort(channelOf: Map<string, string>) {
  const archived: string[] = []
  const port: CodeChannelPort = {
    create: async ({ sessionId }) => channelOf.get(sessionId) ?? 'C_UNKNOWN',
    canvasOfView: async () => 'F1',
    createCanvas: async () => 'F1',
    showCanvas: async () => undefined,
    setCanvasContent: async () => undefined,
    openThreads: async () => [],
    setContextBar: async () => undefined,
    archive: async (channel) => void archived.push(channel),
    userName: async () => undefined,
  }
  return { port, archived }
}

async function ends(records: AskRecord[]) {
  const store = new MemoryAskStore()
  for (const record of records) await store.insert(record)
  const channelOf = new Map(records.map((record) => [reviewOf(record)!.sessionId, `C_OF_${record.id}`]))
  const { port, archived } = recordingPort(channelOf)
  const slack = { postMessage: async (channel: string) => ({ channel, ts: '9.000001' }) }
  const logger = recordingLogger()
  const canvases = new PlanCanvases({ port, slack, logger, mode: 'auto' })
  return { sessionEnds: new SessionEnds({ port, slack, store, canvases, logger }), archived }
}

describe('the end of session-1', () => {
  it('from the library or the plugin archives only the own processes’ code channel, not the one of a key whose agent also says session-1', async () => {
    const own = review()
    const keyed = review({ apiKey: 'teamA', message: { channel: 'C1', ts: '2.000001' } })
    const { sessionEnds, archived } = await ends([own, keyed])

    const outcome = await sessionEnds.sessionEnded('session-1')

    expect(outcome).toMatchObject({ kind: 'archived', channel: `C_OF_${own.id}` })
    expect(archived).toEqual([`C_OF_${own.id}`])
  })

  it('from a relayed host archives that host’s channel only', async () => {
    const own = review()
    const hostX = review({ relayDelivery: { key: 'http://127.0.0.1:4000#rpc-1' } })
    const hostY = review({ relayDelivery: { key: 'http://127.0.0.1:40001#rpc-1' } })
    const { sessionEnds, archived } = await ends([own, hostX, hostY])

    await sessionEnds.sessionEnded('session-1', { kind: 'host', url: 'http://127.0.0.1:4000' })

    expect(archived).toEqual([`C_OF_${hostX.id}`])
  })

  it('archives the code channel of each card channel the session asked in, and answers for its newest review', async () => {
    const inC1 = review()
    const inC2 = review({ message: { channel: 'C2', ts: '3.000001' } })
    const { sessionEnds, archived } = await ends([inC1, inC2])

    const outcome = await sessionEnds.sessionEnded('session-1')

    expect(archived.sort()).toEqual([`C_OF_${inC1.id}`, `C_OF_${inC2.id}`].sort())
    expect(outcome).toMatchObject({ kind: 'archived', channel: `C_OF_${inC2.id}` })
  })
})
