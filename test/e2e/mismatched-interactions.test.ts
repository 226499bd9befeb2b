/**
 * Correctly signed interactions that do not fit the ask they name (a control
 * of another kind of ask, a question index that does not exist), sent to the
 * real bridge in HTTP mode as Slack would send them. Each is acknowledged,
 * logged as a warning and changes nothing; a fitting one still works, so the
 * refusals are not an endpoint that refuses everything.
 */
import { describe, expect, it } from 'vitest'
import { encodeActionId, encodeCallbackId, encodeInputBlockId, type ActionRef, type ViewRef } from '../../blocks/ids.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { signRequest } from '../../src/sandbox/index.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { recordingLogger, startRig } from '../support/e2e.js'

const USER = { id: 'U0SANDBOX01', username: 'alice', name: 'alice', team_id: 'T0SANDBOX01' }
const plain = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }
const multi = { id: 'tools', question: 'Which tools?', multiSelect: true, options: [{ label: 'lint' }, { label: 'test' }] }
const plan = {
  id: 'plan-review',
  question: 'Approve this plan?',
  detail: '# Plan\n\n1. Do it',
  options: [{ label: 'Approve' }, { label: 'Keep planning' }],
  intent: { kind: 'plan-review' as const, approve: 'Approve' },
}

async function rig() {
  const logger = recordingLogger()
  const { slack, bridge, channel } = await startRig('http', { logger })
  /** Posts a payload signed with the app's real signing secret, as Slack does. */
  const deliver = async (payload: unknown) => {
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString()
    const timestamp = Math.floor(Date.now() / 1000)
    const response = await fetch(bridge.slackEventsUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signRequest(slack.signingSecret, timestamp, body) },
      body,
    })
    return response.status
  }
  const click = (record: AskRecord, ref: ActionRef, triggerId = '1.2.abc') =>
    deliver({
      type: 'block_actions',
      user: USER,
      team: { id: 'T0SANDBOX01' },
      trigger_id: triggerId,
      container: { type: 'message', message_ts: record.message!.ts, channel_id: channel, is_ephemeral: false },
      channel: { id: channel, name: 'agents' },
      message: { type: 'message', ts: record.message!.ts, text: 'question' },
      actions: [{ type: 'button', action_id: encodeActionId(ref), block_id: 'b', value: '0', action_ts: '1.2' }],
    })
  const submit = (ref: ViewRef, values: Record<string, Record<string, unknown>>) =>
    deliver({ type: 'view_submission', user: USER, team: { id: 'T0SANDBOX01' }, trigger_id: '1.2.abc', view: { id: 'V0FORGED01', type: 'modal', callback_id: encodeCallbackId(ref), state: { values } } })
  const typed = (askId: string, question: number, text: string) => ({ [encodeInputBlockId({ kind: 'text' })]: { [encodeActionId({ kind: 'other', askId, question })]: { type: 'plain_text_input', value: text } } })
  const warnings = () => logger.lines.filter((line) => line.startsWith('warn') && line.includes('ignored'))
  return { slack, bridge, channel, click, submit, typed, warnings }
}

async function status(bridge: SlackBridge, id: string) {
  return (await bridge.get(id))?.status
}

