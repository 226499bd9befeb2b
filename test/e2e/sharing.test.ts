import { describe, expect, it } from 'vitest'
import type { WorkspaceChange } from '../../src/sandbox/model.js'
import { SqliteAskStore } from '../../src/store/sqlite-ask-store.js'
import { MODES, startRig } from '../support/e2e.js'
import { barrier, hookedStore } from '../support/hooked-store.js'
import { liveMentions, postedMessage, settledMessage, visibleText } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

describe.each(MODES)('a shared approval channel in %s mode', (mode) => {
  it('settles twenty simultaneous clicks once, updates the message once, and tells the others who won', async () => {
    // Every click is held at the store's settle until all twenty have got
    // there, so they race in the atomic claim itself, not in the read before it.
    const gate = barrier(20)
    const { slack, bridge, channel } = await startRig(mode, { state: hookedStore(new SqliteAskStore(':memory:'), { settle: () => gate.wait() }) })
    const updates: WorkspaceChange[] = []
    slack.workspace.on('change', (change: WorkspaceChange) => {
      if (change.type === 'message_updated') updates.push(change)
    })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    const people = Array.from({ length: 20 }, (_, i) => `U0CLICK${String(i).padStart(4, '0')}`)

    await Promise.all(people.map((id, i) => slack.user(id).click(message, i % 2 === 0 ? 'npm' : 'pnpm')))

    const result = await answer
    await settledMessage(slack, channel, message.ts)
    await slack.waitFor(() => people.reduce((count, id) => count + slack.ephemerals(id).length, 0) === 19 || undefined, { timeoutMs: 5000 })
    expect(gate.arrived).toBeGreaterThan(1)
    expect(result.answers).toHaveLength(1)
    expect(['npm', 'pnpm']).toContain(result.answers[0]!.selected[0])
    expect(updates).toHaveLength(1)
    const winner = people.find((id) => slack.ephemerals(id).length === 0)!
    expect(visibleText(slack.messages(channel).find((m) => m.ts === message.ts)!)).toContain(winner)
    for (const id of people.filter((p) => p !== winner)) expect(slack.ephemerals(id)[0]!.text).toContain(winner)
  })

  it('refuses someone who is not allowed to answer, privately, and keeps the question open', async () => {
    const { slack, bridge, channel } = await startRig(mode, { allowedUsers: [ALICE] })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)

    await slack.user(BOB).click(message, 'npm')
    const refusal = await slack.waitFor(() => slack.ephemerals(BOB).at(-1))
    await slack.user(ALICE).click(message, 'pnpm')

    expect(refusal.text).toMatch(/not allowed|cannot answer|only/i)
    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    expect(visibleText(await settledMessage(slack, channel, message.ts))).toContain(ALICE)
  })

  it('lets members of an allowed user group answer', async () => {
    const { slack, bridge, channel } = await startRig(mode, { allowedUserGroups: ['S0REVIEWERS'] }, {})
    slack.createUserGroup({ id: 'S0REVIEWERS', handle: 'reviewers', users: [BOB] })
    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)

    await slack.user(ALICE).click(message, 'npm')
    await slack.waitFor(() => slack.ephemerals(ALICE).at(-1))
    await slack.user(BOB).click(message, 'pnpm')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
  })

  it('asks a person directly in a DM when the channel is a user id', async () => {
    const { slack, bridge } = await startRig(mode, { channel: ALICE })
    const answer = bridge.provider.ask({ questions: [pm] })

    const dm = await slack.waitFor(() => [...slack.workspace.channels.values()].find((c) => c.isIm && c.imUser === ALICE && slack.messages(c.id).length > 0))
    await slack.user(ALICE).click(await postedMessage(slack, dm.id), 'npm')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
  })

  it('mentions the configured user group in the notification text, and nothing the agent wrote pings anyone', async () => {
    const { slack, bridge, channel } = await startRig(mode, { mention: 'S0REVIEWERS' })

    void bridge.provider.ask({ questions: [{ id: 'q', question: 'Deploy now? <!channel> @here <@U0SANDBOX02>', options: [{ label: '<!here> yes' }, { label: 'no' }] }] }).catch(() => undefined)
    const message = await postedMessage(slack, channel)

    expect(message.text).toContain('<!subteam^S0REVIEWERS>')
    expect(new Set(liveMentions(message))).toEqual(new Set(['<!subteam^S0REVIEWERS>']))
  })
})
