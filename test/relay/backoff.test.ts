import { describe, expect, it } from 'vitest'
import { backoffDelay, formatDelay } from '../../src/relay/backoff.js'
import { externalKeyFor, hostEndpoints, rpcIdFromExternalKey } from '../../src/relay/host-url.js'
import { withKnownIntents } from '../../src/relay/intents.js'

describe('backoffDelay', () => {
  const policy = { initialMs: 500, maxMs: 30_000 }

  it('doubles from the initial delay up to the cap', () => {
    expect([0, 1, 2, 3, 6, 7, 50].map((attempt) => backoffDelay(attempt, policy, () => 1))).toEqual([500, 1000, 2000, 4000, 30_000, 30_000, 30_000])
  })

  it('never waits less than half the nominal delay, whatever the jitter', () => {
    expect([0, 3, 10].map((attempt) => backoffDelay(attempt, policy, () => 0))).toEqual([250, 2000, 15_000])
  })

  it('formats delays for log lines', () => {
    expect([250, 1000, 1500, 30_000].map(formatDelay)).toEqual(['250ms', '1s', '1.5s', '30s'])
  })
})

describe('hostEndpoints', () => {
  it('derives the sockets, respond and login URLs and the Host header from the base URL', () => {
    expect(hostEndpoints('http://127.0.0.1:4000/')).toEqual({
      base: 'http://127.0.0.1:4000',
      authority: '127.0.0.1:4000',
      events: 'ws://127.0.0.1:4000/api/events.mux',
      hostEvents: 'ws://127.0.0.1:4000/api/events.host',
      respond: 'http://127.0.0.1:4000/api/respond',
      access: 'http://127.0.0.1:4000/__dsh/access',
      api: 'http://127.0.0.1:4000/api',
      label: '127.0.0.1:4000',
    })
  })

  it('names a host on a card by its address without the scheme, path included', () => {
    expect(hostEndpoints('https://box.example/dsh/').label).toBe('box.example/dsh')
  })

  it('keeps a path prefix and uses wss for https', () => {
    expect(hostEndpoints('https://box.example/dsh/').events).toBe('wss://box.example/dsh/api/events.mux')
  })

  it("never reads another host's key as its own, even when one port is a prefix of the other", () => {
    const key = externalKeyFor('http://127.0.0.1:40001', 'rpc-1')

    expect(rpcIdFromExternalKey('http://127.0.0.1:4000', key)).toBeUndefined()
    expect(rpcIdFromExternalKey('http://127.0.0.1:40001', key)).toBe('rpc-1')
  })
})

describe('withKnownIntents', () => {
  it('keeps plan reviews and drops unknown intent kinds, naming them', () => {
    const plan = { id: 'plan-review', question: 'Approve?', detail: '# Plan', options: [{ label: 'Approve' }], intent: { kind: 'plan-review' as const, approve: 'Approve' } }
    const poll = { id: 'poll', question: 'Vote?', intent: { kind: 'poll' } as unknown as typeof plan.intent }

    const result = withKnownIntents([plan, poll])

    expect(result.questions).toEqual([plan, { id: 'poll', question: 'Vote?' }])
    expect(result.dropped).toEqual([{ id: 'poll', kind: 'poll' }])
  })
})
