import { describe, expect, it } from 'vitest'
import { recordingLogger, startRig } from '../support/e2e.js'
import { postedMessage } from '../support/messages.js'

const CAROL = 'U0SANDBOX03'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }

describe('two processes on one Slack app, each with its own local store', () => {
  it('tells a person whose click reached the process that does not know the ask that nothing was recorded, without calling it closed, and logs what to configure once per ask', async () => {
    // Nobody may answer, so a click that reaches the asking process is refused and changes nothing either.
    const { slack, bridge, channel, restartBridge } = await startRig('socket', { allowedUsers: ['U0NOBODY'] })
    const otherLog = recordingLogger()
    await restartBridge({ logger: otherLog })
    await slack.waitFor(() => slack.socketConnections() === 2 || undefined)
    const asked = bridge.provider.ask({ questions: [pm] })
    asked.catch(() => undefined)
    const message = await postedMessage(slack, channel)

    // The stand-in hands envelopes to the open connections in turn, as Slack spreads them.
    for (let click = 0; click < 4; click++) {
      await slack.user(CAROL).click(message, 'npm')
      await slack.waitFor(() => slack.ephemerals(CAROL).length === click + 1 || undefined)
    }

    const texts = slack.ephemerals(CAROL).map((notice) => notice.text)
    const unknownHere = texts.filter((text) => /not recorded/.test(text))
    expect(unknownHere).toHaveLength(2)
    for (const text of unknownHere) expect(text).not.toMatch(/closed/)
    expect(texts.filter((text) => /not allowed/.test(text))).toHaveLength(2)
    const warnings = otherLog.lines.filter((line) => line.startsWith('warn') && line.includes('DSH_SLACK_STATE=postgres://'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain((await bridge.store.listPending())[0]!.id)
  })
})
