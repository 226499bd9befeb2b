import { describe, expect, it } from 'vitest'
import { MODES, startRig } from '../support/e2e.js'
import { interactiveElements, postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'

function options(count: number, prefix = 'Option') {
  return Array.from({ length: count }, (_, i) => ({ label: `${prefix} ${i + 1}` }))
}

describe.each(MODES)('question shapes in %s mode', (mode) => {
  it('answers a question with many options from a select menu', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [{ id: 'region', question: 'Which region?', options: options(30, 'Region') }] })
    const message = await postedMessage(slack, channel)

    expect(interactiveElements(message)).toContain('static_select')
    await slack.user(ALICE).choose(message, 'Region 17')

    expect(await answer).toEqual({ answers: [{ id: 'region', selected: ['Region 17'] }] })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toContain('Region 17')
  })

  it('answers a question with more than 100 options through an options-load menu', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [{ id: 'pkg', question: 'Which package?', options: options(250, 'pkg') }] })
    const message = await postedMessage(slack, channel)

    expect(interactiveElements(message)).toContain('external_select')
    await slack.user(ALICE).choose(message, 'pkg 203', { query: '203' })

    expect(await answer).toEqual({ answers: [{ id: 'pkg', selected: ['pkg 203'] }] })
    await settledMessage(slack, channel, message.ts)
  })

  it('answers a multi-select from the ticked checkboxes at Submit', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [{ id: 'langs', question: 'Which languages?', multiSelect: true, options: [{ label: 'TypeScript' }, { label: 'Rust' }, { label: 'Go' }] }] })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    expect(interactiveElements(message)).toContain('checkboxes')
    await alice.toggle(message, 'Rust')
    await alice.toggle(message, 'TypeScript')
    await alice.toggle(message, 'Rust')
    await alice.toggle(message, 'Go')
    await alice.click(message, /^Submit/)

    expect(await answer).toEqual({ answers: [{ id: 'langs', selected: ['TypeScript', 'Go'] }] })
    const final = visibleText(await settledMessage(slack, channel, message.ts))
    expect(final).toContain('TypeScript')
    expect(final).toContain('Go')
  })

  it('answers a multi-select of more than 10 options from a multi-select menu', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [{ id: 'tags', question: 'Which tags?', multiSelect: true, options: options(11, 'tag') }] })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    expect(interactiveElements(message)).toContain('multi_static_select')
    await alice.toggle(message, 'tag 11')
    await alice.toggle(message, 'tag 2')
    await alice.click(message, /^Submit/)

    expect(await answer).toEqual({ answers: [{ id: 'tags', selected: ['tag 2', 'tag 11'] }] })
  })

  it('tells a person who submits nothing to pick something, and keeps the question open', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    void bridge.provider.ask({ questions: [{ id: 'langs', question: 'Which languages?', multiSelect: true, options: [{ label: 'TypeScript' }, { label: 'Rust' }] }] }).catch(() => undefined)
    const message = await postedMessage(slack, channel)

    await slack.user(ALICE).click(message, /^Submit/)

    await slack.waitFor(() => slack.ephemerals(ALICE).length > 0)
    expect((await bridge.store.listPending())).toHaveLength(1)
  })

  it('answers a question without options through the reply modal', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [{ id: 'name', question: 'What should the project be called?' }] })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    await alice.click(message, /Reply/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, '  dsh-slack  ')
    await alice.submit()

    expect(await answer).toEqual({ answers: [{ id: 'name', selected: [], custom: 'dsh-slack' }] })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toContain('dsh-slack')
  })

  it('takes a free-text Other answer instead of the options, refusing a blank one inline', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] })
    const message = await postedMessage(slack, channel)
    const alice = slack.user(ALICE)

    await alice.click(message, /Other/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, '   ')
    const refused = await alice.submit()
    expect(refused).toMatchObject({ response_action: 'errors' })
    expect(Object.values(alice.modalErrors() ?? {})).toHaveLength(1)
    alice.fill(/.*/, 'bun, please')
    await alice.submit()

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: [], custom: 'bun, please' }] })
    expect(alice.modal()).toBeUndefined()
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toContain('bun, please')
  })

  it('answers a skipped question with nothing selected', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const answer = bridge.provider.ask({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] })
    const message = await postedMessage(slack, channel)

    await slack.user(ALICE).click(message, /^Skip/)

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: [] }] })
    await settledMessage(slack, channel, message.ts)
  })
})
