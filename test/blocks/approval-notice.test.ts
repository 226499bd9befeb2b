import { describe, expect, it } from 'vitest'
import { checkMessagePayload } from '../../blocks/check.js'
import { encodeActionId } from '../../blocks/ids.js'
import { approvalMessage, externalSelectOptions, LIMIT, noticeText, settledApprovalMessage } from '../../blocks/index.js'
import type { ApprovalView } from '../../blocks/view.js'
import { elementsOfType, mrkdwnTexts, NOW, options, question, richText } from './fixtures.js'

const approval: ApprovalView = { askId: 'ap1', locale: 'en', toolName: 'bash', reason: 'rm -rf <!here>', callId: 'call-7', agent: { id: 's1' } }

describe('approvalMessage', () => {
  it('names the tool and reason and offers Allow once (primary) and Reject (danger)', () => {
    const message = approvalMessage(approval)

    expect(richText(message)).toContain('Tool: bash')
    expect(richText(message)).toContain('rm -rf <!here>')
    expect(elementsOfType(message, 'button')).toEqual([
      { type: 'button', action_id: encodeActionId({ kind: 'allow', askId: 'ap1' }), text: { type: 'plain_text', text: 'Allow once', emoji: false }, style: 'primary' },
      { type: 'button', action_id: encodeActionId({ kind: 'reject', askId: 'ap1' }), text: { type: 'plain_text', text: 'Reject', emoji: false }, style: 'danger' },
    ])
    expect(message.text).toBe('s1 asks to use bash')
    expect(checkMessagePayload(message)).toEqual([])
  })

  it('calls a withdrawn or expired tool approval what it is, not a question', () => {
    const withdrawn = mrkdwnTexts(settledApprovalMessage(approval, { kind: 'aborted', at: NOW })).at(-1)
    const expired = mrkdwnTexts(settledApprovalMessage(approval, { kind: 'expired', at: NOW })).at(-1)
    const zh = mrkdwnTexts(settledApprovalMessage({ ...approval, locale: 'zh-CN' }, { kind: 'aborted', at: NOW })).at(-1)

    expect(withdrawn).toMatch(/^The agent withdrew this tool approval request · /)
    expect(expired).toMatch(/^This tool approval expired undecided · /)
    expect(zh).toMatch(/^智能体已撤回这个工具审批请求 · /)
  })

  it('says who decided once settled, or that it was settled elsewhere', () => {
    const allowed = settledApprovalMessage(approval, { kind: 'decided', decision: 'allowed-once', by: { id: 'U0BOB' }, at: NOW })
    const elsewhere = settledApprovalMessage(approval, { kind: 'settled-elsewhere', how: 'answered', at: NOW })

    expect(elementsOfType(allowed, 'button')).toEqual([])
    expect(mrkdwnTexts(allowed).at(-1)).toMatch(/^:white_check_mark: Allowed once by <@U0BOB> · <!date\^/)
    expect(mrkdwnTexts(settledApprovalMessage(approval, { kind: 'decided', decision: 'rejected', by: { id: 'U0BOB' }, at: NOW })).at(-1)).toMatch(/^:no_entry_sign: Rejected by <@U0BOB>/)
    expect(mrkdwnTexts(elsewhere).at(-1)).toMatch(/^Answered outside Slack · /)
  })

  it('says precisely how an approval was decided outside Slack: allowed or rejected, not "answered"', () => {
    const allowed = settledApprovalMessage(approval, { kind: 'settled-elsewhere', how: 'allowed', at: NOW })
    const rejected = settledApprovalMessage(approval, { kind: 'settled-elsewhere', how: 'rejected', at: NOW })

    expect(mrkdwnTexts(allowed).at(-1)).toMatch(/^:white_check_mark: Allowed outside Slack · /)
    expect(mrkdwnTexts(rejected).at(-1)).toMatch(/^:no_entry_sign: Rejected outside Slack · /)
    expect(rejected.text).toMatch(/^:no_entry_sign: Rejected outside Slack/)
  })
})

describe('noticeText', () => {
  it('says an answer was not recorded, without calling the question closed, when this process does not know it', () => {
    expect(noticeText('en', { kind: 'unknown-here' })).toMatch(/^Your answer was not recorded: this question came from another dsh-slack process/)
    expect(noticeText('en', { kind: 'unknown-here' })).not.toMatch(/closed/)
    expect(noticeText('zh-CN', { kind: 'unknown-here' })).toMatch(/^你的回答没有被记录/)
  })

  it('tells a late clicker who answered, in both languages', () => {
    const outcome = { kind: 'answered' as const, by: { id: 'U0ALICE' }, at: NOW, answers: [] }

    expect(noticeText('en', { kind: 'already-settled', outcome })).toBe('This question was already answered by <@U0ALICE>.')
    expect(noticeText('zh-CN', { kind: 'already-settled', outcome })).toBe('这个问题已由 <@U0ALICE> 回答。')
  })

  it('refuses someone not allowed and says when a question was closed', () => {
    expect(noticeText('en', { kind: 'not-allowed' })).toBe('You are not allowed to answer this question.')
    expect(noticeText('zh-CN', { kind: 'not-allowed' })).toBe('你没有权限回答这个问题。')
    expect(noticeText('en', { kind: 'closed' })).toBe('This question was closed.')
    expect(noticeText('zh-CN', { kind: 'already-settled', outcome: { kind: 'expired', at: NOW } })).toBe('这个问题已关闭。')
  })

  it('tells the person whose answer a host no longer holding the request never got, and what to do', () => {
    expect(noticeText('en', { kind: 'undelivered' })).toMatch(/^Your answer was not delivered: the request was no longer open on the host .*web UI/)
    expect(noticeText('zh-CN', { kind: 'undelivered' })).toMatch(/^你的回答未送达/)
  })
})

describe('externalSelectOptions', () => {
  const many = question({ options: [...options(300), { label: 'Ｐｎｐｍ (Recommended)' }] })

  it('returns at most LIMIT.externalSelectOptions options, valued by index', () => {
    const { options: shown } = externalSelectOptions(many, '')

    expect(shown).toHaveLength(LIMIT.externalSelectOptions)
    expect(shown[5]).toEqual({ text: { type: 'plain_text', text: 'Option 5', emoji: false }, value: '5' })
  })

  it('filters by what was typed, folding case and width', () => {
    expect(externalSelectOptions(many, 'pnpm').options.map((o) => o.value)).toEqual(['300'])
    expect(externalSelectOptions(many, 'option 29').options.map((o) => o.value)).toEqual(['29', ...Array.from({ length: 10 }, (_, i) => String(290 + i))])
  })
})
