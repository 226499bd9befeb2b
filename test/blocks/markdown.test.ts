import { describe, expect, it } from 'vitest'
import { LIMIT } from '../../blocks/limits.js'
import { markdownBlocks } from '../../blocks/markdown/index.js'
import { escapeMrkdwn, fitEscaped, fitText, isSafeUrl } from '../../blocks/text.js'
import { elementsOfType, links, richText } from './fixtures.js'

const first = (md: string) => (markdownBlocks(md)[0] as { elements: unknown[] }).elements

describe('markdownBlocks', () => {
  it('renders emphasis, strong, strike and inline code as rich text styles', () => {
    expect(first('*a* **b** ~~c~~ `d`')).toEqual([
      {
        type: 'rich_text_section',
        elements: [
          { type: 'text', text: 'a', style: { italic: true } },
          { type: 'text', text: ' ' },
          { type: 'text', text: 'b', style: { bold: true } },
          { type: 'text', text: ' ' },
          { type: 'text', text: 'c', style: { strike: true } },
          { type: 'text', text: ' ' },
          { type: 'text', text: 'd', style: { code: true } },
        ],
      },
    ])
  })

  it('renders headings in bold and separates paragraphs with a line break', () => {
    expect(first('# Title\n\nBody')).toEqual([
      { type: 'rich_text_section', elements: [{ type: 'text', text: 'Title', style: { bold: true } }, { type: 'text', text: '\n' }] },
      { type: 'rich_text_section', elements: [{ type: 'text', text: 'Body' }] },
    ])
  })

  it('renders nested lists with indents and keeps an ordered list numbered from its start', () => {
    expect(first('3. a\n4. b\n   - c\n')).toEqual([
      { type: 'rich_text_list', style: 'ordered', indent: 0, offset: 2, elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'a' }] }, { type: 'rich_text_section', elements: [{ type: 'text', text: 'b' }] }] },
      { type: 'rich_text_list', style: 'bullet', indent: 1, elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'c' }] }] },
    ])
  })

  it('caps list nesting at LIMIT.richTextListIndent', () => {
    const deep = Array.from({ length: LIMIT.richTextListIndent + 3 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')

    const indents = elementsOfType(markdownBlocks(deep), 'rich_text_list').map((l) => l.indent)

    expect(Math.max(...(indents as number[]))).toBe(LIMIT.richTextListIndent)
  })

  it('keeps what is nested past the parser depth cap, verbatim, and what follows it', () => {
    const quotes = `${'> '.repeat(150)}deep words\n\nafter`
    const lists = `${Array.from({ length: 150 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}\n\nafter`

    expect(richText(markdownBlocks(quotes))).toContain('deep words')
    expect(richText(markdownBlocks(quotes))).toContain('after')
    expect(richText(markdownBlocks(lists))).toContain('level 149')
    expect(richText(markdownBlocks(lists))).toContain('after')
  })

  it('keeps fenced code verbatim in a preformatted box', () => {
    expect(first('```ts\nconst a = "<!channel>"\n  indented *not em*\n```')).toEqual([
      { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'const a = "<!channel>"\n  indented *not em*' }] },
    ])
  })

  it('renders a quote, a thematic break as a divider, and a task list with marks', () => {
    const blocks = markdownBlocks('> quoted **text**\n\n---\n\n- [x] done\n- [ ] todo')

    expect(blocks[0]).toEqual({ type: 'rich_text', elements: [{ type: 'rich_text_quote', elements: [{ type: 'text', text: 'quoted ' }, { type: 'text', text: 'text', style: { bold: true } }] }] })
    expect(blocks[1]).toEqual({ type: 'divider' })
    expect(richText(blocks[2])).toBe('☑ done☐ todo')
  })

  it('renders a table as aligned monospace text, wide characters counted twice', () => {
    expect(first('| name | n |\n|:-|-:|\n| 中文 | 1 |\n| abc | 22 |')).toEqual([
      { type: 'rich_text_preformatted', elements: [{ type: 'text', text: '| name |  n |\n|------|---:|\n| 中文 |  1 |\n| abc  | 22 |' }] },
    ])
  })

  it('shows a link label that differs from its url followed by the url, never a disguise', () => {
    expect(links(markdownBlocks('[bank.com](https://evil.example/x)'))).toEqual([{ url: 'https://evil.example/x', text: 'https://evil.example/x' }])
    expect(richText(markdownBlocks('[bank.com](https://evil.example/x)'))).toBe('bank.com (https://evil.example/x)')
  })

  it('links a url whose label is the url itself once', () => {
    expect(elementsOfType(markdownBlocks('<https://ok.example>'), 'link')).toEqual([{ type: 'link', url: 'https://ok.example', text: 'https://ok.example' }])
    expect(elementsOfType(markdownBlocks('www.ok.example'), 'link')).toEqual([{ type: 'link', url: 'http://www.ok.example', text: 'www.ok.example' }])
  })

  it('never makes a javascript: or data: url clickable, and shows it', () => {
    const blocks = markdownBlocks('[click](javascript:alert(1)) ![x](data:image/png;base64,AA)')

    expect(links(blocks)).toEqual([])
    expect(richText(blocks)).toContain('click (javascript:alert(1))')
  })

  it('renders an image as a link to it, labelled by its alt text', () => {
    expect(richText(markdownBlocks('![diagram](https://img.example/a.png)'))).toBe('🖼 diagram (https://img.example/a.png)')
    expect(links(markdownBlocks('![diagram](https://img.example/a.png)'))).toEqual([{ url: 'https://img.example/a.png', text: 'https://img.example/a.png' }])
  })

  it('keeps the words of inline HTML in an image’s alt text, as literal text', () => {
    const blocks = markdownBlocks('![<!channel> build <b>log</b>](https://img.example/a.png)')

    expect(richText(blocks)).toBe('🖼 <!channel> build <b>log</b> (https://img.example/a.png)')
    expect(elementsOfType(blocks, 'broadcast')).toEqual([])
  })

  it('reads a task item’s check before its text, even where a link reference has the same label', () => {
    const blocks = markdownBlocks('- [x] shipped\n- [ ] [x] next\n\n[x]: https://x.example')

    // The card shows every definition's url too, after the text.
    expect(richText(blocks[0])).toBe('☑ shipped☐ x (https://x.example) next[x]: https://x.example')
  })

  it('shows a definition’s url and a task item’s check inside a quote or a footnote, as it does at the top level', () => {
    expect(richText(markdownBlocks('> [q]: https://q.example'))).toBe('[q]: https://q.example')
    expect(links(markdownBlocks('> [q]: https://q.example'))).toEqual([{ url: 'https://q.example', text: 'https://q.example' }])
    expect(richText(markdownBlocks('[^1]: a note\n\n    [d]: javascript:alert(1)'))).toBe('[^1]: a note\n[d]: javascript:alert(1)')
    expect(links(markdownBlocks('[^1]: [d]: javascript:alert(1)'))).toEqual([])
    expect(richText(markdownBlocks('> - [x] done\n> - [ ] todo\n> - plain'))).toBe('• ☑ done\n• ☐ todo\n• plain')
  })

  it('reads a link whose parentheses never close as its label alone, losing none of the text after it', () => {
    const defined = '\n\n[docs]: https://docs.example'
    const shown = (markdown: string) => richText(markdownBlocks(`${markdown}${defined}`)[0]).replace(/\n*\[docs\]: https:\/\/docs\.example$/, '')

    expect(shown('see [a](<b> and [docs] here')).toBe('see [a](<b> and docs (https://docs.example) here')
    expect(shown('see [docs](<b> now')).toBe('see docs (https://docs.example)(<b> now')
    expect(shown('ends with [docs](')).toBe('ends with docs (https://docs.example)(')
    expect(shown('an image ![docs](<b> [x]')).toBe('an image 🖼 docs (https://docs.example)(<b> [x]')
  })

  it('keeps Slack syntax in agent text as literal text', () => {
    expect(richText(markdownBlocks('<!channel> <@U123> <https://evil|bank.com> @here'))).toBe('<!channel> <@U123> <https://evil|bank.com> @here')
  })

  it('splits a code block longer than a block at line ends, losing no line', () => {
    const code = Array.from({ length: 600 }, (_, i) => `line ${i} ${'x'.repeat(10)}`).join('\n')

    const boxes = elementsOfType(markdownBlocks(`\`\`\`\n${code}\n\`\`\``), 'rich_text_preformatted').map((p) => richText(p))

    expect(boxes.length).toBeGreaterThan(1)
    expect(boxes.every((b) => b.length <= LIMIT.richTextElementText)).toBe(true)
    expect(boxes.join('\n')).toBe(code)
  })

  it('splits a long table by rows and repeats its header in each part', () => {
    const table = `| k | v |\n|---|---|\n${Array.from({ length: 400 }, (_, i) => `| ${i} | ${'v'.repeat(20)} |`).join('\n')}`

    const boxes = elementsOfType(markdownBlocks(table), 'rich_text_preformatted').map((p) => richText(p))

    expect(boxes.length).toBeGreaterThan(1)
    expect(boxes.every((b) => b.startsWith('| k   | v'))).toBe(true)
  })
})

