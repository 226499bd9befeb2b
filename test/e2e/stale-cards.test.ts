import { describe, expect, it } from 'vitest'
import type { SlackBridge } from '../../src/bridge/types.js'
import type { Sandbox } from '../../src/sandbox/index.js'
import type { Settlement } from '../../src/store/ask-record.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { MODES, startRig } from '../support/e2e.js'
import { interactiveElements, postedMessage, settledMessage, visibleText } from '../support/messages.js'

// An instance can stop between settling an ask and updating its card (killed,
// or while Slack was down); until an instance starts again and recovers it,
// the card shows controls for an ask that is closed. A click on it is the
// first sign: it shows how the ask ended.

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }
const answeredByBob: Settlement = {
  status: 'answered',
  outcome: { kind: 'answered', by: { id: 'U0SANDBOX02', name: 'bob' }, at: Date.now(), answers: [{ id: 'pm', selected: ['npm'] }] },
  answer: { answers: [{ id: 'pm', selected: ['npm'] }] },
}

/** An ask `bridge` posted, then settled (bob answered) by an instance that stopped before updating its card. */
async function settledBehindItsCard(slack: Sandbox, bridge: SlackBridge, store: SqliteAskStore, channel: string) {
  const asked = bridge.provider.ask({ questions: [pm] })
  const message = await postedMessage(slack, channel)
  const [open] = await store.listPending()
  await store.settle(open!.id, answeredByBob)
  await asked
  return { message, id: open!.id }
}

/** Until the store records that the ask's card shows how it ended (the update's last step, after Slack has it). */
async function shown(store: SqliteAskStore, id: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!(await store.get(id))?.finalMessageShown) {
    if (Date.now() > deadline) throw new Error(`ask ${id}: its card was never recorded as shown`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe.each(MODES)('a card still showing controls on a closed ask, in %s mode', (mode) => {
  it('shows how the ask ended once a click on the instance that posted it loses to the settlement', async () => {
    const store = new SqliteAskStore(':memory:')
    const { slack, bridge, channel } = await startRig(mode, { state: store })
    const { message, id } = await settledBehindItsCard(slack, bridge, store, channel)

    await slack.user(ALICE).click(message, 'pnpm')
    const told = await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0])
    const card = await settledMessage(slack, channel, message.ts)

    expect(told.text).toMatch(/already/i)
    expect(interactiveElements(card)).toEqual([])
    expect(visibleText(card)).toContain('npm')
    expect(visibleText(card)).not.toContain('pnpm')
    await shown(store, id)
  })
})

describe('a card still showing controls on a closed ask, clicked through another instance', () => {
  it('shows how the ask ended from the ask as read from the store', async () => {
    const store = new SqliteAskStore(':memory:')
    const { slack, bridge, channel, restartBridge } = await startRig('http', { state: store })
    // Clicks reach a second instance on the same store, which will not post the ask.
    await restartBridge()
    const { message, id } = await settledBehindItsCard(slack, bridge, store, channel)

    await slack.user(ALICE).click(message, 'pnpm')
    const card = await settledMessage(slack, channel, message.ts)

    expect(interactiveElements(card)).toEqual([])
    expect(visibleText(card)).toContain('npm')
    await shown(store, id)
  })
})
