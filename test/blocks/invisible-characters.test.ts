/**
 * Agent text with bidi controls and invisible characters (issue 48's LOW
 * item, decision 0092): every surface that shows it shows them by code
 * point, as a tool's arguments already did. U+202E (right-to-left
 * override) makes `Approve the exe.txt` of `Approve the \u202etxt.exe`.
 */
import { describe, expect, it } from 'vitest'

import { approvalMessage, batchModal, fallbackText, feedbackModal, homeView, otherModal, questionMessage, settledMessage } from '../../blocks/index.js'
import { batchCarousel } from '../../blocks/batch-carousel.js'
import { shownText } from '../../blocks/text.js'
import { canvasMarkdown } from '../../src/bridge/code-channel/canvas-markdown.js'
import { ask, NOW, planReview, question } from './fixtures.js'

const RLO = '\u202e'
const HIDDEN = ['\u202e', '\u2066', '\u200b', '\u2060', '\ufeff', '\u0007', '\u{e0041}']
const tricky = (text: string) => `${text} \u202etxt.exe\u2066\u200b\u2060\ufeff\u0007\u{e0041}`

/** Every string in a payload. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings)
  return []
}

function expectNoneRaw(payload: unknown): void {
  const all = strings(payload).join('\n')
  for (const char of HIDDEN) expect(all.includes(char), `U+${char.codePointAt(0)!.toString(16)} raw in the payload`).toBe(false)
}

function expectShownByCodePoint(payload: unknown): void {
  expectNoneRaw(payload)
  expect(strings(payload).join('\n')).toContain('⟨U+202E⟩txt.exe')
}

describe('agent text with bidi controls and invisible characters', () => {
  const view = ask({
    agent: { id: tricky('ses'), title: tricky('agent'), cwd: tricky('/repo'), model: tricky('model') },
    questions: [question({ question: tricky('Which file?'), header: tricky('File'), detail: tricky('Pick the **one** you mean'), options: [{ label: tricky('a'), description: tricky('the first') }, { label: 'b' }] })],
  })
  const batch = ask({ questions: [question({ id: 'q1', question: tricky('Which file?'), header: tricky('File'), options: [{ label: 'a' }, { label: 'b' }] }), question({ id: 'q2', question: 'Which branch?', options: [{ label: 'main' }] })] })

  it('shows them by code point on a question card, its thread and its notification text', () => {
    const rendered = questionMessage(view)

    expectShownByCodePoint(rendered)
    expectShownByCodePoint(fallbackText(view))
  })

  it('shows them by code point on a carousel card’s title and subtitle', () => {
    const carousel = batchCarousel(batch)

    expect(carousel).not.toBeNull()
    expectShownByCodePoint(carousel)
    expect(strings(carousel).join('\n')).toContain(`1. Which file? ⟨U+202E⟩txt.exe`)
  })

  it('shows them by code point in the forms, the settled card and the Home tab', () => {
    expectShownByCodePoint(otherModal(view, 0))
    expectShownByCodePoint(batchModal(batch, 0).view)
    expectNoneRaw(feedbackModal(planReview(tricky('# Plan'))))
    expectShownByCodePoint(settledMessage(view, { kind: 'answered', by: { id: 'U0ALICE' }, at: NOW, answers: [{ id: 'q1', selected: [tricky('a')] }] }))
    expectShownByCodePoint(homeView({ locale: 'en', now: NOW, asks: [{ kind: 'question', view, createdAt: NOW, channel: 'C0AGENTS' }] }))
  })

  it('shows them by code point on a tool approval’s tool, reason and session', () => {
    expectShownByCodePoint(approvalMessage({ askId: 'p1', locale: 'en', toolName: tricky('bash'), reason: tricky('clean up'), agent: { id: tricky('ses') } }))
  })

  it('shows them by code point in the plan canvas, before the joiner that breaks @channel is added', () => {
    const markdown = canvasMarkdown(tricky('# Plan\n\n1. Ship it @channel'))

    expectShownByCodePoint(markdown)
    expect(markdown).toContain('@\u200dchannel')
  })

  it('keeps what legitimate text needs: emoji sequences, a flag, Persian’s non-joiner, Devanagari’s joiner, CRLF', () => {
    for (const text of ['👨‍👩‍👧 family', '🏳️‍🌈', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'می\u200cخواهم', 'क्\u200dष', 'one\r\ntwo']) expect(shownText(text)).toBe(text)
  })

  it('shows a joiner between Latin letters, a lone CR and a tag character outside a flag', () => {
    expect(shownText('pay\u200dpal')).toBe('pay⟨U+200D⟩pal')
    expect(shownText('done\rhidden')).toBe('done⟨U+000D⟩hidden')
    expect(shownText('ok\u{e0049}\u{e0047}')).toBe('ok⟨U+E0049⟩⟨U+E0047⟩')
  })

  it('never links to a target with a raw invisible character: the card shows its code point, the canvas shows it as text', () => {
    const target = `https://example.com/${RLO}moc.knab`
    const card = questionMessage(ask({ questions: [question({ detail: `[${target}](${target})` })] }))

    expect(strings(card).join('\n')).not.toContain(RLO)
    expect(canvasMarkdown(`[${target}](${target})`)).not.toMatch(/\]\(https/)
    expect(canvasMarkdown(`[${target}](${target})`)).toContain('⟨U+202E⟩')
  })
})
