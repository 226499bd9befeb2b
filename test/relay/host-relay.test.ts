import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AskUserQuestionItem } from '../../src/contract/index.js'
import { createHostHttp } from '../../src/relay/host-http.js'
import { startRelay, type StartRelayOptions } from '../../src/relay/index.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import { startFakeHost, type FakeHost, type FakeHostOptions } from '../support/fake-host.js'
import { FakeBridge } from './support/fake-bridge.js'
import { recordingLogger } from './support/recording-logger.js'
import { FAST, COLOR } from './support/fixtures.js'

const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function setup(options: { host?: FakeHostOptions; relay?: Partial<StartRelayOptions>; bridge?: FakeBridge } = {}) {
  const host = await startFakeHost(options.host)
  cleanups.push(() => host.close())
  const { bridge, relay, logger } = relayTo(host, options)
  await host.waitForConnections(1)
  return { host, bridge, relay, logger }
}

function relayTo(host: FakeHost, options: { relay?: Partial<StartRelayOptions>; bridge?: FakeBridge } = {}) {
  const bridge = options.bridge ?? new FakeBridge()
  const logger = recordingLogger()
  const relay = startRelay({ bridge, hosts: [host.url], logger, timing: FAST, ...options.relay })
  cleanups.push(() => relay.stop())
  return { bridge, relay, logger }
}

async function askOf(bridge: FakeBridge, host: FakeHost, rpcId: string) {
  return vi.waitFor(async () => {
    const record = await bridge.askFor(host.url, rpcId)
    if (!record) throw new Error(`no ask for ${rpcId} yet`)
    return record
  })
}

describe('relay: questions', () => {
  it('posts a question as an ask keyed by the host and rpcId, with the session id as the agent', async () => {
    const { host, bridge } = await setup()

    const { rpcId } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    expect(record.relayDelivery).toEqual({ key: `${host.url}#${rpcId}` })
    expect(record.agent).toEqual({ id: 'session-1' })
    expect(record.questions.map((question) => question.id)).toEqual(['color'])
    expect(bridge.posted).toHaveLength(1)
  })

  it('sends the answer given in Slack back to the host exactly', async () => {
    const { host, bridge } = await setup()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Green'] }] })

    expect(await outcome).toEqual({ kind: 'answered', by: 'client', answer: { answers: [{ id: 'color', selected: ['Green'] }] } })
    expect(host.received[0]?.body).toEqual({
      type: 'client-response',
      rpcId,
      result: { ok: true, value: { sessionId: 'session-1', answer: { answers: [{ id: 'color', selected: ['Green'] }] } } },
    })
  })

  it('tells the bridge an answer was delivered only once the host accepted it, never for one the host no longer held', async () => {
    const { host, bridge, relay } = await setup()
    const kept = host.ask('session-1', [COLOR])
    const lost = host.ask('session-1', [COLOR])
    const keptAsk = await askOf(bridge, host, kept.rpcId)
    const lostAsk = await askOf(bridge, host, lost.rpcId)
    await host.goDown()
    await vi.waitFor(() => expect(relay.status().hosts[0]?.state).not.toBe('connected'))
    host.abort(lost.rpcId)

    await bridge.answer(keptAsk.id, { answers: [{ id: 'color', selected: ['Blue'] }] })
    await bridge.answer(lostAsk.id, { answers: [{ id: 'color', selected: ['Green'] }] })
    expect(bridge.deliveredAsks).toEqual([])
    await host.comeUp()

    expect(await kept.outcome).toMatchObject({ kind: 'answered' })
    await vi.waitFor(() => expect(bridge.closed.map((closed) => closed.id)).toContain(lostAsk.id))
    expect(bridge.deliveredAsks).toEqual([keptAsk.id])
  })

  it('names the host on every ask when it relays several hosts, and none when it relays one', async () => {
    const { host, bridge } = await setup()
    const other = await startFakeHost()
    cleanups.push(() => other.close())
    const both = relayTo(other, { relay: { hosts: [host.url, other.url] } })
    await other.waitForConnections(1)

    const { rpcId } = other.ask('session-1', [COLOR])
    expect((await askOf(both.bridge, other, rpcId)).agent).toEqual({ id: 'session-1', host: new URL(other.url).host })
    const single = host.ask('session-9', [COLOR])
    expect((await askOf(bridge, host, single.rpcId)).agent).toEqual({ id: 'session-9' })
  })

  it('sends a dismissal as the cancelled error, so the agent gets ASK_CANCELLED', async () => {
    const { host, bridge } = await setup()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    await bridge.dismiss(record.id)

    expect(await outcome).toMatchObject({ kind: 'cancelled', by: 'client' })
    expect(host.received[0]?.body).toMatchObject({ result: { ok: false, error: { code: 'cancelled', details: {} } } })
  })

  it('cancels a question that expired in Slack, so the agent is not blocked forever', async () => {
    const { host, bridge } = await setup()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    await bridge.expire(record.id)

    expect(await outcome).toMatchObject({ kind: 'cancelled', by: 'client' })
  })

  it('shows a question with an unknown intent kind as a generic question and says so in the log', async () => {
    const { host, bridge, logger } = await setup()
    const odd = { ...COLOR, intent: { kind: 'poll', approve: 'Blue' } } as unknown as AskUserQuestionItem

    const { rpcId } = host.ask('session-1', [odd])
    const record = await askOf(bridge, host, rpcId)

    expect(record.questions[0]?.intent).toBeUndefined()
    expect(logger.text('warn').some((line) => line.includes('unknown kind "poll"'))).toBe(true)
  })

  it('leaves a request Slack refuses open on the host and logs it with its rpcId', async () => {
    const { host, bridge, logger } = await setup()
    const duplicateLabels: AskUserQuestionItem = { id: 'x', question: 'Which?', options: [{ label: 'A' }, { label: 'A' }] }

    const { rpcId } = host.ask('session-1', [duplicateLabels])

    await vi.waitFor(() => expect(logger.text('error').some((line) => line.includes(rpcId))).toBe(true))
    expect(bridge.posted).toHaveLength(0)
    expect(host.pending()).toEqual([rpcId])
  })

  it('logs why a request cannot be shown without quoting its option labels or question ids', async () => {
    const { host, logger } = await setup()
    const leaky: AskUserQuestionItem = { id: 'secret-id-1', question: 'Which?', options: [{ label: 'my password is hunter2' }, { label: 'my password is hunter2' }] }

    const { rpcId } = host.ask('session-1', [leaky])

    await vi.waitFor(() => expect(logger.text('error').some((line) => line.includes(rpcId))).toBe(true))
    const line = logger.text('error').find((entry) => entry.includes(rpcId))!
    expect(line).toContain('BAD_REQUEST')
    expect(line).toContain('appears twice')
    expect(line).not.toContain('hunter2')
    expect(line).not.toContain('secret-id-1')
  })
})

