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
