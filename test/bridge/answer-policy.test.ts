import { describe, expect, it } from 'vitest'
import { AnswerPolicy } from '../../src/bridge/answer-policy.js'
import { silentLogger } from '../../src/log/logger.js'
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
})