describe('relay: approvals', () => {
  it('posts an approval with its tool, reason and call id', async () => {
    const { host, bridge } = await setup()

    const { rpcId } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', reason: 'outside the workspace', callId: 'call-1' })
    const record = await askOf(bridge, host, rpcId)

    expect(record.kind).toBe('approval')
    expect(record.approval).toEqual({ toolName: 'bash', reason: 'outside the workspace', callId: 'call-1' })
    expect(record.agent).toEqual({ id: 'session-2' })
  })

  it('attaches the arguments of the tool call the approval is for, from the event stream', async () => {
    const { host, bridge } = await setup()

    const { rpcId } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-1', arguments: { command: 'rm -rf /tmp/cache' } })
    const record = await askOf(bridge, host, rpcId)

    expect(record.approval).toEqual({ toolName: 'bash', callId: 'call-1', arguments: '{"command":"rm -rf /tmp/cache"}' })
  })

  it('reads the call from an assistant message’s tool-call blocks too, keeping the JSON text as written', async () => {
    const { host, bridge } = await setup()
    host.sessionEvent('session-2', {
      type: 'assistant/message',
      data: { turn: 1, step: 1, message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Running it.' }, { type: 'tool-call', id: 'call-9', name: 'bash', arguments: '{"command":"make deploy"}' }] } },
    })

    const { rpcId } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-9' })
    const record = await askOf(bridge, host, rpcId)

    expect(record.approval?.arguments).toBe('{"command":"make deploy"}')
  })

  it('never attaches a call of another session or another tool: the card would show the wrong command', async () => {
    const { host, bridge } = await setup()
    host.sessionEvent('session-other', { type: 'tool/call', data: { callId: 'call-1', name: 'bash', arguments: '{"command":"echo other session"}' } })
    host.sessionEvent('session-2', { type: 'tool/call', data: { callId: 'call-2', name: 'write_file', arguments: '{"path":"x"}' } })

    const first = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-1' })
    const second = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-2' })

    expect((await askOf(bridge, host, first.rpcId)).approval?.arguments).toBeUndefined()
    expect((await askOf(bridge, host, second.rpcId)).approval?.arguments).toBeUndefined()
  })

  it('never redraws a waiting card from a late call of another tool, read once the relay\'s pending updates have settled', async () => {
    const { host, bridge, relay } = await setup()
    const waiting = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-8' })
    const record = await askOf(bridge, host, waiting.rpcId)
    const marker = host.requestApproval({ sessionId: 'session-2', toolName: 'bash', callId: 'call-9' })
    const markerRecord = await askOf(bridge, host, marker.rpcId)

    host.sessionEvent('session-2', { type: 'tool/call', data: { callId: 'call-8', name: 'write_file', arguments: '{"path":"x"}' } })
    host.sessionEvent('session-2', { type: 'tool/call', data: { callId: 'call-9', name: 'bash', arguments: '{"command":"echo marker"}' } })
    await vi.waitFor(() => expect(bridge.shownArguments.map((shown) => shown.id)).toContain(markerRecord.id))
    // Stopping waits for every update the relay has started: nothing can land after this read.
    await relay.stop()

    expect(bridge.shownArguments.filter((shown) => shown.id === record.id)).toEqual([])
    expect((await bridge.store.get(record.id))?.approval?.arguments).toBeUndefined()
  })

  it.each(['allowed-once', 'rejected'] as const)('sends the decision %s with the approval id', async (decision) => {
    const { host, bridge } = await setup()
    const { rpcId, approvalId, outcome } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash' })
    const record = await askOf(bridge, host, rpcId)

    await bridge.decide(record.id, decision)

    expect(await outcome).toEqual({ kind: 'decided', outcome: decision, by: 'client' })
    expect(host.received[0]?.body).toEqual({ type: 'client-response', rpcId, result: { ok: true, value: { sessionId: 'session-2', approvalId, outcome: decision } } })
  })

  it('rejects an approval that expired in Slack: an undecided permission fails closed', async () => {
    const { host, bridge } = await setup()
    const { rpcId, outcome } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash' })
    const record = await askOf(bridge, host, rpcId)

    await bridge.expire(record.id)

    expect(await outcome).toMatchObject({ kind: 'decided', outcome: 'rejected' })
  })

  it.each([
    ['allowed-once', 'allowed'],
    ['rejected', 'rejected'],
  ] as const)('withdraws the card when the approval is %s in the web UI, saying so precisely', async (decision, how) => {
    const { host, bridge } = await setup()
    const { rpcId } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash' })
    const record = await askOf(bridge, host, rpcId)

    host.answerFromWebUi(rpcId, decision)

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how }]))
  })

  it('shows an approval the agent withdrew as cancelled outside Slack', async () => {
    const { host, bridge } = await setup()
    const { rpcId } = host.requestApproval({ sessionId: 'session-2', toolName: 'bash' })
    const record = await askOf(bridge, host, rpcId)

    host.abort(rpcId)

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: 'cancelled' }]))
  })
})

