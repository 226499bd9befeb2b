import type { IncomingMessage, ServerResponse } from 'node:http'
import type { OpenAskOptions, SlackBridge, SlackHealth } from '../../src/bridge/types.js'
import { UserInteractionError, validateRequest, type AskUserQuestionAnswer, type AskUserQuestionRequest } from '../../src/contract/index.js'
import type { AskRecord, Settlement } from '../../src/store/ask-record.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'

/**
 * A SlackBridge with no Slack behind it, for the service's unit tests: asks
 * go into a real store, "Slack" is a counter of posted messages, and the test
 * plays the person with `answer()` and `dismiss()`. The end-to-end tests use
 * the real bridge against the local stand-in instead.
 */
export class FakeBridge implements SlackBridge {
  readonly store: AskStore
  readonly opened: { request: AskUserQuestionRequest; options: OpenAskOptions | undefined }[] = []
  healthState: SlackHealth = 'connected'
  /** The Slack error the next post fails with (`SLACK_API_ERROR`). */
  failNextPost: string | undefined
  stopped: { withdrawOpen?: boolean } | undefined
  /** When set, posting waits for it (a slow Slack), after the request was accepted. */
  postGate: Promise<void> | undefined
  slackRequestListener?: (req: IncomingMessage, res: ServerResponse) => void
  readonly #listeners = new Set<(record: AskRecord) => void>()
  #posts = 0
  #ids = 0

  constructor(store: AskStore = new MemoryAskStore()) {
    this.store = store
  }

  readonly provider = {
    ask: async (request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> => {
      const record = await this.open(request)
      const onAbort = () => void this.abort(record.id)
      request.signal?.addEventListener('abort', onAbort, { once: true })
      try {
        const settled = (await this.waitForSettlement(record.id, 24 * 3600_000))!
        if (settled.settlement?.answer) return settled.settlement.answer
        throw new UserInteractionError(settled.settlement!.error!.code, settled.settlement!.error!.message)
      } finally {
        request.signal?.removeEventListener('abort', onAbort)
      }
    },
  }

  async open(request: AskUserQuestionRequest, options?: OpenAskOptions): Promise<AskRecord> {
    const valid = validateRequest(request)
    this.opened.push({ request, options })
    if (this.postGate) await this.postGate
    if (this.failNextPost) {
      const error = this.failNextPost
      this.failNextPost = undefined
      throw new UserInteractionError('SLACK_API_ERROR', `Slack refused chat.postMessage: ${error}`)
    }
    this.#ids += 1
    const channel = options?.channel ?? 'C0DEFAULT'
    const record: AskRecord = {
      id: `ask${this.#ids}`,
      kind: 'question',
      questions: valid.questions,
      target: channel,
      status: 'pending',
      createdAt: Date.now(),
      owner: { kind: 'service' },
      message: { channel, ts: `1700000000.00000${++this.#posts}`, permalink: `https://slack.test/archives/${channel}/p${this.#posts}` },
    }
    if (valid.agent) record.agent = { id: valid.agent.id }
    if (options?.timeoutMs !== undefined) record.expiresAt = record.createdAt + options.timeoutMs
    await this.store.insert(record)
    return record
  }

  async openApproval(): Promise<AskRecord> {
    throw new Error('not used by these tests')
  }

  get(id: string): Promise<AskRecord | undefined> {
    return this.store.get(id)
  }

  async waitForSettlement(id: string, timeoutMs: number, signal?: AbortSignal): Promise<AskRecord | undefined> {
    const record = await this.store.get(id)
    if (!record || record.status !== 'pending') return record
    return new Promise((resolve) => {
      const finish = (value: AskRecord) => {
        unwatch()
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        resolve(value)
      }
      const onAbort = () => void this.store.get(id).then((latest) => finish(latest ?? record))
      const unwatch = this.store.watch(id, finish)
      const timer = setTimeout(onAbort, timeoutMs)
      if (signal?.aborted) onAbort()
      else signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  async abort(id: string): Promise<AskRecord | undefined> {
    return this.#settle(id, { status: 'aborted', outcome: { kind: 'aborted', at: Date.now() }, error: { code: 'ASK_ABORTED', message: 'the agent withdrew the question' } })
  }

  async closeElsewhere(): Promise<AskRecord | undefined> {
    throw new Error('not used by these tests')
  }

  async delivered(): Promise<void> {
    throw new Error('not used by these tests')
  }

  async showArguments(): Promise<boolean> {
    throw new Error('not used by these tests')
  }

  /** Plays a person answering in Slack. */
  answer(id: string, selected: string[], by = { id: 'U0ALICE', name: 'alice' }): Promise<AskRecord | undefined> {
    const answers = [{ id: 'q1', selected }]
    return this.#settle(id, { status: 'answered', outcome: { kind: 'answered', by, at: Date.now(), answers }, answer: { answers } })
  }

  /** Plays a person dismissing the question in Slack. */
  dismiss(id: string, by = { id: 'U0BOB', name: 'bob' }): Promise<AskRecord | undefined> {
    return this.#settle(id, { status: 'cancelled', outcome: { kind: 'dismissed', by, at: Date.now() }, error: { code: 'ASK_CANCELLED', message: 'dismissed in Slack by bob' } })
  }

  expire(id: string): Promise<AskRecord | undefined> {
    return this.#settle(id, { status: 'expired', outcome: { kind: 'expired', at: Date.now() }, error: { code: 'ASK_EXPIRED', message: 'nobody answered in time' } })
  }

  async #settle(id: string, settlement: Settlement): Promise<AskRecord | undefined> {
    if (!(await this.store.get(id))) return undefined
    const result = await this.store.settle(id, settlement)
    if (result.won) for (const listener of this.#listeners) listener(result.record)
    return result.record
  }

  onSettled(listener: (record: AskRecord) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  health(): SlackHealth {
    return this.healthState
  }

  async stop(options?: { withdrawOpen?: boolean }): Promise<void> {
    this.stopped = options ?? {}
    if (options?.withdrawOpen) for (const record of await this.store.listPending()) await this.abort(record.id)
  }
}

/** Questions the tests ask: one single-select question. */
export const oneQuestion = {
  questions: [{ id: 'q1', question: 'Which package manager?', options: [{ label: 'pnpm (Recommended)' }, { label: 'npm' }] }],
}