describe('safe text', () => {
  it('escapes exactly &, < and > for mrkdwn', () => {
    expect(escapeMrkdwn('<!channel> & <@U1> > *b*')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt; &gt; *b*')
  })

  it('shortens visibly without splitting an emoji, a combining sequence or a surrogate pair', () => {
    expect(fitText('abcdef', 4)).toBe('abc…')
    expect(fitText('ab👩‍👩‍👧cd', 6)).toBe('ab…')
    expect(fitText('e\u0301e\u0301e\u0301', 4)).toBe('e\u0301…')
    expect(fitText('abc', 3)).toBe('abc')
  })

  it('shortens mrkdwn without cutting an entity or a Slack token in half', () => {
    expect(fitEscaped('by &lt;x&gt; · <!date^1^{time}|12:00>', 30)).toBe('by &lt;x&gt; · …')
    expect(fitEscaped('a &amp; b', 5)).toBe('a …')
  })

  it('allows only http, https and mailto links', () => {
    expect(['https://a.example', 'http://a.example', 'mailto:a@b.example'].map(isSafeUrl)).toEqual([true, true, true])
    expect(['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'slack://open', 'https://a.example/<x>|y', 'relative/path'].map(isSafeUrl)).toEqual([false, false, false, false, false, false])
  })
})
