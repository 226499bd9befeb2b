/**
 * A session archived in the real `dsh web` (its `workspace.archiveSession`,
 * what the web UI's archive calls) ends there (decision 0078): the relay
 * hears it on the host stream and archives the session's code channel,
 * with the summary in the plan card's thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startRelay } from '../../src/relay/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { startRig } from '../support/e2e.js'
import { startDshWeb, type DshWeb } from '../support/harness/dsh-web.js'
import { findRealHarness, HARNESS_BUILD_TIMEOUT_MS } from '../support/harness/real-harness.js'
import { startScriptedModel, type ScriptedModel } from '../support/harness/scripted-model.js'
import { FAST } from './support/fixtures.js'
import { recordingLogger } from './support/recording-logger.js'
import { codeChannelOfSession } from '../support/code-channels.js'

const BOB = 'U0SANDBOX02'
const PLAN = '# Plan: rotate the keys\n\n1. Issue the new key.\n2. Revoke the old one.\n'
const availability = await findRealHarness()
if (availability.skip) console.log(`real-host session-end suite skipped: ${availability.skip}`)

describe.skipIf(availability.skip !== undefined)('relay against the real dsh web: a session archived in the web UI', { timeout: 90_000 }, () => {
  let model: ScriptedModel
  let host: DshWeb
  beforeAll(async () => {
    model = await startScriptedModel()
    host = await startDshWeb(availability.harness!, { model })
  }, HARNESS_BUILD_TIMEOUT_MS)
  afterAll(async () => {
    await host?.close()
    await model?.close()
  })

  it('archives the session’s code channel, with the summary in the plan card’s thread', async () => {
    const { slack, bridge, channel } = await startRig('socket', { owner: 'service' }, { scopes: [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write'] })
    const logger = recordingLogger()
    const relay = startRelay({ bridge, hosts: [host.url], logger, timing: FAST })
    try {
      await slack.waitFor(() => relay.status().hosts.every((h) => h.state === 'connected') || undefined, { timeoutMs: 15_000, message: 'the relay to connect' })
      const session = await host.createSession()
      await host.planMode(session)
      model.script({ toolCalls: [{ name: 'exit_plan_mode', arguments: { plan: PLAN } }] }, { text: 'Rotating.' })
      await host.prompt(session, 'Plan the key rotation.')
      const code = await slack.waitFor(() => {
        const found = codeChannelOfSession(slack, session)
        return found && found.contextBar.length > 0 ? found : undefined
      }, { timeoutMs: 30_000, message: 'the session’s code channel' })
      const card = slack.messages(channel).find((m) => m.ts === code.origin?.ts)!
      await slack.user(BOB).click(card, 'Approve')
      await slack.waitFor(() => slack.messages(code.id).length > 0 || undefined, { timeoutMs: 15_000, message: 'the review’s outcome in the code channel' })

      await host.call('workspace.archiveSession', { sessionId: session })

      await slack.waitFor(() => slack.codeChannels.channels.get(code.id)?.archived || undefined, { timeoutMs: 15_000, message: `the code channel to be archived (relay log: ${logger.text().join(' | ')})` })
      const summary = 'The agent session ended. Its last plan review: Plan approved by bob (U0SANDBOX02).'
      expect(slack.messages(code.id).at(-1)?.text).toBe(summary)
      expect(slack.messages(channel).filter((m) => m.thread_ts === card.ts).map((m) => m.text)).toContain(summary)
    } finally {
      await relay.stop()
    }
  })
})