describe('relay: settled elsewhere', () => {
  it('withdraws the message when the question is answered in the web UI first', async () => {
    const { host, bridge } = await setup()
    const { rpcId } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    host.answerFromWebUi(rpcId, { answers: [{ id: 'color', selected: ['Blue'] }] })

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: 'answered' }]))
    expect(host.received).toHaveLength(0)
  })

  it('shows a question the agent aborted as cancelled', async () => {
    const { host, bridge } = await setup()
    const { rpcId } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    host.abort(rpcId)

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: 'cancelled' }]))
  })

  it('does not withdraw a message the person answered when the host confirms it', async () => {
    const { host, bridge } = await setup()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Blue'] }] })
    await outcome

    // question/resolved for our own answer arrives too; give it a moment by waiting for a later event.
    const { rpcId: next } = host.ask('session-1', [COLOR])
    await askOf(bridge, host, next)
    expect(bridge.closed).toEqual([])
  })

  it('says the answer was not delivered when the host settled the request unheard and reported nothing to us', async () => {
    const { host, bridge } = await setup()
    const { rpcId } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)
    await host.goDown()
    // Answered in the web UI while the relay cannot hear: no question/resolved reaches it.
    host.answerFromWebUi(rpcId, { answers: [{ id: 'color', selected: ['Blue'] }] })

    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Green'] }] })
    await host.comeUp()

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: 'undelivered' }]))
    expect(host.received.map((item) => item.receipt)).toEqual([{ accepted: false, reason: 'not-pending' }])
  })

  it('says "answered outside Slack" only after the host reported the request answered', async () => {
    const { host, bridge } = await setup()
    const { rpcId } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)
    host.answerFromWebUi(rpcId, { answers: [{ id: 'color', selected: ['Blue'] }] })
    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: 'answered' }]))

    // A click that lands after the host's report changes nothing more.
    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Green'] }] })

    expect(host.received).toEqual([])
  })

  it('never leaves a refused answer looking answered: bad-response fails the message and is logged with the request', async () => {
    const { host, bridge, logger } = await setup()
    const { rpcId } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    // A label the host never offered: the host's strict checks refuse it.
    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Purple'] }] })

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: { failed: expect.stringContaining('bad-response') } }]))
    expect(logger.text('error').some((line) => line.includes(rpcId) && line.includes(record.id))).toBe(true)
    expect(host.pending()).toEqual([rpcId])
  })
})

