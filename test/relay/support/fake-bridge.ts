import type { OpenApprovalInput, OpenAskOptions, SlackBridge } from '../../../src/bridge/types.js'
import { validateRequest, type AskUserQuestionAnswer, type AskUserQuestionRequest } from '../../../src/contract/index.js'
import type { AskRecord, Settlement } from '../../../src/store/ask-record.js'
import { MemoryAskStore } from '../../../src/store/memory-ask-store.js'

type Closing = Parameters<SlackBridge['closeElsewhere']>[1]

const PERSON = { id: 'U0PERSON', name: 'ada' }

/**
 * A SlackBridge with no Slack: asks go into a real memory store, "posting"
 * is counted, and the test settles asks the way a click would. For the
 * relay's unit tests; the end-to-end tests use the real bridge.
 */
export class FakeBridge implements SlackBridge {
  readonly store: MemoryAskStore
  /** Every ask that got a new message. */
  readonly posted: AskRecord[] = []
  readonly closed: { id: string; how: Closing }[] = []
  /** Asks whose answer the relay reported delivered, in order. */
  readonly deliveredAsks: string[] = []
  /** Arguments the relay filled in after the card was posted. */
  readonly shownArguments: { id: string; arguments: string }[] = []
  /** Makes the next `open` fail as Slack would. */
  failNextOpen: Error | undefined
  readonly #listeners = new Set<(record: AskRecord) => void>()
  #next = 1

  constructor(store = new MemoryAskStore()) {
    this.store = store
  }

  readonly provider = { ask: () => Promise.reject(new Error('the fake bridge has no provider')) }

  async open(request: AskUserQuestionRequest, options: OpenAskOptions = {}): Promise<AskRecord> {
    const existing = options.relayDelivery === undefined ? undefined : await this.store.findByExternalKey(options.relayDelivery.key)
    if (existing) return existing
    if (this.failNextOpen) {
      const error = this.failNextOpen
      this.failNextOpen = undefined
      throw error
    }
    const valid = validateRequest(request)
    return this.#post({ kind: 'question', questions: valid.questions, ...(valid.agent ? { agent: { id: valid.agent.id } } : {}) }, options)
  }

  async openApproval(input: OpenApprovalInput, options: OpenAskOptions = {}): Promise<AskRecord> {
    const existing = options.relayDelivery === undefined ? undefined : await this.store.findByExternalKey(options.relayDelivery.key)
    if (existing) return existing
    const { agent, ...approval } = input
    return this.#post({ kind: 'approval', questions: [], approval, ...(agent ? { agent } : {}) }, options)
  }

  async #post(fields: Pick<AskRecord, 'kind' | 'questions' | 'approval' | 'agent'>, options: OpenAskOptions): Promise<AskRecord> {
    const id = `ask-${this.#next++}`
    // As the real bridge does: the relay's host, when it names one, is shown beside the session.
    if (options.host !== undefined) fields = { ...fields, agent: { ...fields.agent, host: options.host } }
    const record: AskRecord = {
      id,
      ...fields,
      target: 'C0TEST',
      message: { channel: 'C0TEST', ts: `${this.#next}.000100` },
      status: 'pending',
      createdAt: Date.now(),
      owner: { kind: 'service' },
      ...(options.relayDelivery !== undefined ? { relayDelivery: options.relayDelivery } : {}),
    }
    await this.store.insert(record)
    this.posted.push(record)
    return record
  }

  get(id: string): Promise<AskRecord | undefined> {
    return this.store.get(id)
  }

  async waitForSettlement(id: string): Promise<AskRecord | undefined> {
    return this.store.get(id)
  }

  async abort(id: string): Promise<AskRecord | undefined> {
    await this.settle(id, { status: 'aborted', outcome: { kind: 'aborted', at: Date.now() }, error: { code: 'ASK_ABORTED', message: 'withdrawn' } })
    return this.store.get(id)
  }

  async closeElsewhere(id: string, how: Closing): Promise<AskRecord | undefined> {
    this.closed.push({ id, how })
    const at = Date.now()
    const settlement: Settlement =
      typeof how === 'string'
        ? { status: how === 'cancelled' ? 'cancelled' : how === 'gone' || how === 'undelivered' ? 'aborted' : 'answered', outcome: { kind: 'settled-elsewhere', at, how } }
        : { status: 'failed', outcome: { kind: 'failed', at, reason: how.failed } }
    await this.settle(id, settlement)
    return this.store.get(id)
  }

  async delivered(id: string): Promise<void> {
    this.deliveredAsks.push(id)
  }

  async showArguments(id: string, args: string): Promise<boolean> {
    if (!(await this.store.attachApprovalArguments(id, args))) return false
    this.shownArguments.push({ id, arguments: args })
    return true
  }

  onSettled(listener: (record: AskRecord) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  health() {
    return 'connected' as const
  }

  async stop(): Promise<void> {}

  // ---- what a person does in Slack ----------------------------------------

  answer(id: string, answer: AskUserQuestionAnswer) {
    return this.settle(id, { status: 'answered', outcome: { kind: 'answered', by: PERSON, at: Date.now(), answers: answer.answers }, answer })
  }

  dismiss(id: string) {
    return this.settle(id, { status: 'cancelled', outcome: { kind: 'dismissed', by: PERSON, at: Date.now() }, error: { code: 'ASK_CANCELLED', message: 'dismissed' } })
  }

  decide(id: string, decision: 'allowed-once' | 'rejected') {
    return this.settle(id, { status: 'answered', outcome: { kind: 'decided', by: PERSON, at: Date.now(), decision }, decision })
  }

  expire(id: string) {
    return this.settle(id, { status: 'expired', outcome: { kind: 'expired', at: Date.now() }, error: { code: 'ASK_EXPIRED', message: 'expired' } })
  }

  async settle(id: string, settlement: Settlement) {
    const result = await this.store.settle(id, settlement)
    if (result.won) for (const listener of this.#listeners) listener(result.record)
    return result
  }

  /** The ask posted for a host request. */
  async askFor(hostUrl: string, rpcId: string): Promise<AskRecord | undefined> {
    return this.store.findByExternalKey(`${hostUrl}#${rpcId}`)
  }
}
