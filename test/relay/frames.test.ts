import { describe, expect, it } from 'vitest'
import { parseFrame } from '../../src/relay/frames.js'

const frame = (rpcId: string, payload: Record<string, unknown>) => JSON.stringify({ type: 'server-request', rpcId, method: payload.type, payload })

describe('parseFrame', () => {
  it('reads a question request as DSH-HOST.md shows it, dropping keys the harness adds', () => {
    const text = frame('rpc-1', {
      type: 'question/requested',
      sessionId: 'session-1',
      questions: [{ id: 'color', question: 'Which?', options: [{ label: 'Blue', description: 'cool' }], multiSelect: false, extra: 1 }],
    })

    expect(parseFrame(text)).toEqual({
      ok: true,
      frame: { kind: 'question', rpcId: 'rpc-1', sessionId: 'session-1', questions: [{ id: 'color', question: 'Which?', options: [{ label: 'Blue', description: 'cool' }], multiSelect: false }] },
    })
  })

  it('keeps an intent of any kind for the relay to judge', () => {
    const text = frame('rpc-1', { type: 'question/requested', sessionId: 's', questions: [{ id: 'q', question: 'Q?', intent: { kind: 'poll' } }] })

    expect(parseFrame(text)).toMatchObject({ ok: true, frame: { questions: [{ intent: { kind: 'poll' } }] } })
  })

  it('reads a tool/call session event as the call an approval names, serialising object arguments', () => {
    const event = (data: unknown) => frame('e-1', { type: 'session/event', sessionId: 's', event: { type: 'tool/call', seq: 4, time: 1, data } })

    expect(parseFrame(event({ callId: 'c-1', name: 'bash', arguments: '{"command":"ls"}' }))).toEqual({
      ok: true,
      frame: { kind: 'tool-calls', sessionId: 's', calls: [{ callId: 'c-1', toolName: 'bash', arguments: '{"command":"ls"}' }] },
    })
    expect(parseFrame(event({ callId: 'c-2', name: 'bash', arguments: { command: 'pwd' } }))).toMatchObject({ frame: { calls: [{ arguments: '{"command":"pwd"}' }] } })
  })

  it('passes other session events, and tool calls it cannot read, as noise rather than broken frames', () => {
    expect(parseFrame(frame('e-2', { type: 'session/event', sessionId: 's', event: { type: 'assistant/chunk', seq: 5, data: {} } }))).toEqual({ ok: false, ignored: true, method: 'session/event assistant/chunk' })
    expect(parseFrame(frame('e-3', { type: 'session/event', sessionId: 's', event: { type: 'tool/call', data: { name: 'bash' } } }))).toMatchObject({ ok: false, ignored: true })
    expect(parseFrame(frame('e-4', { type: 'session/event', sessionId: 's' }))).toMatchObject({ ok: false, ignored: true })
  })

  it('reads an approval request with its optional call id and reason absent', () => {
    const text = frame('rpc-2', { type: 'approval/requested', sessionId: 's', approvalId: 'a-1', toolName: 'bash' })

    expect(parseFrame(text)).toEqual({ ok: true, frame: { kind: 'approval', rpcId: 'rpc-2', sessionId: 's', approvalId: 'a-1', toolName: 'bash' } })
  })

  it('reads both resolved frames', () => {
    expect(parseFrame(frame('x', { type: 'question/resolved', sessionId: 's', questionRpcId: 'rpc-1', outcome: 'cancelled' }))).toEqual({
      ok: true,
      frame: { kind: 'question-resolved', sessionId: 's', questionRpcId: 'rpc-1', outcome: 'cancelled' },
    })
    expect(parseFrame(frame('y', { type: 'approval/resolved', sessionId: 's', approvalId: 'a-1', outcome: 'unavailable' }))).toEqual({
      ok: true,
      frame: { kind: 'approval-resolved', sessionId: 's', approvalId: 'a-1', outcome: 'unavailable' },
    })
  })

  it('reads the host stream’s archived sessions as the whole set, and a malformed one as broken', () => {
    expect(parseFrame(frame('h', { type: 'host/archived-sessions-changed', archivedSessionIds: ['s-1', 's-2'] }))).toEqual({ ok: true, frame: { kind: 'sessions-archived', sessionIds: ['s-1', 's-2'] } })
    expect(parseFrame(frame('h', { type: 'host/archived-sessions-changed', archivedSessionIds: 's-1' }))).toMatchObject({ ok: false, ignored: false })
    expect(parseFrame(frame('h', { type: 'host/session-removed', sessionId: 's-1' }))).toEqual({ ok: false, ignored: true, method: 'host/session-removed' })
  })

  it('ignores the frames it does not use', () => {
    expect(parseFrame(frame('z', { type: 'session/event', sessionId: 's', event: {} }))).toEqual({ ok: false, ignored: true, method: 'session/event' })
  })

  it.each([
    ['not JSON', '{oops'],
    ['an envelope without rpcId', JSON.stringify({ type: 'server-request', payload: { type: 'question/requested' } })],
    ['an empty question batch', frame('r', { type: 'question/requested', sessionId: 's', questions: [] })],
    ['an approval without a tool name', frame('r', { type: 'approval/requested', sessionId: 's', approvalId: 'a' })],
    ['a question resolved with an unknown outcome', frame('r', { type: 'question/resolved', sessionId: 's', questionRpcId: 'q', outcome: 'maybe' })],
  ])('reports %s as a problem', (_name, text) => {
    expect(parseFrame(text)).toMatchObject({ ok: false, ignored: false, problem: expect.any(String) })
  })
})