describe('relay: restarts', () => {
  it('does not post a replayed request again after the host restarts, and answering still works', async () => {
    const { host, bridge } = await setup()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    await host.restart()
    await host.waitForConnections(1)
    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Blue'] }] })

    expect(await outcome).toMatchObject({ kind: 'answered', by: 'client' })
    expect(bridge.posted).toHaveLength(1)
    expect(host.counters.connections).toBe(2)
  })

  it('says an answer queued across a host restart was not delivered, when the restarted host no longer holds the question', async () => {
    const { host, bridge, relay } = await setup()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)
    await host.goDown({ forgetPending: true })
    await vi.waitFor(() => expect(relay.status().hosts[0]?.state).not.toBe('connected'))

    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Green'] }] })
    await vi.waitFor(() => expect(relay.status().hosts[0]?.outbox).toBe(1))
    await host.comeUp()

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: 'undelivered' }]))
    expect(await outcome).toEqual({ kind: 'forgotten' })
    expect(host.received.map((item) => item.receipt)).toEqual([{ accepted: false, reason: 'not-pending' }])
    expect((await bridge.get(record.id))?.status).toBe('answered')
  })

  it('holds a queued answer until the reconnected host has replayed its request, then sends it', async () => {
    const { host, bridge, relay } = await setup({ relay: { timing: { ...FAST, replayGraceMs: 60_000 } } })
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)
    await host.goDown()
    await vi.waitFor(() => expect(relay.status().hosts[0]?.state).not.toBe('connected'))
    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Green'] }] })
    const release = host.holdReplay()

    await host.comeUp()
    await host.waitForConnections(1)
    // A frame sent after the connection opened is handled after it: the relay has seen the connection.
    const later = host.ask('session-1', [{ ...COLOR, id: 'later' }])
    await askOf(bridge, host, later.rpcId)
    const sentBeforeReplay = host.counters.responses
    release()

    expect(await outcome).toMatchObject({ kind: 'answered', by: 'client' })
    expect(sentBeforeReplay).toBe(0)
  })

  it('withdraws asks the host no longer holds after it restarts', async () => {
    const { host, bridge } = await setup()
    const { rpcId } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    await host.restart({ forgetPending: true })

    await vi.waitFor(() => expect(bridge.closed).toEqual([{ id: record.id, how: 'gone' }]))
  })

  it('keeps an answer given while the host is down and sends it when the host is back', async () => {
    const { host, bridge, relay } = await setup()
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)
    await host.goDown()
    await vi.waitFor(() => expect(relay.status().hosts[0]?.state).not.toBe('connected'))

    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Green'] }] })
    await host.comeUp()

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'color', selected: ['Green'] }] } })
    expect(bridge.closed).toEqual([])
  })

  it('retries a response the host failed with a 5xx while the socket stayed up', async () => {
    const real = createHostHttp(5000)
    let failures = 1
    const http = {
      ...real,
      async postJson(url: string, headers: Record<string, string>, body: unknown) {
        if (url.endsWith('/api/respond') && failures-- > 0) return { status: 503, headers: {}, text: '' }
        return real.postJson(url, headers, body)
      },
    }
    const { host, bridge } = await setup({ relay: { http } })
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)

    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Blue'] }] })

    expect(await outcome).toMatchObject({ kind: 'answered' })
    expect(host.counters.connections).toBe(1)
  })

  it('finds the same ask after dsh-slack restarts on the same state, posting nothing new', async () => {
    const store = new MemoryAskStore()
    const { host, bridge, relay } = await setup({ bridge: new FakeBridge(store) })
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)
    await relay.stop()

    const restarted = relayTo(host, { bridge: new FakeBridge(store) })
    await host.waitForConnections(1)
    await vi.waitFor(() => expect(restarted.logger.text('debug').some((line) => line.includes(`request ${rpcId} is ask ${record.id}`))).toBe(true))
    await restarted.bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Blue'] }] })

    expect(await outcome).toMatchObject({ kind: 'answered' })
    expect(restarted.bridge.posted).toHaveLength(0)
  })

  it('sends an answer given while the relay was away when the host replays the request', async () => {
    const store = new MemoryAskStore()
    const { host, bridge, relay } = await setup({ bridge: new FakeBridge(store) })
    const { rpcId, outcome } = host.ask('session-1', [COLOR])
    const record = await askOf(bridge, host, rpcId)
    await relay.stop()
    await bridge.answer(record.id, { answers: [{ id: 'color', selected: ['Green'] }] })

    relayTo(host, { bridge: new FakeBridge(store) })

    expect(await outcome).toMatchObject({ kind: 'answered', answer: { answers: [{ id: 'color', selected: ['Green'] }] } })
  })
})

