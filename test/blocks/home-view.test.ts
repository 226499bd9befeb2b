import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkHomeViewPayload } from '../../blocks/check.js'
import { encodeActionId } from '../../blocks/ids.js'
import { homeControls, homeView, LIMIT, type HomeAskView } from '../../blocks/index.js'
import { checkProperty } from '../support/property-runs.js'
import { ask, liveSyntax, mrkdwnTexts, NOW, options, planReview, question } from './fixtures.js'

const MINUTE = 60_000

function asked(askId: string, minutesAgo: number, overrides: Partial<HomeAskView> = {}): HomeAskView {
  return { kind: 'question', view: ask({ askId, questions: [question({ question: `Question ${askId}?` })] }), createdAt: NOW - minutesAgo * MINUTE, channel: 'C0AGENTS', permalink: `https://team.slack.com/archives/C0AGENTS/p${askId}`, ...overrides } as HomeAskView
}

/** A multi-select ask: Home points to its message (title, about line, divider: three blocks). */
function elsewhere(askId: string, minutesAgo: number): HomeAskView {
  return { kind: 'question', view: ask({ askId, questions: [question({ question: `Many ${askId}?`, multiSelect: true })] }), createdAt: NOW - minutesAgo * MINUTE, channel: 'C0AGENTS' }
}

function texts(value: unknown): string[] {
  const out: string[] = []
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (typeof v === 'object' && v !== null) {
      for (const [key, inner] of Object.entries(v)) {
        if (key === 'text' && typeof inner === 'string') out.push(inner)
        else walk(inner)
      }
    }
  }
  walk(value)
  return out
}

