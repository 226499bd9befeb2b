import { describe, expect, it } from 'vitest'
import { AnswerPolicy } from '../../src/bridge/answer-policy.js'
import { silentLogger } from '../../src/log/logger.js'
import { recordingLogger } from '../support/e2e.js'
import { TIMING } from '../../src/slack/timing.js'
import { FakeSlackPort } from '../support/fake-slack-port.js'

describe('AnswerPolicy', () => {
  it('lets anyone answer when no users or groups are configured', async () => {
    const policy = new AnswerPolicy(new FakeSlackPort(), {}, silentLogger)

    expect(await policy.mayAnswer('U123')).toBe(true)
  })

  it('lets allowed users answer and refuses everyone else', async () => {
    const policy = new AnswerPolicy(new FakeSlackPort(), { allowedUsers: ['U1'] }, silentLogger)

    expect(await policy.mayAnswer('U1')).toBe(true)
    expect(await policy.mayAnswer('U2')).toBe(false)
  })

  it('looks group members up once and refreshes them after the cache period', async () => {
    const slack = new FakeSlackPort()
    slack.groups.set('S1', ['U7'])
    let now = 0
    const policy = new AnswerPolicy(slack, { allowedUserGroups: ['S1'] }, silentLogger, () => now)

    expect(await policy.mayAnswer('U7')).toBe(true)
    expect(await policy.mayAnswer('U8')).toBe(false)
    expect(slack.groupLookups).toBe(1)

    slack.groups.set('S1', ['U7', 'U8'])
    now += TIMING.userGroupCacheMs
    expect(await policy.mayAnswer('U8')).toBe(true)
    expect(slack.groupLookups).toBe(2)
  })

  it('keeps the last known members when a refresh fails, so nobody is locked out by a blip', async () => {
    const slack = new FakeSlackPort()
    slack.groups.set('S1', ['U7'])
    let now = 0
    const policy = new AnswerPolicy(slack, { allowedUserGroups: ['S1'] }, silentLogger, () => now)
    await policy.mayAnswer('U7')

    now += TIMING.userGroupCacheMs
    slack.failNext.set('usergroups.users.list', 'ratelimited')

    expect(await policy.mayAnswer('U7')).toBe(true)
  })

  it('looks each failing group up once per failure period, however many clicks, with one warning per group', async () => {
    const slack = new FakeSlackPort()
    const failing = Array.from({ length: 100 }, (_, n) => `S0BAD${n}`)
    const fails = slack.userGroupMembers.bind(slack)
    slack.userGroupMembers = async (group: string) => {
      await fails(group)
      throw new Error('no_such_subteam')
    }
    const logger = recordingLogger()
    let now = 0
    const policy = new AnswerPolicy(slack, {}, logger, () => now)

    for (let click = 0; click < 3; click++) expect(await policy.mayAnswer('U0ALICE', failing)).toBe(false)
    const firstPeriod = slack.groupLookups
    now += TIMING.userGroupFailureCacheMs
    expect(await policy.mayAnswer('U0ALICE', failing)).toBe(false)

    expect(firstPeriod).toBe(100)
    expect(slack.groupLookups).toBe(200)
    expect(logger.lines.filter((line) => line.startsWith('warn could not look up members'))).toHaveLength(100)
  })

  it('remembers a group that was found missing the person: the next click makes no call', async () => {
    const slack = new FakeSlackPort()
    slack.groups.set('S1', ['U7'])
    const policy = new AnswerPolicy(slack, {}, silentLogger, () => 0)

    expect(await policy.mayAnswer('U8', ['S1'])).toBe(false)
    expect(await policy.mayAnswer('U8', ['S1', 'S1'])).toBe(false)

    expect(slack.groupLookups).toBe(1)
  })
})
