import { describe, expect, it } from 'vitest'
import { MODES, startRig } from '../support/e2e.js'

const pm = { id: 'pm', question: 'Which package manager?', header: 'Tooling', options: [{ label: 'pnpm (Recommended)', description: 'fast, strict' }, { label: 'npm' }, { label: 'yarn' }] }

describe.each(MODES)('a single question in %s mode', (mode) => {
  it('answers with the exact label of the button a person taps and shows who answered', async () => {
    const { slack, bridge, channel } = await startRig(mode)
    const alice = slack.user('U0SANDBOX01')

    const answer = bridge.provider.ask({ questions: [pm] })
    const message = await slack.waitFor(() => slack.latestMessage(channel))
    await alice.click(message, 'pnpm (Recommended)')

    expect(await answer).toEqual({ answers: [{ id: 'pm', selected: ['pnpm (Recommended)'] }] })
    const final = await slack.waitFor(() => {
      const latest = slack.latestMessage(channel)
      return latest && JSON.stringify(latest.blocks).includes('U0SANDBOX01') ? latest : undefined
    })
    expect(JSON.stringify(final.blocks)).not.toContain('"type":"button"')
  })
})
