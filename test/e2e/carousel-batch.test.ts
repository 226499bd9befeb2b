import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MODES, startRig } from '../support/e2e.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { barrier, hookedStore } from '../support/hooked-store.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { postedMessage, settledMessage, visibleText } from '../support/messages.js'
import type { StoredMessage } from '../../src/sandbox/model.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'

/** A short batch: every question single-select with at most three short options, so it shows as cards. */
const SHORT = [
  { id: 'pm', header: 'Tooling', question: 'Which package manager?', options: [{ label: 'pnpm', description: 'fast, strict' }, { label: 'npm' }] },
  { id: 'node', question: 'Which Node version?', options: [{ label: '22' }, { label: '24' }, { label: '25' }] },
  { id: 'lic', question: 'Which licence?', detail: 'For the new package only.', options: [{ label: 'MIT' }, { label: 'Apache-2.0' }] },
]

type Obj = Record<string, unknown>

function carouselOf(message: StoredMessage): { elements: Obj[] } | undefined {
  return (message.blocks ?? []).find((b) => b.type === 'carousel') as { elements: Obj[] } | undefined
}

/** The action_id of the button labelled `label` on card `card` (several cards may show the same label). */
function cardButton(message: StoredMessage, card: number, label: string): string {
  const actions = (carouselOf(message)!.elements[card]!.actions as { action_id: string; text: { text: string } }[])
  return actions.find((a) => a.text.text === label)!.action_id
}