describe('interactions that do not fit their ask', () => {
  it('ignores an Allow on a plain question instead of settling it with no answer', async () => {
    const { bridge, click, warnings } = await rig()
    const record = await bridge.open({ questions: [plain] })

    expect(await click(record, { kind: 'allow', askId: record.id })).toBe(200)

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()).toHaveLength(1)
    expect(warnings()[0]).toContain('"allow"')
  })

  it('ignores an option button on a tool approval', async () => {
    const { bridge, click, warnings } = await rig()
    const record = await bridge.openApproval({ toolName: 'shell' })

    await click(record, { kind: 'option', askId: record.id, question: 0, option: 0 })

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()).toHaveLength(1)
  })

  it('ignores an Other form for a question index that does not exist, instead of recording every question as skipped', async () => {
    const { bridge, submit, typed, warnings } = await rig()
    const record = await bridge.open({ questions: [plain] })

    expect(await submit({ kind: 'other-modal', askId: record.id, question: 3 }, typed(record.id, 3, 'yarn'))).toBe(200)

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()[0]).toContain('question 3')
  })

  it('ignores a Request changes form on a plain question', async () => {
    const { bridge, submit, typed, warnings } = await rig()
    const record = await bridge.open({ questions: [plain] })

    await submit({ kind: 'feedback-modal', askId: record.id }, typed(record.id, 0, 'do it differently'))

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()).toHaveLength(1)
  })

  it('ignores a Request changes button on a plain question, opening no modal even with a valid trigger', async () => {
    const { slack, bridge, click, warnings } = await rig()
    const record = await bridge.open({ questions: [plain] })

    await click(record, { kind: 'request-changes', askId: record.id }, slack.issueTriggerId(USER.id))

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()).toHaveLength(1)
    expect(slack.modal(USER.id)).toBeUndefined()
  })

  it('opens the Request changes modal on a plan review (the same click, fitting)', async () => {
    const { slack, bridge, click } = await rig()
    const record = await bridge.open({ questions: [plan] })

    await click(record, { kind: 'request-changes', askId: record.id }, slack.issueTriggerId(USER.id))

    expect((await slack.waitFor(() => slack.modal(USER.id), { timeoutMs: 5000 })).callback_id).toBe(encodeCallbackId({ kind: 'feedback-modal', askId: record.id }))
  })

  it('ignores a one-option pick on a multi-select question', async () => {
    const { bridge, click, warnings } = await rig()
    const record = await bridge.open({ questions: [multi] })

    await click(record, { kind: 'option', askId: record.id, question: 0, option: 1 })

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()).toHaveLength(1)
  })

  it('ignores an option button on a batch, which is answered in its form', async () => {
    const { bridge, click, warnings } = await rig()
    const record = await bridge.open({ questions: [plain, multi] })

    await click(record, { kind: 'option', askId: record.id, question: 1, option: 0 })

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()).toHaveLength(1)
  })

  it('ignores a batch form page that does not exist', async () => {
    const { bridge, submit, warnings } = await rig()
    const record = await bridge.open({ questions: [plain, multi] })

    await submit({ kind: 'batch-modal', askId: record.id, page: 7 }, {})

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()[0]).toContain('no page 7')
  })

  it('ignores a Skip on a plan review, whose card has none', async () => {
    const { bridge, click, warnings } = await rig()
    const record = await bridge.open({ questions: [plan] })

    await click(record, { kind: 'skip', askId: record.id })

    expect(await status(bridge, record.id)).toBe('pending')
    expect(warnings()).toHaveLength(1)
  })
})

describe('interactions that fit their ask (the same payloads, matched)', () => {
  it('takes the Other form of question 0 of a plain question as its custom answer', async () => {
    const { bridge, submit, typed, warnings } = await rig()
    const record = await bridge.open({ questions: [plain] })

    await submit({ kind: 'other-modal', askId: record.id, question: 0 }, typed(record.id, 0, 'yarn'))

    const settled = await bridge.waitForSettlement(record.id, 5000)
    expect(settled?.settlement?.answer).toEqual({ answers: [{ id: 'pm', selected: [], custom: 'yarn' }] })
    expect(warnings()).toHaveLength(0)
  })

  it('takes the Request changes form of a plan review as feedback', async () => {
    const { bridge, submit, typed } = await rig()
    const record = await bridge.open({ questions: [plan] })

    await submit({ kind: 'feedback-modal', askId: record.id }, typed(record.id, 0, 'add tests'))

    const settled = await bridge.waitForSettlement(record.id, 5000)
    expect(settled?.settlement?.answer).toEqual({ answers: [{ id: 'plan-review', selected: [], custom: 'add tests' }] })
  })

  it('takes Allow on a tool approval', async () => {
    const { bridge, click } = await rig()
    const record = await bridge.openApproval({ toolName: 'shell' })

    await click(record, { kind: 'allow', askId: record.id })

    const settled = await bridge.waitForSettlement(record.id, 5000)
    expect(settled?.settlement?.decision).toBe('allowed-once')
  })
})
