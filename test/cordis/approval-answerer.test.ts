import { describe, expect, it } from 'vitest'
import type { OpenApprovalInput } from '../../src/bridge/types.js'
import { slackApprovalAnswerer } from '../../src/cordis/approval-answerer.js'
import type { ApprovalOutcome, HarnessApprovalRequest } from '../../src/cordis/harness-context.js'
import { silentLogger } from '../../src/log/logger.js'
import type { AskRecord, Settlement } from '../../src/store/ask-record.js'
import { FakeBridge } from '../http/fake-bridge.js'
import { OffSwitch } from '../../src/cordis/off-switch.js'

// The plugin's `approval/request` answerer with a fake bridge: what the card
// is given to show, and which outcome the harness gets for each way the card
// can end. The real harness suite (test/harness) runs the same through dsh.

const alice = { id: 'U0ALICE', name: 'alice' }

/** A bridge that records the approvals it is asked to post and lets the test settle them. */
class ApprovalBridge extends FakeBridge {
  readonly approvals: OpenApprovalInput[] = []
  #ids = 0

  // Optional only to match the base class's signature: the answerer always passes it.
  override async openApproval(input?: OpenApprovalInput): Promise<AskRecord> {
    if (!input) throw new Error('openApproval without its input')
    this.approvals.push(input)
    const record: AskRecord = {
      id: `approval${++this.#ids}`,
      kind: 'approval',
      questions: [],
      approval: { toolName: input.toolName, ...(input.arguments !== undefined ? { arguments: input.arguments } : {}) },
      target: 'C0DEFAULT',
      status: 'pending',
      createdAt: Date.now(),
      owner: { kind: 'service' },
      message: { channel: 'C0DEFAULT', ts: `1700000000.00000${this.#ids}` },
    }
    await this.store.insert(record)
    return record
  }

  async settleWhenPosted(settlement: Settlement): Promise<void> {
    for (;;) {
      const [open] = await this.store.listPending()
      if (open) {
        await this.store.settle(open.id, settlement)
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
}

/** An off switch that is never thrown here: these cases are about the card and the verdict. */
const stayOn = () => new OffSwitch(() => undefined, () => undefined)

function toolCall(id: string, name: string, args: unknown) {
  return { type: 'assistant/message', data: { message: { content: [{ type: 'tool-call', id, name, arguments: args }] } } }
}

function request(overrides: Partial<HarnessApprovalRequest> = {}): HarnessApprovalRequest {
  return { agent: { id: 'session-1', session: { id: 'session-1', events: [] } }, toolName: 'bash', callId: 'call-7', ...overrides }
}

async function decide(settlement: Settlement): Promise<ApprovalOutcome> {
  const bridge = new ApprovalBridge()
  const answerer = slackApprovalAnswerer(async () => bridge, stayOn(), silentLogger)
  const outcome = answerer(request(), () => Promise.resolve('unavailable'))
  await bridge.settleWhenPosted(settlement)
  return outcome
}

describe('the plugin’s approval card', () => {
  it('shows the arguments of the session’s call with the same call id and tool', async () => {
    const bridge = new ApprovalBridge()
    const events = [toolCall('call-7', 'bash', { command: 'make deploy' })]

    const outcome = slackApprovalAnswerer(async () => bridge, stayOn(), silentLogger)(request({ agent: { id: 's', session: { events } } }), () => Promise.resolve('unavailable'))
    await bridge.settleWhenPosted({ status: 'answered', decision: 'allowed-once', outcome: { kind: 'decided', by: alice, at: 1, decision: 'allowed-once' } })

    expect(await outcome).toBe('allowed-once')
    expect(bridge.approvals[0]?.arguments).toBe('{"command":"make deploy"}')
  })

  it('ignores a session call with the same call id but another tool: it would show the wrong command', async () => {
    const bridge = new ApprovalBridge()
    // The newest event first in the search: the call of another tool, same id.
    const events = [toolCall('call-7', 'bash', { command: 'make deploy' }), toolCall('call-7', 'write_file', { path: '/etc/passwd' })]

    const outcome = slackApprovalAnswerer(async () => bridge, stayOn(), silentLogger)(request({ agent: { id: 's', session: { events } } }), () => Promise.resolve('unavailable'))
    await bridge.settleWhenPosted({ status: 'answered', decision: 'rejected', outcome: { kind: 'decided', by: alice, at: 1, decision: 'rejected' } })
    await outcome

    expect(bridge.approvals[0]?.arguments).toBe('{"command":"make deploy"}')
  })

  it('shows no arguments when the only call with that id is of another tool', async () => {
    const bridge = new ApprovalBridge()
    const events = [toolCall('call-7', 'write_file', { path: '/etc/passwd' })]

    const outcome = slackApprovalAnswerer(async () => bridge, stayOn(), silentLogger)(request({ agent: { id: 's', session: { events } } }), () => Promise.resolve('unavailable'))
    await bridge.settleWhenPosted({ status: 'answered', decision: 'rejected', outcome: { kind: 'decided', by: alice, at: 1, decision: 'rejected' } })
    await outcome

    expect(bridge.approvals[0]).toEqual({ toolName: 'bash', callId: 'call-7', agent: expect.anything() })
  })
})

describe('the plugin’s approval outcome', () => {
  it('is rejected when a person clicks Reject', async () => {
    expect(await decide({ status: 'answered', decision: 'rejected', outcome: { kind: 'decided', by: alice, at: 1, decision: 'rejected' } })).toBe('rejected')
  })

  it('is allowed-once when a person clicks Allow', async () => {
    expect(await decide({ status: 'answered', decision: 'allowed-once', outcome: { kind: 'decided', by: alice, at: 1, decision: 'allowed-once' } })).toBe('allowed-once')
  })

  it('is rejected when the card is dismissed or expires: an undecided permission fails closed', async () => {
    expect(await decide({ status: 'cancelled', outcome: { kind: 'dismissed', by: alice, at: 1 }, error: { code: 'ASK_CANCELLED', message: 'dismissed' } })).toBe('rejected')
    expect(await decide({ status: 'expired', outcome: { kind: 'expired', at: 1 }, error: { code: 'ASK_EXPIRED', message: 'expired' } })).toBe('rejected')
  })

  it('is cancelled when the card is withdrawn', async () => {
    expect(await decide({ status: 'aborted', outcome: { kind: 'aborted', at: 1 }, error: { code: 'ASK_ABORTED', message: 'withdrawn' } })).toBe('cancelled')
  })
})
