import { describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { MAX_LISTED_IDS } from '../../src/policy/policy-input.js'
import { recordingLogger, startRig } from '../support/e2e.js'
import { postedMessage } from '../support/messages.js'

const ALICE = 'U0SANDBOX01'
const plan = () => planReviewQuestion('# Plan\n\nDrop the legacy table.')
const madeUpGroups = (count: number) => Array.from({ length: count }, (_, n) => `S0FAKE${String(n).padStart(5, '0')}`)

describe('an agent\'s approver list cannot multiply Slack calls', () => {
  it('refuses a plan naming 5,000 made-up groups within a second, naming the cap, before any Slack call', async () => {
    const { slack, bridge } = await startRig('socket')

    const started = Date.now()
    const refused = bridge.open({ questions: [plan()] }, { policy: { approvers: madeUpGroups(5000) } })
    await expect(refused).rejects.toMatchObject({ name: 'UserInteractionError', code: 'BAD_REQUEST', message: expect.stringContaining(`at most ${MAX_LISTED_IDS}`) })

    expect(Date.now() - started).toBeLessThan(1000)
    expect(slack.callCount('usergroups.users.list')).toBe(0)
    expect(slack.callCount('chat.postMessage')).toBe(0)
  })

  it('looks each of the cap\'s made-up groups up once over three clicks by someone in none of them, and warns once per group', async () => {
    const logger = recordingLogger()
    const { slack, bridge, channel } = await startRig('socket', { logger })
    await bridge.open({ questions: [plan()] }, { policy: { approvers: madeUpGroups(MAX_LISTED_IDS) } })
    const card = await postedMessage(slack, channel)

    for (let click = 1; click <= 3; click++) {
      await slack.user(ALICE).click(card, 'Approve')
      await slack.waitFor(() => (slack.ephemerals(ALICE).length >= click ? true : undefined))
    }

    expect(slack.ephemerals(ALICE).map((notice) => notice.text)).toEqual(Array(3).fill(expect.stringMatching(/not allowed|only/i)))
    expect(slack.callCount('usergroups.users.list')).toBe(MAX_LISTED_IDS)
    expect(logger.lines.filter((line) => line.includes('could not look up members'))).toHaveLength(MAX_LISTED_IDS)
  })
})
