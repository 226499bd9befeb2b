import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkProperty } from '../support/property-runs.js'
import { checkMessagePayload, checkViewPayload } from '../../blocks/check.js'
import {
  approvalMessage,
  approvalOverflow,
  batchModal,
  externalSelectOptions,
  fallbackText,
  feedbackModal,
  LIMIT,
  otherModal,
  questionMessage,
  settledApprovalMessage,
  settledMessage,
} from '../../blocks/index.js'
import { isSafeUrl, labelShowsTarget } from '../../blocks/text.js'
import type { ApprovalView, AskView, Outcome, QuestionView } from '../../blocks/view.js'
import { links, liveSyntax, mrkdwnTexts } from './fixtures.js'

const INJECTIONS = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '@channel',
  '@here',
  '<@U123>',
  '<#C123>',
  '<!subteam^S1>',
  '<https://evil.example|bank.com>',
  '[bank.com](https://evil.example)',
  '[x](javascript:alert(1))',
  '<javascript:alert(1)>',
  '&lt;!channel&gt;',
  '*bold* _it_ ~s~ `c`',
  'مرحبا بالعالم',
  'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '𝕏𠀀𝄞',
  '\uD800',
  '',
  '   ',
]

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 1, arbitrary: fc.constantFrom(...INJECTIONS).map((s) => s.repeat(400)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }).map((s) => s.repeat(5000)) },
)

/** A GFM table of agent text (cells with injections, emoji and empties), sometimes past Slack's table limits, in a list or a quote. */
const table = fc
  .tuple(fc.integer({ min: 1, max: LIMIT.tableCells + 2 }), fc.integer({ min: 0, max: 12 }), fc.array(text, { minLength: 1, maxLength: 30 }), fc.constantFrom('', '  ', '> '))
  .map(([columns, rows, words, indent]) => {
    const line = (r: number) => `${indent}| ${Array.from({ length: columns }, (_, c) => words[(r * columns + c) % words.length]!.replace(/[\r\n|]/g, ' ')).join(' | ')} |`
    const lines = [line(0), `${indent}|${' :-: |'.repeat(columns)}`, ...Array.from({ length: rows }, (_, r) => line(r + 1))].join('\n')
    // Indented by two spaces, the table belongs to a list item.
    return indent === '  ' ? `- item\n\n${lines}` : lines
  })

const markdown = fc
  .array(
    fc.oneof(
      text,
      table,
      fc.constantFrom('# Heading', '- a\n- b\n  - c', '1. x\n2. y', '```\ncode <!here>\n```', '> quote', '| a | b |\n|---|---|\n| 1 | 2 |', '---', '![i](https://x.example/i.png)', '[^1]\n\n[^1]: note', '[ref]\n\n[ref]: javascript:alert(1)'),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join('\n\n'))

const option = fc.record({ label: text, description: fc.option(text, { nil: undefined }) }).map((o) => (o.description === undefined ? { label: o.label } : o))

function questionArb(maxOptions: number): fc.Arbitrary<QuestionView> {
  return fc.record({
    id: fc.string({ maxLength: 8 }),
    question: text,
    detail: fc.option(markdown, { nil: undefined }),
    header: fc.option(text, { nil: undefined }),
    options: fc.oneof(fc.array(option, { maxLength: 12 }), fc.integer({ min: 0, max: maxOptions }).map((n) => Array.from({ length: n }, (_, i) => ({ label: `${i} <!here>` })))),
    multiSelect: fc.boolean(),
    intent: fc.option(fc.constantFrom({ kind: 'plan-review', approve: '0 <!here>' }, { kind: 'plan-review', approve: 'nope' }, { kind: 'other' }), { nil: undefined }),
  }).map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as unknown as QuestionView)
}

const agent = fc.option(fc.record({ id: text, title: fc.option(text, { nil: undefined }), cwd: fc.option(text, { nil: undefined }) }), { nil: undefined })

