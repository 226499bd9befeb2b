import { describe, expect, it } from 'vitest'
import { MemoryAskStore } from '../../src/store/memory-ask-store.js'
import type { AskStore } from '../../src/store/ask-store.js'
import { MODES, startRig, type Mode } from '../support/e2e.js'
import { interactiveElements, postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

/** A real store that, while `down`, fails every call as node-postgres does when the database refuses connections. */
function storeWithOutage(): { store: AskStore; down: boolean } {
  const state = { down: false }
  const inner = new MemoryAskStore()
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      if (property === 'watch' || property === 'onInsertedElsewhere' || property === 'close') return value.bind(target)
      if (property === 'ping') return async () => !state.down
      return async (...args: unknown[]) => {
        if (state.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return Object.assign(state, { store })
}

describe.each(MODES)('a click while the store is unreachable, in %s mode', (mode) => {
  it('tells the person privately to try again, keeps the question open, and counts their next click once the store is back', async () => {
    const { slack, channel } = await clickThroughOutage(mode, 'the instance that asked')

    expect(slack.ephemerals(ALICE, channel)).toHaveLength(1)
  })

  it('keeps a submitted form open with what was typed and says under it to try again', async () => {
    const outage = storeWithOutage()
    const { slack, bridge, channel } = await startRig(mode, { state: outage.store })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    await alice.click(message, /Other/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'bun, please')
    outage.down = true

    const refused = await alice.submit()
    expect(refused).toMatchObject({ response_action: 'errors' })
    expect(Object.values(alice.modalErrors() ?? {})).toEqual([expect.stringMatching(/not recorded.*try again/)])
    expect(alice.modal()).toBeDefined()

    outage.down = false
    await alice.submit()

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: [], custom: 'bun, please' }] })
  })
})

describe('a click on an ask this instance does not hold in memory, while the store is unreachable', () => {
  it('tells the person to try again (not that the question is unknown), and counts their click once the store is back', async () => {
    // HTTP mode, so the clicks reach the second instance, which never held the ask.
    await clickThroughOutage('http', 'another instance')
  })
})

/**
 * An ask, the store cut, a click (told privately to try again, the question
 * left open), the store back, the click again (counted, the card settled).
 * `another instance`: the clicks reach a second instance on the same store,
 * which never held the ask in memory (as after a restart).
 */
async function clickThroughOutage(mode: Mode, clicksReach: 'the instance that asked' | 'another instance') {
  const outage = storeWithOutage()
  const { slack, bridge, channel, restartBridge } = await startRig(mode, { state: outage.store })
  const answer = bridge.provider.ask({ questions: [pm] })
  const message = await postedMessage(slack, channel)
  if (clicksReach === 'another instance') await restartBridge()
  outage.down = true

  await slack.user(ALICE).click(message, 'pnpm')
  const told = await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0])
  expect(told.text).toMatch(/not recorded.*try again in a moment/)
  expect(interactiveElements(slack.messages(channel).find((m) => m.ts === message.ts)!).length).toBeGreaterThan(0)

  outage.down = false
  await slack.user(ALICE).click(message, 'pnpm')

  expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
  expect(visibleText(await settledMessage(slack, channel, message.ts))).toContain('pnpm')
  return { slack, channel }
}
