/**
 * The plugin ends the sessions it served (decision 0078), in a real cordis 4
 * context with the harness's seam service: when the harness disposes one
 * while the plugin runs, and all that are left when the plugin unloads
 * (cordis unloads it before the harness disposes its sessions), before its
 * bridge stops. test/harness/plugin-session-end.test.ts runs it in the
 * real harness.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'

import type { SessionEndOutcome } from '../../src/bridge/code-channel/session-end.js'
import type { UserInteractionProvider } from '../../src/contract/index.js'
import { createSlackPlugin } from '../../src/cordis/index.js'
import { TIMING } from '../../src/slack/timing.js'
import { FakeBridge, oneQuestion } from '../http/fake-bridge.js'
import { harnessContext, load, seamOf, stderrLines } from '../support/cordis-context.js'

const config = { botToken: 'xoxb-test', appToken: 'xapp-test', channel: 'C0123ABCDEF', state: ':memory:' }

/** A fake bridge that records each session end and its stop, in order. */
class EndingBridge extends FakeBridge {
  readonly log: string[] = []

  sessionEnded = async (sessionId: string): Promise<SessionEndOutcome> => {
    this.log.push(`end ${sessionId}`)
    return { kind: 'no-code-channel' }
  }

  override async stop(options?: { withdrawOpen?: boolean }): Promise<void> {
    this.log.push('stop')
    await super.stop(options)
  }
}

afterEach(() => {
  vi.restoreAllMocks()
})

async function pluginWithBridge(bridge = new EndingBridge()) {
  const ctx = await harnessContext()
  const fiber = await load(ctx, createSlackPlugin(async () => async () => bridge), config)
  /** Asks a question for `session` and answers it, so the plugin has served that session. */
  const serve = async (session: string) => {
    // The provider itself: the seam's ask() wants the live harness agent the request names.
    const asking = (seamOf(ctx).provider as UserInteractionProvider).ask({ ...oneQuestion, agent: { id: session } })
    await vi.waitFor(async () => expect(await bridge.store.listPending()).toHaveLength(1))
    const [record] = await bridge.store.listPending()
    await bridge.answer(record!.id, ['npm'])
    await asking
  }
  return { ctx, fiber, bridge, serve }
}

describe('the plugin and the end of a session', () => {
  it('ends a served session the harness disposes while the plugin runs, and no session it did not serve', async () => {
    const { ctx, bridge, serve } = await pluginWithBridge()
    await serve('session-a')

    const emit = (ctx as unknown as { emit(name: string, ...args: unknown[]): void }).emit.bind(ctx)
    emit('session/disposed', { id: 'session-other' })
    emit('session/disposed', { id: 'session-a' })

    await vi.waitFor(() => expect(bridge.log).toEqual(['end session-a']))
  })

  it('ends the sessions it served, once each, when it unloads, before its bridge stops', async () => {
    const { fiber, bridge, serve } = await pluginWithBridge()
    await serve('session-a')
    await serve('session-b')
    await serve('session-a')

    await fiber.dispose()

    expect(bridge.log).toEqual(['end session-a', 'end session-b', 'stop'])
  })

  it('stops waiting for a session end that Slack does not finish, says so, and stops its bridge: a run exits all the same', async () => {
    class StuckBridge extends EndingBridge {
      override sessionEnded = (sessionId: string): Promise<SessionEndOutcome> => {
        this.log.push(`end ${sessionId}`)
        return new Promise(() => undefined)
      }
    }
    const { fiber, bridge, serve } = await pluginWithBridge(new StuckBridge())
    await serve('session-a')
    const stderr = stderrLines()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const unloading = fiber.dispose()
      await vi.waitFor(() => expect(bridge.log).toEqual(['end session-a']))
      await vi.advanceTimersByTimeAsync(TIMING.sessionEndsAtUnloadMs)
      await unloading
    } finally {
      vi.useRealTimers()
    }

    expect(bridge.log).toEqual(['end session-a', 'stop'])
    expect(stderr).toEqual(['dsh-slack: stopping without waiting longer for Slack to archive the code channels of 1 ended session(s)\n'])
  })
})