describe('homeView', () => {
  it('says nothing is waiting when no ask is open, under the tab’s title', () => {
    const view = homeView({ locale: 'en', now: NOW, asks: [] })

    expect(view).toEqual({
      type: 'home',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Waiting for you', emoji: false } },
        { type: 'section', text: { type: 'mrkdwn', text: ':white_check_mark: Nothing is waiting for you. New questions show up here as agents ask them.' } },
      ],
    })
    expect(checkHomeViewPayload(view)).toEqual([])
  })

  it('lists the asks newest first, whatever order they come in', () => {
    const view = homeView({ locale: 'en', now: NOW, asks: [asked('old', 90), asked('new', 2), asked('mid', 30)] })

    const shown = texts(view).filter((text) => text.startsWith('Question '))
    expect(shown).toEqual(['Question new?', 'Question mid?', 'Question old?'])
    expect(texts(view)).toContain('3 asks wait for you to answer or approve, newest first.')
  })

  it('shows the agent literally, the age, the channel and the link on each ask', () => {
    const agentAsk = asked('a1', 5, { view: ask({ askId: 'a1', agent: { title: '*bold* bot' } }) } as Partial<HomeAskView>)

    const [, , , about] = homeView({ locale: 'en', now: NOW, asks: [agentAsk] }).blocks

    expect(about).toEqual({
      type: 'context',
      elements: [
        { type: 'plain_text', text: '*bold* bot', emoji: false },
        { type: 'mrkdwn', text: '· waiting 5 min · <#C0AGENTS> · <https://team.slack.com/archives/C0AGENTS/pa1|open the question>' },
      ],
    })
  })

  it('names the host first when the relay serves several, as the card does, for questions and approvals alike', () => {
    const question = asked('q1', 5, { view: ask({ askId: 'q1', agent: { title: 'Refactor', host: 'laptop.local:7777' } }) } as Partial<HomeAskView>)
    const approval: HomeAskView = { kind: 'approval', view: { askId: 'p1', locale: 'en', toolName: 'bash', agent: { id: 'sess-1', host: 'ci-box:7777' } }, createdAt: NOW - 60_000, channel: 'C0AGENTS' }
    const untitled: HomeAskView = { ...approval, view: { ...approval.view, askId: 'p2', agent: { host: 'ci-box:7777' } }, createdAt: NOW - 120_000 }

    const labels = homeView({ locale: 'en', now: NOW, asks: [question, approval, untitled] })
      .blocks.flatMap((block) => (block.type === 'context' ? block.elements : []))
      .filter((element) => element.type === 'plain_text')

    expect(labels).toEqual([
      { type: 'plain_text', text: 'host ci-box:7777 · sess-1', emoji: false },
      { type: 'plain_text', text: 'host ci-box:7777 · An agent', emoji: false },
      { type: 'plain_text', text: 'host laptop.local:7777 · Refactor', emoji: false },
    ])
  })

  it('gives a single-select question its option buttons, with the message’s own action ids', () => {
    const view = homeView({ locale: 'en', now: NOW, asks: [asked('a1', 1)] })

    const actions = view.blocks.find((block) => block.type === 'actions') as { elements: { action_id: string; text: { text: string } }[] }
    expect(actions.elements.map((e) => e.text.text)).toEqual(['Option 0', 'Option 1', 'Option 2'])
    expect(actions.elements.map((e) => e.action_id)).toEqual([0, 1, 2].map((option) => encodeActionId({ kind: 'option', askId: 'a1', question: 0, option })))
  })

  it('titles a plan whose first heading is just "Plan" by its next heading, or its question, never "Plan review: Plan"', () => {
    const titled = (detail: string) => {
      const plan = { kind: 'question', view: { ...planReview(detail, {}), askId: 'p1' }, createdAt: NOW, channel: 'C0AGENTS' } as HomeAskView
      return texts(homeView({ locale: 'en', now: NOW, asks: [plan] })).join('\n')
    }

    expect(titled('# Plan\n\n## Drop the legacy table\n\nBack up first.')).toContain('Plan review: Drop the legacy table')
    expect(titled('# Plan\n\n1. Back up first.')).not.toContain('Plan review: Plan\n')
    expect(titled('# Plan\n\n1. Back up first.')).toMatch(/Plan review: \S/)
    expect(titled('# Plan\n\n1. Back up first.')).not.toMatch(/Plan review: Plan$/m)
  })

  it('gives a plan review Approve, its other options, Request changes…, Dismiss and the quorum’s progress, as on its card', () => {
    const plan = { kind: 'question', view: { ...planReview('# Plan: drop the legacy table\n\nBack up first.', {}), askId: 'p1', quorum: { required: 2, approvals: [{ id: 'U0ALICE' }] } }, createdAt: NOW, channel: 'C0AGENTS' } as HomeAskView

    const view = homeView({ locale: 'en', now: NOW, asks: [plan] })

    expect(homeControls(plan)).toBe('plan-review')
    expect(texts(view)).toContain('Plan review: Plan: drop the legacy table')
    expect(texts(view).some((text) => text.includes('1 of 2 approvals: <@U0ALICE>'))).toBe(true)
    const buttons = (view.blocks.filter((block) => block.type === 'actions').at(-1) as { elements: { text: { text: string }; style?: string }[] }).elements
    expect(buttons.map((b) => [b.text.text, b.style])).toEqual([['Approve', 'primary'], ['Keep planning', undefined], ['Request changes…', undefined], ['Dismiss', undefined]])
  })

  it('gives a tool approval Allow once and Reject', () => {
    const approval: HomeAskView = { kind: 'approval', view: { askId: 't1', locale: 'en', toolName: 'bash', reason: 'rm -rf build/' }, createdAt: NOW, channel: 'C0AGENTS' }

    const view = homeView({ locale: 'en', now: NOW, asks: [approval] })

    expect(texts(view)).toEqual(expect.arrayContaining(['Tool approval: ', 'bash', '\nrm -rf build/']))
    expect(view.blocks.filter((b) => b.type === 'actions').flatMap((b) => (b as { elements: { action_id: string }[] }).elements.map((e) => e.action_id))).toEqual([
      encodeActionId({ kind: 'allow', askId: 't1' }),
      encodeActionId({ kind: 'reject', askId: 't1' }),
    ])
  })

  it('shows what a tool approval would run, as its card does: the command literally in a code block, a long one shortened visibly', () => {
    // Issue 39's matrix: the plugin's approvals carry the command in their arguments; the tab showed only "bash", with Allow once under it.
    const approval: HomeAskView = { kind: 'approval', view: { askId: 't1', locale: 'en', toolName: 'bash', arguments: JSON.stringify({ command: 'rm -rf build/ <!channel>', timeout: 5 }) }, createdAt: NOW, channel: 'C0AGENTS' }
    const long: HomeAskView = { ...approval, view: { ...approval.view, askId: 't2', arguments: JSON.stringify({ command: Array.from({ length: 50 }, (_, i) => `echo line ${i}`).join('\n') }) }, createdAt: NOW - MINUTE }

    const view = homeView({ locale: 'en', now: NOW, asks: [approval, long] })

    const code = view.blocks.flatMap((block) => (block.type === 'rich_text' ? block.elements.filter((element) => element.type === 'rich_text_preformatted') : []))
    expect(code.map((element) => texts(element).join(''))).toEqual(['rm -rf build/ <!channel>', 'echo line 0\necho line 1\necho line 2\n…'])
    expect(checkHomeViewPayload(view)).toEqual([])
  })

  it('points multi-select, batches, free text and options-load menus to their message instead of drawing controls', () => {
    const shapes: HomeAskView[] = [
      elsewhere('m1', 1),
      { ...asked('b1', 1), view: ask({ askId: 'b1', questions: [question(), question({ id: 'q2' })] }) } as HomeAskView,
      { ...asked('f1', 1), view: ask({ askId: 'f1', questions: [question({ options: [] })] }) } as HomeAskView,
      { ...asked('x1', 1), view: ask({ askId: 'x1', questions: [question({ options: options(LIMIT.selectOptions + 1) })] }) } as HomeAskView,
    ]

    expect(shapes.map(homeControls)).toEqual(['elsewhere', 'elsewhere', 'elsewhere', 'elsewhere'])
    const view = homeView({ locale: 'en', now: NOW, asks: [shapes[0]!] })
    expect(view.blocks.some((block) => block.type === 'actions')).toBe(false)
    expect(texts(view)).toContain('· waiting 1 min · Answer in <#C0AGENTS>')
  })

  it('says "your direct messages" for an ask in a DM, and drops a channel id that is not one', () => {
    const dm = homeView({ locale: 'en', now: NOW, asks: [{ ...elsewhere('d1', 1), channel: 'D0ALICE' }] })
    const odd = homeView({ locale: 'en', now: NOW, asks: [{ ...elsewhere('o1', 1), channel: '<!here>' }] })

    expect(texts(dm)).toContain('· waiting 1 min · Answer in your direct messages')
    expect(texts(odd)).toContain('· waiting 1 min')
  })

  it('shows the person’s notice at the top', () => {
    const view = homeView({ locale: 'en', now: NOW, asks: [asked('a1', 1)], notice: 'Your approval is counted: 1 of 2.' })

    expect(view.blocks[1]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: 'Your approval is counted: 1 of 2.' } })
  })

  it('shortens a long question to LIMIT.homeQuestionText, visibly', () => {
    const long = 'x'.repeat(LIMIT.homeQuestionText + 10)

    const view = homeView({ locale: 'en', now: NOW, asks: [{ ...asked('a1', 1), view: ask({ askId: 'a1', questions: [question({ question: long })] }) } as HomeAskView] })

    const title = texts(view).find((text) => text.startsWith('xxx'))!
    expect(title).toHaveLength(LIMIT.homeQuestionText)
    expect(title.endsWith('…')).toBe(true)
  })

  // Slack takes 100 blocks in a Home view (shared/SLACK.md). Header and intro
  // take 2 blocks and each pointer-only ask 3, so 32 asks fill 98; a 33rd does
  // not fit with them.
  const FIT = 32

  it(`shows all ${FIT} asks that fit in Slack's 100 blocks, with no "more" line`, () => {
    const view = homeView({ locale: 'en', now: NOW, asks: Array.from({ length: FIT }, (_, i) => elsewhere(`e${i}`, i)) })

    expect(view.blocks).toHaveLength(2 + 3 * FIT)
    expect(texts(view).filter((text) => text.startsWith('Many '))).toHaveLength(FIT)
    expect(texts(view).some((text) => text.includes('older'))).toBe(false)
    expect(checkHomeViewPayload(view)).toEqual([])
  })

  it(`shows ${FIT} of ${FIT + 1} asks and says one older one waits in the channel`, () => {
    const view = homeView({ locale: 'en', now: NOW, asks: Array.from({ length: FIT + 1 }, (_, i) => elsewhere(`e${i}`, i)) })

    expect(view.blocks).toHaveLength(2 + 3 * FIT + 1)
    expect(texts(view).filter((text) => text.startsWith('Many '))).toHaveLength(FIT)
    expect(texts(view)).not.toContain(`Many e${FIT}?`)
    expect(texts(view).at(-1)).toBe('…and 1 older one: see the channel.')
    expect(checkHomeViewPayload(view)).toEqual([])
  })

  it('keeps every action_id unique when many asks with controls share the tab', () => {
    const view = homeView({ locale: 'en', now: NOW, asks: Array.from({ length: 40 }, (_, i) => asked(`a${i}`, i)) })

    expect(checkHomeViewPayload(view)).toEqual([])
    expect(view.blocks.length).toBeLessThanOrEqual(100)
  })
})

