import { describe, expect, it, vi } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import type { StoredMessage } from '../../src/sandbox/model.js'
import { MODES, recordingLogger, startRig } from '../support/e2e.js'
import { interactiveElements, postedMessage, settledMessage, visibleText } from '../support/messages.js'

/**
 * Decision 0081: Slack hears a click's (or a form's) ack once what it
 * changes is in the store, at the latest 2.5 s in; a click that records
 * nothing is acknowledged at once. Each test holds one store method and
 * watches, in order, the store's write and the stand-in's ack.
 */

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Well inside the ack's 2.5 s deadline: an ack sent before the write would be in by now. */
const WHILE_HELD_MS = 600

type Method = keyof AskStore

/**
 * A real store whose chosen methods wait while it is held, or fail (as
 * node-postgres does with the database gone) while it is failing; `log`
 * says, in order, which call was held and which finished. The test adds
 * `acked` when the stand-in gets the ack.
 */
function holdableStore(methods: readonly Method[]) {
  const log: string[] = []
  let gate: Promise<void> | undefined
  let open = () => {}
  const state = { failing: false }
  const inner = new MemoryAskStore()
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      if (!methods.includes(property as Method)) return value.bind(target)
      return async (...args: unknown[]) => {
        if (gate) {
          log.push(`${String(property)} held`)
          await gate
        }
        if (state.failing) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
        const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args)
        log.push(`${String(property)} written`)
        return result
      }
    },
  })
  return Object.assign(state, {
    store,
    log,
    /** Holds the methods from now on; the log starts afresh. */
    hold() {
      log.length = 0
      gate = new Promise<void>((resolve) => (open = resolve))
    },
    release() {
      gate = undefined
      open()
    },
    /** Resolves once a call is held. */
    held: (method: Method) => vi.waitFor(() => expect(log).toContain(`${method} held`), { timeout: 5000, interval: 10 }),
  })
}

describe.each(MODES)('a click in %s mode', (mode) => {
  it('is acknowledged only once its settle is in the store, and counts', async () => {
    const writes = holdableStore(['settle'])
    const { slack, bridge, channel } = await startRig(mode, { state: writes.store })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    writes.hold()

    const click = slack.user(ALICE).click(message, 'pnpm').then(() => void writes.log.push('acked'))
    await writes.held('settle')
    await pause(WHILE_HELD_MS)
    const whileHeld = [...writes.log]
    writes.release()
    await click

    expect(whileHeld).toEqual(['settle held'])
    expect(writes.log).toEqual(['settle held', 'settle written', 'acked'])
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
  })

  it('is acknowledged before its card is updated: a slow chat.update does not hold the ack', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    slack.faults.inject('chat.update', { delayMs: 1500 })

    await slack.user(ALICE).click(message, 'pnpm')
    const atAck = slack.messages(channel).find((m) => m.ts === message.ts)!

    expect(interactiveElements(atAck).length).toBeGreaterThan(0)
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toContain('pnpm')
  })

  it('on a carousel card is acknowledged only once its choice is in the audit trail', async () => {
    const writes = holdableStore(['appendEvent'])
    const { slack, bridge, channel } = await startRig(mode, { state: writes.store })
    const questions = [pm, { id: 'node', question: 'Which Node version?', options: [{ label: '22' }, { label: '24' }] }]
    const record = await bridge.open({ questions })
    const message = await postedMessage(slack, channel)
    writes.hold()

    const click = slack.user(ALICE).click(message, 'npm').then(() => void writes.log.push('acked'))
    await writes.held('appendEvent')
    await pause(WHILE_HELD_MS)
    const whileHeld = [...writes.log]
    writes.release()
    await click

    expect(whileHeld.filter((line) => line !== 'appendEvent held')).toEqual([])
    expect(writes.log.indexOf('acked')).toBeGreaterThan(writes.log.indexOf('appendEvent written'))
    expect((await bridge.store.events(record.id)).filter((e) => e.type === 'chose').map((e) => e.detail?.label)).toEqual(['npm'])
  })

  it('towards a quorum is acknowledged only once the approval is in the store', async () => {
    const writes = holdableStore(['addApproval'])
    const { slack, bridge, channel } = await startRig(mode, { state: writes.store })
    const record = await bridge.open({ questions: [planReviewQuestion('# Plan\n\n1. Do it.')] }, { policy: { approvals: 2 } })
    const card = await postedMessage(slack, channel)
    writes.hold()

    const click = slack.user(ALICE).click(card, 'Approve').then(() => void writes.log.push('acked'))
    await writes.held('addApproval')
    await pause(WHILE_HELD_MS)
    const whileHeld = [...writes.log]
    writes.release()
    await click

    expect(whileHeld).toEqual(['addApproval held'])
    expect(writes.log).toEqual(['addApproval held', 'addApproval written', 'acked'])
    expect((await bridge.store.approvals(record.id)).map((a) => a.by.id)).toEqual([ALICE])
  })

  it('that records nothing (Other… opens a form) is acknowledged at once, even with the store held', async () => {
    const writes = holdableStore(['get', 'settle'])
    const { slack, bridge, channel, restartBridge } = await startRig(mode, { state: writes.store })
    void bridge.provider.ask({ questions: [pm] }).catch(() => undefined)
    const message = await postedMessage(slack, channel)
    // In HTTP mode the click reaches an instance that reads the ask from the (held) store.
    if (mode === 'http') await restartBridge()
    writes.hold()

    await slack.user(ALICE).click(message, /Other/)
    const atAck = [...writes.log]
    writes.release()

    expect(atAck.filter((line) => line.endsWith('written'))).toEqual([])
    await slack.waitFor(() => slack.user(ALICE).modal())
  })

  it('whose write is held past the deadline is acknowledged by then, and counts once the write lands', async () => {
    const writes = holdableStore(['settle'])
    const logger = recordingLogger()
    const { slack, bridge, channel } = await startRig(mode, { state: writes.store, logger })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    writes.hold()

    // Resolves only with an ack: past Slack's 3 s the stand-in rejects it with NOT_ACKNOWLEDGED.
    await slack.user(ALICE).click(message, 'pnpm')
    const atAck = [...writes.log]
    writes.release()

    expect(atAck).toEqual(['settle held'])
    expect(logger.lines).toContainEqual(expect.stringMatching(/^warn a click from U0SANDBOX01: not recorded within 2500 ms/))
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
  })
})