const askArb = fc.record({
  askId: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  locale: fc.constantFrom('en' as const, 'zh-CN' as const),
  questions: fc.oneof({ weight: 3, arbitrary: fc.array(questionArb(500), { minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: fc.array(questionArb(150), { minLength: 2, maxLength: 40 }) }),
  agent,
  mention: fc.option(fc.constantFrom('U0ABC', 'S0GRP', 'here', '<!channel>'), { nil: undefined }),
  expiresAt: fc.option(fc.integer({ min: 0, max: 4_000_000_000_000 }), { nil: undefined }),
}).map((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as unknown as AskView)

const person = fc.record({ id: fc.constantFrom('U0ALICE', 'W0BOB', '<!channel>', ''), name: fc.option(text, { nil: undefined }) }).map((p) => (p.name === undefined ? { id: p.id } : p))

function outcomeArb(view: AskView): fc.Arbitrary<Outcome> {
  const at = fc.integer({ min: 0, max: 4_000_000_000_000 })
  const answers = fc.tuple(...view.questions.map((q) => fc.oneof(fc.constant({ id: q.id, selected: q.options.slice(0, 3).map((o) => o.label) }), text.map((custom) => ({ id: q.id, selected: [], custom })), fc.constant({ id: q.id, selected: [] as string[] }))))
  return fc.oneof(
    fc.record({ kind: fc.constant('answered' as const), by: person, at, answers: answers.map((a) => [...a]) }),
    fc.record({ kind: fc.constant('dismissed' as const), by: person, at }),
    fc.record({ kind: fc.constantFrom('aborted' as const, 'expired' as const, 'stopped' as const), at }),
    fc.record({ kind: fc.constant('settled-elsewhere' as const), at, how: fc.constantFrom('answered' as const, 'cancelled' as const, 'allowed' as const, 'rejected' as const, 'gone' as const, 'undelivered' as const) }),
    fc.record({ kind: fc.constant('failed' as const), at, reason: text }),
    fc.record({ kind: fc.constant('decided' as const), by: person, at, decision: fc.constantFrom('allowed-once' as const, 'rejected' as const) }),
  )
}

const TRUSTED = ['<@U0ABC>', '<!subteam^S0GRP>', '<@U0ALICE>', '<@W0BOB>']

/**
 * Runs for the properties that render a whole ask. Each run costs about 25 ms
 * for one question and 150–300 ms for a batch (splitting its long texts
 * between graphemes is most of it, up to BODY_CAP characters), so these are
 * bounded by time as well: as many runs as fit in a few seconds, with a
 * fresh seed each run (printed on failure). The biggest shapes are covered on
 * every run by the fixed worst cases at the end.
 */
const ASK_RUNS = 200

/** The escaping and link rules, for any payload. */
function expectSafe(payload: unknown, topLevel?: string): void {
  for (const t of [...mrkdwnTexts(payload), ...(topLevel === undefined ? [] : [topLevel])]) expect(liveSyntax(t, TRUSTED)).toEqual([])
  for (const l of links(payload)) {
    expect(isSafeUrl(l.url)).toBe(true)
    if (l.text !== undefined) expect(labelShowsTarget(l.text, l.url)).toBe(true)
  }
}

function expectMessage(message: { text: string; blocks: unknown[] }): void {
  expect(checkMessagePayload(message)).toEqual([])
  expect(message.text.length).toBeLessThanOrEqual(LIMIT.topLevelText)
  expectSafe(message.blocks, message.text)
}

function expectView(view: unknown): void {
  expect(checkViewPayload(view)).toEqual([])
  expectSafe(view)
}

describe('any request renders within Slack limits, with no live mention or disguised link', () => {
  it('questionMessage: the card and every thread part', () => {
    checkProperty(
      fc.property(askArb, (view) => {
        const rendered = questionMessage(view)
        expectMessage(rendered.message)
        for (const part of rendered.thread) expectMessage(part)
        if (rendered.file !== undefined) expect(rendered.thread.length).toBeLessThanOrEqual(LIMIT.threadParts)
      }),
      { runs: ASK_RUNS, timeLimitMs: 3000 },
    )
  })

  it('settledMessage, for every outcome', () => {
    checkProperty(
      fc.property(askArb.chain((view) => fc.tuple(fc.constant(view), outcomeArb(view))), ([view, outcome]) => {
        expectMessage(settledMessage(view, outcome))
      }),
      { runs: ASK_RUNS, timeLimitMs: 3000 },
    )
  })

  it('otherModal, feedbackModal and every page of batchModal', () => {
    checkProperty(
      fc.property(askArb, (view) => {
        expectView(otherModal(view, 0))
        expectView(feedbackModal(view))
        // Page 0 is rendered once: every batchModal call lays out all the pages.
        const first = batchModal(view, 0)
        const seen: number[] = []
        for (let p = 0; p < first.pageCount; p++) {
          const page = p === 0 ? first : batchModal(view, p)
          expectView(page.view)
          seen.push(...page.questions)
        }
        expect(seen).toEqual(view.questions.map((_, i) => i))
      }),
      { runs: ASK_RUNS, timeLimitMs: 3000 },
    )
  })

  it('approvalMessage and settledApprovalMessage', () => {
    const approval = fc.record({ askId: fc.constant('ap1'), locale: fc.constantFrom('en' as const, 'zh-CN' as const), toolName: text, reason: fc.option(text, { nil: undefined }), callId: fc.option(text, { nil: undefined }), arguments: fc.option(fc.oneof(text, text.map((command) => JSON.stringify({ command, cwd: '/tmp' }))), { nil: undefined }), agent, mention: fc.option(fc.constantFrom('U0ABC', '<!here>'), { nil: undefined }) })
      .map((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as unknown as ApprovalView)
    checkProperty(
      fc.property(approval, outcomeArb({ askId: 'x', locale: 'en', questions: [] }), (view, outcome) => {
        expectMessage(approvalMessage(view))
        expectMessage(settledApprovalMessage(view, outcome))
        for (const part of approvalOverflow(view).thread) expectMessage(part)
      }),
      { runs: 500, timeLimitMs: 3000 },
    )
  })

  it('externalSelectOptions answers at most LIMIT.externalSelectOptions valid options for any query', () => {
    checkProperty(
      fc.property(questionArb(500), text, (question, query) => {
        const { options } = externalSelectOptions(question, query)
        expect(options.length).toBeLessThanOrEqual(LIMIT.externalSelectOptions)
        expect(checkMessagePayload({ blocks: [{ type: 'actions', elements: [{ type: 'static_select', action_id: 'a', options: options.length ? options : [{ text: { type: 'plain_text', text: 'x' }, value: '0' }] }] }] })).toEqual([])
        for (const o of options) expect(question.options[Number(o.value)]).toBeDefined()
      }),
      { runs: 500, timeLimitMs: 3000 },
    )
  })

  it('fallbackText is short and escaped', () => {
    checkProperty(
      fc.property(askArb, (view) => {
        const t = fallbackText(view)
        expect(t.length).toBeLessThanOrEqual(LIMIT.notificationText + '<!subteam^S0GRP> '.length)
        expect(liveSyntax(t, TRUSTED)).toEqual([])
      }),
      { runs: 500, timeLimitMs: 3000 },
    )
  })

  it('a huge batch of huge questions and a 200 KB plan of injections still fit', () => {
    const hostile = Array.from({ length: 2000 }, (_, i) => `${INJECTIONS[i % INJECTIONS.length]} ${'x'.repeat(i % 97)}`).join('\n\n')
    const huge: AskView = {
      askId: 'big',
      locale: 'zh-CN',
      mention: 'U0ABC',
      questions: Array.from({ length: 300 }, (_, i) => ({ id: `q${i}`, question: 'Q'.repeat(10_000), header: 'H'.repeat(10_000), detail: hostile.slice(0, 5000), options: Array.from({ length: i % 3 === 0 ? 500 : 7 }, (_, n) => ({ label: `${n}${'L'.repeat(10_000)}`, description: 'D'.repeat(10_000) })), multiSelect: i % 2 === 0 })),
    }
    const plan: AskView = { askId: 'plan', locale: 'en', questions: [{ id: 'plan-review', question: '<!channel> approve?', detail: hostile.repeat(Math.ceil(200_000 / hostile.length)), options: [{ label: 'Approve' }, { label: 'Keep planning' }], multiSelect: false, intent: { kind: 'plan-review', approve: 'Approve' } }] }

    for (const view of [huge, plan]) {
      const rendered = questionMessage(view)
      expectMessage(rendered.message)
      for (const part of rendered.thread) expectMessage(part)
      expectMessage(settledMessage(view, { kind: 'answered', by: { id: 'U0ALICE' }, at: 0, answers: view.questions.map((q) => ({ id: q.id, selected: [], custom: 'C'.repeat(3000) })) }))
      expectView(batchModal(view, 0).view)
      expectView(otherModal(view, 0))
    }
  })
})