describe('checkHomeViewPayload', () => {
  it("takes 100 blocks in a Home view (Slack's figure) and refuses 101", () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }))

    expect(checkHomeViewPayload({ type: 'home', blocks: blocks(100) })).toEqual([])
    expect(checkHomeViewPayload({ type: 'home', blocks: blocks(101) })).toEqual([{ code: 'invalid_arguments', message: '[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]' }])
  })

  it('refuses a modal, and a title on a Home view', () => {
    expect(checkHomeViewPayload({ type: 'modal', blocks: [] }).map((p) => p.code)).toEqual(['invalid_arguments'])
    expect(checkHomeViewPayload({ type: 'home', title: { type: 'plain_text', text: 'Hi' }, blocks: [] })).toHaveLength(1)
  })
})

describe('homeView, for any asks', () => {
  const injections = ['<!channel>', '<!here>', '<@U123>', '<#C123>', '<!subteam^S1>', '<https://evil.example|bank.com>', '*bold* _it_', '&lt;!here&gt;', '\uD800', '', '   ', '👩‍👩‍👧‍👦']
  const hostile = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom(...injections), fc.constantFrom(...injections).map((t) => t.repeat(300)))
  const where = { createdAt: fc.integer({ min: NOW - 90 * 86_400_000, max: NOW }), channel: fc.constantFrom('C0AGENTS', 'D0ALICE', '<!here>') }
  const anAsk: fc.Arbitrary<HomeAskView> = fc.oneof(
    fc.record({
      ...where,
      askId: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
      question: hostile,
      labels: fc.array(hostile, { maxLength: 8 }),
      multiSelect: fc.boolean(),
      plan: fc.boolean(),
      title: fc.option(hostile, { nil: undefined }),
    }).map(({ askId, question: text, labels, multiSelect, plan, title, createdAt, channel }) => {
      const view = plan ? planReview(`# ${text}`) : ask({ questions: [question({ question: text, multiSelect, options: labels.map((label) => ({ label })) })] })
      return { kind: 'question', view: { ...view, askId, ...(title === undefined ? {} : { agent: { title } }) }, createdAt, channel, permalink: 'https://team.slack.com/archives/C0AGENTS/p1' } as HomeAskView
    }),
    fc.record({ ...where, askId: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), tool: hostile, reason: hostile, args: fc.option(hostile, { nil: undefined }) }).map(({ askId, tool, reason, args, createdAt, channel }) => ({ kind: 'approval', view: { askId, locale: 'en', toolName: tool, reason, ...(args === undefined ? {} : { arguments: args }) }, createdAt, channel }) as HomeAskView),
  )

  it('fits Slack, counts every ask it leaves out, and brings no live mention or link out of agent text', () => {
    checkProperty(
      fc.property(fc.uniqueArray(anAsk, { maxLength: 60, selector: (a) => a.view.askId }), (asks) => {
        const view = homeView({ locale: 'en', now: NOW, asks })

        expect(checkHomeViewPayload(view)).toEqual([])
        const trusted = ['<#C0AGENTS>', '<https://team.slack.com/archives/C0AGENTS/p1|open the question>', '<@U0ALICE>']
        for (const text of mrkdwnTexts(view)) expect(liveSyntax(text, trusted)).toEqual([])
        const shown = view.blocks.filter((block) => block.type === 'divider').length
        const more = /…and (\d+) older/.exec(mrkdwnTexts(view).at(-1) ?? '')
        expect(shown + Number(more?.[1] ?? 0)).toBe(asks.length)
      }),
      { runs: 150, timeLimitMs: 4000 },
    )
  })
})
