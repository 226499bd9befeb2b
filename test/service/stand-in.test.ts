import { afterEach, describe, expect, it } from 'vitest'

import { startSandbox } from '../../src/sandbox/index.js'
import { startStandIn } from '../../src/service/stand-in.js'

const closers: (() => Promise<void>)[] = []

afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})

describe('the stand-in as serve and relay start it', () => {
  it('says when its port is taken, and which setting picks another', async () => {
    const other = await startSandbox()
    closers.push(() => other.close())

    await expect(startStandIn({ port: other.port })).rejects.toThrow(
      `the local Slack stand-in could not start: port ${other.port} on 127.0.0.1 is already in use (is another stand-in running, from dsh-slack serve, relay or sandbox?). Stop the other one, or set DSH_SLACK_SANDBOX_PORT to a free port`,
    )
  })

  it('gives the service its page, Web API, tokens and channel', async () => {
    const local = await startStandIn({ port: 0 })
    closers.push(() => local.stop())

    expect(local).toMatchObject({ apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/), webUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/), channel: 'C0SANDBOX01' })
    expect(local.workspaceFile).toBeUndefined()
  })
})