describe.each(MODES)('a short batch as a carousel in %s mode', (mode) => {
  it('shows one card per question with its options as buttons, and no listing besides', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    void bridge.provider.ask({ questions: SHORT }).catch(() => undefined)

    const message = await postedMessage(slack, channel)

    const cards = carouselOf(message)!.elements
    expect(cards.map((c) => (c.title as { text: string }).text)).toEqual(['1. Which package manager?', '2. Which Node version?', '3. Which licence?'])
    expect((cards[0]!.subtitle as { text: string }).text).toBe('Tooling')
    expect((cards[0]!.body as { text: string }).text).toBe('pnpm — fast, strict')
    expect((cards[2]!.body as { text: string }).text).toBe('For the new package only.')
    expect((cards[1]!.actions as { text: { text: string } }[]).map((a) => a.text.text)).toEqual(['22', '24', '25'])
    expect(message.blocks!.filter((b) => b.type === 'rich_text')).toEqual([])
    expect(visibleText(message)).toContain('Answer…')
  })

  it('settles once one person has chosen on every card: each choice is noted privately, another person’s choices stay theirs', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: SHORT })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    const bob = slack.user(BOB)

    await alice.click(message, 'npm', { actionId: cardButton(message, 0, 'npm') })
    const noted = await slack.waitFor(() => slack.ephemerals(ALICE, channel).find((m) => /1 of 3/.test(m.text ?? '')))
    await bob.click(message, '25', { actionId: cardButton(message, 1, '25') })
    await bob.click(message, 'MIT', { actionId: cardButton(message, 2, 'MIT') })
    await alice.click(message, '24', { actionId: cardButton(message, 1, '24') })
    await alice.click(message, 'Apache-2.0', { actionId: cardButton(message, 2, 'Apache-2.0') })

    expect(noted.text).toContain('Which package manager?')
    expect(noted.text).toContain('*npm*')
    expect(await answer).toEqual({
      answers: [
        { id: 'pm', selected: ['npm'] },
        { id: 'node', selected: ['24'] },
        { id: 'lic', selected: ['Apache-2.0'] },
      ],
    })
    const final = await settledMessage(slack, channel, message.ts)
    expect(carouselOf(final)).toBeUndefined()
    const text = visibleText(final)
    expect(text).toMatch(/Answered by/)
    expect(text).toContain(`<@${ALICE}>`)
    for (const line of ['Tooling: ', 'npm', 'Which Node version?: ', '24', 'Which licence?: ', 'Apache-2.0']) expect(text).toContain(line)
    expect(text).not.toContain('25')
  })

  it('says nothing to a person whose two last taps race to settle the batch: both complete it, one settles it', async () => {
    // Both taps are held at the store's settle until both are there, so both complete the draft and race.
    const gate = barrier(2)
    const { slack, bridge, channel } = await startRig(mode, { state: hookedStore(new SqliteAskStore(':memory:'), { settle: () => gate.wait() }) })
    const answer = bridge.provider.ask({ questions: SHORT.slice(0, 2) })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)
    await alice.click(message, 'pnpm', { actionId: cardButton(message, 0, 'pnpm') })
    await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0])

    await Promise.all([alice.click(message, '22', { actionId: cardButton(message, 1, '22') }), alice.click(message, '22', { actionId: cardButton(message, 1, '22') })])

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }, { id: 'node', selected: ['22'] }] })
    await settledMessage(slack, channel, message.ts)
    expect(gate.arrived).toBe(2)
    expect(slack.ephemerals(ALICE, channel).map((m) => m.text)).toEqual([expect.stringContaining('1 of 2')])
  })

  it('a later choice on the same card replaces the earlier one', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: SHORT.slice(0, 2) })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    await alice.click(message, 'pnpm', { actionId: cardButton(message, 0, 'pnpm') })
    await alice.click(message, 'npm', { actionId: cardButton(message, 0, 'npm') })
    await alice.click(message, '22', { actionId: cardButton(message, 1, '22') })

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }, { id: 'node', selected: ['22'] }] })
  })

  it('opens the form with the card choices chosen, where the batch is finished with a skipped question', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: SHORT })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    await alice.click(message, 'npm', { actionId: cardButton(message, 0, 'npm') })
    await slack.waitFor(() => slack.ephemerals(ALICE, channel)[0])
    await alice.click(message, /Answer/)
    const form = await slack.waitFor(() => alice.modal())
    const radios = (form.blocks as Obj[]).filter((b) => b.type === 'input' && (b.element as Obj).type === 'radio_buttons').map((b) => b.element as Obj)
    await alice.choose('modal', 'MIT')
    await alice.submit()

    expect(radios[0]!.initial_option).toMatchObject({ value: '1' })
    expect(radios[1]!.initial_option).toBeUndefined()
    expect(await answer).toEqual({
      answers: [
        { id: 'pm', selected: ['npm'] },
        { id: 'node', selected: [] },
        { id: 'lic', selected: ['MIT'] },
      ],
    })
  })

  it('keeps each choice in the ask’s audit trail', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: SHORT.slice(0, 2) })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    await alice.click(message, 'pnpm', { actionId: cardButton(message, 0, 'pnpm') })
    await alice.click(message, '25', { actionId: cardButton(message, 1, '25') })
    await answer

    const events = await bridge.store.events((await bridge.store.listAsks({ limit: 1 })).asks[0]!.id)
    expect(events.map((e) => e.type)).toEqual(['posted', 'chose', 'chose', 'answered'])
    expect(events[1]).toMatchObject({ by: { id: ALICE }, detail: { question: 0, option: 0, label: 'pnpm' } })
  })

  it('falls back to the listing and the form when a question does not fit a card', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const tooMany = [...SHORT.slice(0, 2), { id: 'db', question: 'Which database?', options: ['PostgreSQL', 'SQLite', 'MySQL', 'none'].map((label) => ({ label })) }]
    const answer = bridge.provider.ask({ questions: tooMany })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    expect(carouselOf(message)).toBeUndefined()
    expect(visibleText(message)).toContain('Which database?')
    expect(visibleText(message)).toContain('Tap Answer… to fill in the form')
    await alice.click(message, /Answer/)
    await slack.waitFor(() => alice.modal())
    await alice.choose('modal', 'SQLite')
    await alice.submit()

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: [] }, { id: 'node', selected: [] }, { id: 'db', selected: ['SQLite'] }] })
  })
})

describe('a carousel batch on instances sharing PostgreSQL', () => {
  let db: FreshDatabase

  beforeAll(async () => {
    db = await freshDatabase()
  })

  afterAll(async () => {
    await db?.drop()
  })

  it('keeps a person’s choices wherever each tap lands: one card on each instance, and the batch settles with both', async () => {
    // HTTP mode, so each delivery goes to the instance the test names.
    const { slack, bridge: first, channel, restartBridge } = await startRig('http', { state: db.url })
    const second = await restartBridge()
    const record = await first.open({ questions: SHORT.slice(0, 2) })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    slack.deliverInteractionsTo({ kind: 'http', url: first.slackEventsUrl!, signingSecret: slack.signingSecret })
    await alice.click(message, 'pnpm', { actionId: cardButton(message, 0, 'pnpm') })
    await slack.waitFor(() => slack.ephemerals(ALICE, channel).find((m) => /1 of 2/.test(m.text ?? '')))
    slack.deliverInteractionsTo({ kind: 'http', url: second.slackEventsUrl!, signingSecret: slack.signingSecret })
    await alice.click(message, '22', { actionId: cardButton(message, 1, '22') })

    const settled = await first.waitForSettlement(record.id, 10_000)
    expect(settled?.settlement?.answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }, { id: 'node', selected: ['22'] }] })
  })
})