describe('relay: the event stream', () => {
  it('skips frames that do not parse and frames it does not use, and keeps relaying', async () => {
    const { host, bridge, logger } = await setup({ host: { noise: true } })

    host.broadcastRaw('{not json')
    host.broadcastRaw(JSON.stringify({ type: 'server-request', rpcId: 'r1', payload: { type: 'question/requested', sessionId: 's', questions: [] } }))
    host.broadcastRaw(JSON.stringify({ type: 'server-request', rpcId: 'r2', payload: { type: 'turn/end', sessionId: 's' } }))
    const { rpcId } = host.ask('session-1', [COLOR])
    await askOf(bridge, host, rpcId)

    expect(logger.text('warn').filter((line) => line.includes('skipped a frame'))).toHaveLength(2)
    expect(logger.text('debug').some((line) => line.includes('ignored a turn/end frame'))).toBe(true)
    expect(bridge.posted).toHaveLength(1)
  })

  it('ignores asks of other hosts in the same store', async () => {
    const { host, bridge } = await setup()
    const other = await bridge.open({ questions: [COLOR], agent: { id: 's' } }, { relayDelivery: { key: 'http://127.0.0.1:1#elsewhere' } })

    await bridge.answer(other.id, { answers: [{ id: 'color', selected: ['Blue'] }] })
    const { rpcId } = host.ask('session-1', [COLOR])
    await askOf(bridge, host, rpcId)

    expect(host.counters.responses).toBe(0)
  })

  it('answers each of several hosts on its own connection', async () => {
    const first = await startFakeHost()
    const second = await startFakeHost()
    cleanups.push(() => first.close(), () => second.close())
    const bridge = new FakeBridge()
    const relay = startRelay({ bridge, hosts: [first.url, second.url], logger: recordingLogger(), timing: FAST })
    cleanups.push(() => relay.stop())
    await Promise.all([first.waitForConnections(1), second.waitForConnections(1)])
    const a = first.ask('session-a', [COLOR])
    const b = second.ask('session-b', [COLOR])
    const recordA = await askOf(bridge, first, a.rpcId)
    const recordB = await askOf(bridge, second, b.rpcId)

    await bridge.answer(recordB.id, { answers: [{ id: 'color', selected: ['Green'] }] })
    await bridge.answer(recordA.id, { answers: [{ id: 'color', selected: ['Blue'] }] })

    expect(await a.outcome).toMatchObject({ answer: { answers: [{ selected: ['Blue'] }] } })
    expect(await b.outcome).toMatchObject({ answer: { answers: [{ selected: ['Green'] }] } })
    expect([first.counters.responses, second.counters.responses]).toEqual([1, 1])
  })

  it('reports each host connected with nothing waiting', async () => {
    const { host, relay } = await setup()

    await vi.waitFor(() => expect(relay.status()).toEqual({ hosts: [{ url: host.url, state: 'connected', outbox: 0 }] }))
  })
})
