import { describe, expect, it } from 'vitest'
import { LIMIT, noticeText } from '../../blocks/index.js'
import { liveSyntax } from './fixtures.js'

describe('the notices of a thread reply', () => {
  it('names the question the reply answered, escaped, so agent text in it pings nobody and links nowhere', () => {
    const text = noticeText('en', { kind: 'reply-recorded', as: 'other', question: 'Deploy <!channel> to <https://evil.example|prod> & <@U0BOSS>?' })

    expect(text).toBe('Recorded your reply as the *Other* answer to “Deploy &lt;!channel&gt; to &lt;https://evil.example|prod&gt; &amp; &lt;@U0BOSS&gt;?”.')
    expect(liveSyntax(text)).toEqual([])
  })

  it(`shortens a long question to LIMIT.homeQuestionText (${LIMIT.homeQuestionText}) characters in the note`, () => {
    const text = noticeText('en', { kind: 'reply-recorded', as: 'other', question: 'q'.repeat(LIMIT.homeQuestionText * 2) })

    expect(text.length).toBeLessThan(LIMIT.homeQuestionText + 100)
    expect(text).toContain('…')
  })

  it('says a plan reply is Request changes feedback, in the bridge’s language', () => {
    expect(noticeText('en', { kind: 'reply-recorded', as: 'feedback' })).toContain('*Request changes* feedback')
    expect(noticeText('zh-CN', { kind: 'reply-recorded', as: 'feedback' })).toContain('*要求修改*')
  })
})

describe('the notice of canvas comments left out of Request changes', () => {
  it('says how many and why, in one and in several, in the bridge’s language', () => {
    expect(noticeText('en', { kind: 'comments-left-out', count: 1 })).toBe('One comment on the plan canvas was left out of what the agent received: its author may not answer this question.')
    expect(noticeText('en', { kind: 'comments-left-out', count: 3 })).toBe('3 comments on the plan canvas were left out of what the agent received: their authors may not answer this question.')
    expect(noticeText('zh-CN', { kind: 'comments-left-out', count: 3 })).toContain('3 条评论')
  })
})
