/**
 * The plan canvas's markdown (canvas-markdown.ts): the plan parsed with the
 * project's Markdown parser and written back with every neutralisation,
 * attacked from inside code, link labels, nesting and escapes. Each output
 * is parsed again and checked for what must never survive: a Slack token, a
 * broadcast, a canvas mention, a link whose label hides its target.
 */
import type { Nodes } from 'mdast'
import { describe, expect, it } from 'vitest'

import { parseMarkdown, plainText } from '../../blocks/markdown/index.js'
import { isSafeUrl, labelShowsTarget } from '../../blocks/text.js'
import { canvasMarkdown } from '../../src/bridge/code-channel/canvas-markdown.js'

/** What a reader of the canvas could be fooled by, found by parsing the canvas markdown as the canvas would. */
function dangers(markdown: string): string[] {
  const found: string[] = []
  const walk = (node: Nodes) => {
    if ('value' in node && typeof node.value === 'string') {
      if (/[<>]/.test(node.value)) found.push(`angle bracket in ${node.type}: ${node.value}`)
      if (/@(here|channel|everyone)\b/i.test(node.value)) found.push(`broadcast in ${node.type}: ${node.value}`)
    }
    if (node.type === 'image' && /^[@#]/.test(node.url)) found.push(`canvas mention ${node.url}`)
    if (node.type === 'link' && !(isSafeUrl(node.url) && labelShowsTarget(plainText(node), node.url))) found.push(`disguised link ${plainText(node)} → ${node.url}`)
    if ('children' in node) for (const child of node.children) walk(child as Nodes)
  }
  walk(parseMarkdown(markdown))
  return found
}

describe('the canvas markdown of a plan', () => {
  it('keeps a plain plan as it is written, step by step', () => {
    const plan = '# Plan: add a cache\n\n1. Add `cache.ts` with an LRU map.\n2. Wire it into the **fetch** path.\n3. Drop the *old* one, ~~maybe~~.\n\n> Ask ops first.\n\n---\n\n- a bullet\n- [x] a done task'

    expect(canvasMarkdown(plan)).toBe(plan)
  })

  it('shows Slack tokens, canvas mentions and broadcasts in text as text', () => {
    expect(canvasMarkdown('Ping <!channel> and <@U123>, ![](@U999), ![the team](#C42) and @here or @Everyone')).toBe(
      'Ping ‹!channel› and ‹@U123›, U999, the team and @\u200Dhere or @\u200DEveryone',
    )
  })

  it('neutralises inside inline code and fenced code too', () => {
    expect(canvasMarkdown('Run `echo <!here> @channel` then:\n\n```sh\ncurl <https://evil|bank.com> # @everyone\n```')).toBe(
      'Run `echo ‹!here› @\u200Dchannel` then:\n\n```sh\ncurl ‹https://evil|bank.com› # @\u200Deveryone\n```',
    )
  })

  it('writes a link whose label hides its target as the label with the target beside it, and keeps honest ones', () => {
    expect(canvasMarkdown('[the docs](https://evil.example/x), [https://bank.com](https://evil.example), [https://a.example](https://a.example) and <https://b.example>')).toBe(
      'the docs (https://evil.example/x), https://bank.com (https://evil.example), [https://a.example](https://a.example) and [https://b.example](https://b.example)',
    )
  })

  it('takes the label apart, not just its text: a mention or a broadcast inside a link label is neutralised too', () => {
    expect(canvasMarkdown('[see <@U1> @here](https://a.example)')).toBe('see ‹@U1› @\u200Dhere (https://a.example)')
  })

  it('shows an unsafe target as text, never as a link', () => {
    expect(canvasMarkdown('[x](javascript:alert(1)) and ![pic](javascript:alert(2))')).toBe('x (javascript:alert(1)) and pic (javascript:alert(2))')
  })

  it('resolves a reference link to its target, and shows the definition it came from as text', () => {
    expect(canvasMarkdown('[ref]: https://evil.example "t"\n\nsee [bank.com][ref]')).toBe('\\[ref\\]: https://evil.example\n\nsee bank.com (https://evil.example)')
  })

  it('keeps what the agent escaped escaped, so `*` and `&amp;copy;` read as written', () => {
    expect(canvasMarkdown('2 * 3, snake_case, _x_ and \\*not em\\* and &amp;copy;')).toBe('2 \\* 3, snake_case, *x* and \\*not em\\* and \\&copy;')
  })

  it.each([
    ['a link nested in a link label', '[**[bank.com](https://bank.com)**](https://evil.example)'],
    ['a mention nested in emphasis in a list in a quote', '> - **<@U1>** and *@channel*\n>   1. ![](@U2)'],
    ['a raw HTML block', '<!channel>\n<div onclick="x">@here</div>'],
    ['a table cell', '| who | link |\n| --- | --- |\n| <!here> | [bank.com](https://evil.example) |'],
    ['an autolink that hides nothing and one that is a Slack token', '<https://a.example> <https://evil.example|bank.com>'],
    ['a footnote', 'See[^1].\n\n[^1]: <@U1> said [so](https://evil.example).'],
    ['backtick runs in code', '``a ` <!here> ``'],
    ['an image whose alt text hides a mention', '![<@U1>](https://img.example/a.png)'],
  ])('leaves nothing that could fool a reader in %s', (_case, plan) => {
    expect(dangers(canvasMarkdown(plan))).toEqual([])
  })
})