describe.each(MODES)('a submitted form in %s mode', (mode) => {
  it('closes only once its answer is in the store', async () => {
    const writes = holdableStore(['settle'])
    const { slack, bridge, channel } = await startRig(mode, { state: writes.store })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    await alice.click(message, /Other/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'bun, please')
    writes.hold()

    const submitted = alice.submit().then(() => void writes.log.push('acked'))
    await writes.held('settle')
    await pause(WHILE_HELD_MS)
    const whileHeld = [...writes.log]
    const openWhileHeld = alice.modal() !== undefined
    writes.release()
    await submitted

    expect(whileHeld).toEqual(['settle held'])
    expect(openWhileHeld).toBe(true)
    expect(writes.log).toEqual(['settle held', 'settle written', 'acked'])
    expect(alice.modal()).toBeUndefined()
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: [], custom: 'bun, please' }] })
  })

  it('whose settle fails stays open saying it was not recorded, and counts when submitted again', async () => {
    const writes = holdableStore(['settle'])
    const { slack, bridge, channel } = await startRig(mode, { state: writes.store })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    await alice.click(message, /Other/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'bun, please')
    writes.failing = true

    const refused = await alice.submit()

    expect(refused).toMatchObject({ response_action: 'errors' })
    expect(Object.values(alice.modalErrors() ?? {})).toEqual([expect.stringMatching(/not recorded.*try again/)])
    expect(alice.modal()).toBeDefined()
    expect(slack.ephemerals(ALICE, channel)).toEqual([])

    writes.failing = false
    await alice.submit()

    expect(alice.modal()).toBeUndefined()
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: [], custom: 'bun, please' }] })
  })

  it('on the last page of a batch, whose settle fails, keeps the earlier pages for the submission again', async () => {
    const writes = holdableStore(['settle'])
    const { slack, bridge, channel } = await startRig(mode, { state: writes.store })
    // Long option lists do not fit cards: the batch is answered in the form, a page per few questions.
    const many = Array.from({ length: 12 }, (_, n) => ({ id: `q${n}`, question: `Question ${n}?`, options: [{ label: `yes ${n}` }, { label: `no ${n}` }] }))
    const answer = bridge.provider.ask({ questions: many })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    await alice.click(message, /Answer/)
    await slack.waitFor(() => alice.modal())
    let pages = 0
    const chosen: string[] = []
    for (;;) {
      const view = alice.modal()!
      const labels = visibleText({ blocks: view.blocks as StoredMessage['blocks'], text: '' }).match(/yes \d+/g) ?? []
      for (const label of labels) {
        if (chosen.includes(label)) continue
        await alice.choose('modal', new RegExp(`^${label}$`))
        chosen.push(label)
      }
      pages += 1
      if (chosen.length === many.length) break
      await alice.submit()
    }
    writes.failing = true
    const refused = await alice.submit()
    writes.failing = false
    await alice.submit()

    expect(pages).toBeGreaterThan(1)
    expect(refused).toMatchObject({ response_action: 'errors' })
    expect(await answer).toEqual({ answers: many.map((q, n) => ({ id: q.id, selected: [`yes ${n}`] })) })
  })
})

describe('an approval towards a quorum', () => {
  it('is acknowledged once it is counted, before the person is told how far it is: a slow ephemeral does not hold the ack', async () => {
    const { slack, bridge, channel } = await startRig('socket')
    const record = await bridge.open({ questions: [planReviewQuestion('# Plan\n\n1. Do it.')] }, { policy: { approvals: 2 } })
    const card = await postedMessage(slack, channel)
    slack.faults.inject('chat.postEphemeral', { delayMs: 1500 })

    await slack.user(ALICE).click(card, 'Approve')
    const toldAtAck = slack.ephemerals(ALICE, channel).length

    expect(toldAtAck).toBe(0)
    expect((await bridge.store.approvals(record.id)).map((a) => a.by.id)).toEqual([ALICE])
    expect((await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0])).text).toMatch(/1 of 2/)
  })
})
