/**
 * blocks/ parses Markdown with markdown-it (fast) and converts its tokens to
 * the mdast micromark's GFM parser built before (slow). These tests hold the
 * two to the same tree, on a corpus and on generated documents, apart from
 * the differences blocks/README.md lists ("Parsing").
 */
import fc from 'fast-check'
import type { Definition, Nodes, Root } from 'mdast'
import { describe, expect, it } from 'vitest'
import { parseMarkdown } from '../../blocks/markdown/parse.js'
import { markdownUnits, treeUnits } from '../../blocks/markdown/rich-text.js'
import type { RichUnit } from '../../blocks/markdown/units.js'
import { benchPlan } from '../bench/plan.js'
import { MICROMARK_QUIRKS, micromarkParse, micromarkParseIfSound } from '../support/micromark-parse.js'
import { checkProperty } from '../support/property-runs.js'

type Loose = { type: string; [key: string]: unknown }

/**
 * micromark's tree as the converter builds it: no positions or spread, and
 * references resolved to links and images (markdown-it resolves them while
 * parsing; the renderers draw both alike).
 */
function comparable(root: Root): Loose {
  const definitions = new Map<string, Definition>()
  const collect = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node)
    if ('children' in node) for (const child of node.children) collect(child as Nodes)
  }
  collect(root)
  const convert = (node: Nodes): Loose => {
    const out: Loose = { type: node.type }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'position' || key === 'spread' || key === 'children' || key === 'type') continue
      out[key] = value
    }
    if (node.type === 'linkReference') {
      const definition = definitions.get(node.identifier)!
      return { type: 'link', url: definition.url, title: definition.title ?? null, children: children(node.children) }
    }
    if (node.type === 'imageReference') {
      const definition = definitions.get(node.identifier)!
      return { type: 'image', url: definition.url, title: definition.title ?? null, alt: node.alt }
    }
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') out.title = node.title ?? null
    // Deliberate: a code span's line endings are spaces (CommonMark's reading); micromark's tree kept them.
    if (node.type === 'inlineCode') out.value = node.value.replaceAll('\n', ' ')
    if ('children' in node) out.children = children(node.children as Nodes[])
    return out
  }
  const children = (nodes: Nodes[]): Loose[] => {
    const out: Loose[] = []
    for (const node of nodes) {
      const next = convert(node)
      const last = out[out.length - 1]
      if (last?.type === 'text' && next.type === 'text') last.value = `${String(last.value)}${String(next.value)}`
      else out.push(next)
    }
    return out
  }
  return convert(root)
}

function converted(root: Root): Loose {
  return JSON.parse(JSON.stringify(root)) as Loose
}

function expectSameTree(markdown: string): void {
  expect(converted(parseMarkdown(markdown)), JSON.stringify(markdown)).toEqual(comparable(micromarkParse(markdown)))
}

/** Inputs of the markdown, property and message tests, and what plans are made of. */
const CORPUS = [
  '*a* **b** ~~c~~ `d`',
  '# Title\n\nBody',
  '3. a\n4. b\n   - c\n',
  '```ts\nconst a = "<!channel>"\n  indented *not em*\n```',
  '> quoted **text**\n\n---\n\n- [x] done\n- [ ] todo',
  '| name | n |\n|:-|-:|\n| 中文 | 1 |\n| abc | 22 |',
  '[bank.com](https://evil.example/x)',
  '<https://ok.example>',
  'www.ok.example',
  '[click](javascript:alert(1)) ![x](data:image/png;base64,AA)',
  '![diagram](https://img.example/a.png)',
  '<!channel> <@U123> <https://evil|bank.com> @here',
  'text <!channel> and <!here|here>',
  '<!DOCTYPE html>\n\ntext',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '[^1]\n\n[^1]: note',
  'a[^n] b\n\n[^n]: the *note*\n    more\n\n[^unused]: never referenced',
  '[a][b] and [b] and ![c][b]\n\n[b]: https://b.example "title"\n[B]: https://second.example',
  '> [q]: https://in-quote.example\n\n[q]',
  '- [x] done\n- [ ] todo\n- [X] upper\n- [ ]\n- [x]not a task\n- [ ]  two spaces',
  '- [x] checked\n- [ ] [x] link\n> [x]: https://x.example\n\n* [X] upper',
  '![<!channel> and <b>bold</b>]() ![a <span>b</span> c](https://i.example/i.png)',
  '[x]: https://x.example\n\n[a](<b>`[x] and [x](<c> and [x](',
  '[x]: https://x.example\n\n![x](<b> [x] and ![a](<c>[x]',
  '1. [ ] first\n   second line\n2. plain',
  '* a\n\n* b\n\n  para\n\n      code\n',
  '10) ten\n11) eleven',
  'Setext\n======\n\nother\n---',
  '    indented code\n\n\n    more\n',
  '```\nunclosed fence\n\nstill code',
  '~~~python title="x"\nprint(1)\n~~~',
  '<div>\n*html* block\n</div>\n\n<!-- comment -->\n\n<?php x ?>',
  'inline <span>*html*</span> and <!-- c --> and `<code>`',
  'hard  \nbreak and\\\nbackslash break',
  'soft\nbreak',
  '&amp; &lt; &#35; &#x41; &copy; &nope;',
  '\\*not emphasis\\* \\[not link\\]',
  '***both*** _under_ __strong__ *a **b** c*',
  'snake_case_word and 2 * 3 * 4',
  'https://a.example/path?q=1. and (https://b.example/x) and a@b.com and http://localhost:3000/x',
  'visit www.example.com/path, or WWW.Example.com!',
  '[link with `code` and **bold**](https://x.example "t")',
  '[empty]()',
  '[a](<url with spaces>)',
  '![alt *em* `code`](https://i.example/p.png)',
  '| a | b |\n|---|:---:|\n| 1 |\n| 1 | 2 | 3 |\n| `|` | \\| |',
  '| only header |\n|---|',
  'para\n| a | b |\n|---|---|\n| 1 | 2 |',
  '> quote\nlazy continuation\n> - list in quote\n>\n> > nested',
  '- a\n  > quote in list\n  ```\n  code in list\n  ```\n- b',
  '---\n***\n___',
  '# h1\n## h2 ##\n###### h6\n####### not a heading',
  '',
  '   ',
  '\n\n\n',
  'Emoji 👩‍👩‍👧 and 中文 and e\u0301',
  benchPlan(1, 4000),
]

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'two words', '中文', '👩‍👩‍👧', 'x_y', '2 * 3', 'a<b', 'R&D')
const inline = fc.oneof(
  { weight: 4, arbitrary: word },
  { weight: 1, arbitrary: word.map((w) => `*${w}*`) },
  { weight: 1, arbitrary: word.map((w) => `**${w}**`) },
  { weight: 1, arbitrary: word.map((w) => `_${w}_`) },
  { weight: 1, arbitrary: word.map((w) => `~~${w}~~`) },
  { weight: 1, arbitrary: word.map((w) => `~${w}~`) },
  { weight: 1, arbitrary: word.map((w) => `\`${w}\``) },
  { weight: 1, arbitrary: fc.tuple(word, fc.constantFrom('https://a.example/p', 'javascript:alert(1)', '<b c>', '')).map(([w, u]) => `[${w}](${u})`) },
  { weight: 1, arbitrary: fc.tuple(word, fc.constantFrom('https://i.example/i.png', 'data:x')).map(([w, u]) => `![${w}](${u})`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'https://a.example/x?y=1', 'www.b.example/p', 'c@d.com', '<https://e.example>', '<span>', '</span>', '<!-- note -->', '<!channel>', '<@U1>',
      '[^1]', '[ref]', '[ref][]', '&amp;', '&#35;', '\\*', '\\[', 'a  \nb', 'a\\\nb', 'line\nnext',
    ),
  },
)
const line = fc.array(inline, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '))
const block: fc.Arbitrary<string> = fc.letrec<{ block: string }>((tie) => ({
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: line },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 6 }), line).map(([n, l]) => `${'#'.repeat(n)} ${l}`) },
    { weight: 1, arbitrary: line.map((l) => `${l}\n===`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('- ', '* ', '1. ', '1) '), fc.array(fc.tuple(fc.constantFrom('', '[ ] ', '[x] '), line, fc.option(tie('block'), { nil: undefined })), { minLength: 1, maxLength: 4 }), fc.boolean())
        .map(([marker, items, loose]) => items.map(([task, l, child]) => `${marker}${task}${l}${child === undefined ? '' : `\n\n${child.replace(/^/gm, ' '.repeat(marker.length))}`}`).join(loose ? '\n\n' : '\n')),
    },
    { weight: 1, arbitrary: tie('block').map((b) => b.replace(/^/gm, '> ')) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('```', '~~~', '```ts'), fc.array(line, { maxLength: 3 })).map(([fence, ls]) => `${fence}\n${ls.join('\n')}\n${fence.slice(0, 3)}`) },
    { weight: 1, arbitrary: fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l) => `    ${l}`).join('\n')) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('|---|---|', '|:-|-:|', '|:-:|---|'), fc.array(fc.array(word, { minLength: 1, maxLength: 3 }), { maxLength: 3 }))
        .map(([rule, rows]) => `| a | b |\n${rule}\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('---', '***', '[ref]: https://r.example "t"', '[ref]: javascript:x', '[^1]: a *note*', '<div>\n*html*\n</div>', '<!-- comment -->') },
  ),
})).block
const planDocument = fc.array(block, { maxLength: 8 }).map((blocks) => blocks.join('\n\n'))

const wildPiece = fc.constantFrom(
  'word', 'two words', ' ', '  ', '\n', '\n\n', '*', '**', '_', '__', '~', '~~', '`', '``', '\\', '[', ']', '(', ')', '![', '<', '>', '!',
  '#', '## ', '- ', '* ', '1. ', '2) ', '> ', '    ', '|', '---', '```', '~~~', '[^1]', '[^1]: ', '[x]: https://x.example\n\n',
  '[x]', '[ ] ', '[x] ', ' https://a.example/p ', ' www.b.example ', '<https://c.example>', '<span>', '</span>', '<!-- c -->', '<div>', '<!channel>', '<@U1>', '中文', '👩‍👩‍👧',
)
const wildDocument = fc.array(wildPiece, { maxLength: 30 }).map((pieces) => pieces.join(''))

/** The words a reader sees in rendered units (runs of letters: list numbers are markup on one side, text on the other), without the schemes a url shown beside its label adds. */
function wordsShown(units: RichUnit[]): string[] {
  const text: string[] = []
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>
      if (typeof record.text === 'string') text.push(record.text)
      Object.values(record).forEach(walk)
    }
  }
  walk(units)
  const words = new Set(text.join(' ').match(/\p{L}+/gu) ?? [])
  for (const scheme of ['http', 'https', 'mailto']) words.delete(scheme)
  return [...words].sort()
}

describe('the markdown-it parser', () => {
  it.each(CORPUS.map((markdown) => [markdown.slice(0, 40), markdown]))('builds the tree micromark builds for %j', (_, markdown) => {
    expectSameTree(markdown)
  })

  it('builds the same tree for generated plan-like documents', () => {
    checkProperty(
      fc.property(planDocument, (markdown) => {
        expectSameTree(markdown)
      }),
      { runs: 1000, timeLimitMs: 5000 },
    )
  })

  it('shows the same words as from the micromark tree for any mix of Markdown pieces', () => {
    // Pieces glued without spaces reach corners where the two parsers differ in markup (README.md), never in the words shown.
    // Autolink literals keep spaces around them: where one ends differs (README.md).
    checkProperty(
      fc.property(wildDocument, (markdown) => {
        const ours = wordsShown(treeUnits(parseMarkdown(markdown)))
        const oracle = micromarkParseIfSound(markdown)
        fc.pre(oracle !== undefined)
        expect(ours, JSON.stringify(markdown)).toEqual(wordsShown(treeUnits(oracle!)))
      }),
      { runs: 1000, timeLimitMs: 5000 },
    )
  })

  it('renders the same blocks as from the micromark tree for a long plan', () => {
    const plan = benchPlan(7, 30_000)

    expect(converted(parseMarkdown(plan))).toEqual(comparable(micromarkParse(plan)))
    expect(markdownUnits(plan).length).toBeGreaterThan(100)
  })
})

/** Where the trees differ, on purpose or by a quirk of one parser (blocks/README.md, "Parsing"): the words shown stay the same. */
const DIFFERENCES = [
  ['an autolink literal ends before a bracket (GFM runs to a space)', 'see https://a.example/p[x] now'],
  ['an email with a top-level domain linkify-it does not know stays text', 'mail c@d.example'],
  ['an autolink literal right after a backslash escape stays text', '\\ www.b.example'],
  ['a line after a link reference definition starts a new block', '[x]: https://x.example\n* '],
  ['a list opening a new container right after a paragraph is a list (CommonMark; micromark reads a paragraph)', 'word\n> 2) item'],
  ['an empty list item inside a list item that interrupts a paragraph', 'word\n1. - '],
  ['an ordered list starting past 1 right after indented code is a list (CommonMark; micromark reads a paragraph)', '    code\n\n2. word'],
  ['a code span of spaces only loses one space at each end', '`    `'],
  ['an unclosed fence ending in a blank line', '```\n  '],
] as const

describe('where micromark cannot be the oracle', () => {
  it('reads a task marker on the line after an empty list item as the next paragraph’s text, where micromark fails its own assertion', () => {
    for (const markdown of ['*\n[ ] word', '-\n[x] word']) {
      const [list, paragraph] = parseMarkdown(markdown).children

      expect(micromarkParseIfSound(markdown)).toBeUndefined()
      expect(list).toMatchObject({ type: 'list', children: [{ type: 'listItem', checked: null, children: [] }] })
      expect(paragraph).toMatchObject({ type: 'paragraph', children: [{ type: 'text', value: markdown.slice(markdown.indexOf('[')) }] })
    }
  })

  /** Each quirk's examples, and what markdown-it reads there: the first node of that type, in part. */
  const QUIRK_EXAMPLES: [keyof typeof MICROMARK_QUIRKS, string, Loose][] = [
    ['listReadAsParagraph', '    word\n\n2) [x] word', { type: 'list', ordered: true, start: 2, children: [{ type: 'listItem', checked: true }] }],
    ['listReadAsParagraph', '    word\n2. [ ] word', { type: 'list', ordered: true, children: [{ type: 'listItem', checked: false }] }],
    ['listReadAsParagraph', '> a\n>\n>     code\n>\n> 3. [x] word', { type: 'blockquote', children: [{ type: 'paragraph' }, { type: 'code' }, { type: 'list', start: 3 }] }],
    ['listReadAsParagraph', 'word\n* 2) ```two words', { type: 'list', children: [{ type: 'listItem', children: [{ type: 'list', start: 2, children: [{ type: 'listItem', children: [{ type: 'code', lang: 'two', meta: 'words' }] }] }] }] }],
    ['taskMarkerAfterEmptyFirstLine', '- \n  [x] word', { type: 'list', children: [{ type: 'listItem', checked: true, children: [{ type: 'paragraph', children: [{ type: 'text', value: 'word' }] }] }] }],
    ['shortcutBeforeUnclosedBracket', '[x]: https://x.example\n\nword[x][', { type: 'paragraph', children: [{ type: 'text', value: 'word' }, { type: 'link', url: 'https://x.example' }, { type: 'text', value: '[' }] }],
    ['shortcutBeforeUnclosedBracket', '[^1]: [x]: https://x.example\n\n[x][ and', { type: 'paragraph', children: [{ type: 'link', url: 'https://x.example' }, { type: 'text', value: '[ and' }] }],
    ['indentedFootnoteContent', '[^1]:         [x]: https://x.example', { type: 'footnoteDefinition', children: [{ type: 'code', value: ' [x]: https://x.example' }] }],
  ]

  it.each(QUIRK_EXAMPLES)('%s: %j', (quirk, markdown, ours) => {
    const first = (node: Nodes): Nodes | undefined =>
      node.type === ours.type ? node : 'children' in node ? (node.children as Nodes[]).map(first).find((found) => found !== undefined) : undefined

    expect(MICROMARK_QUIRKS[quirk]!(micromarkParse(markdown), markdown)).toBe(true)
    expect(micromarkParseIfSound(markdown)).toBeUndefined()
    expect(first(parseMarkdown(markdown))).toMatchObject(ours)
  })

  it('stays the oracle for lists, task markers, references and footnotes micromark reads as CommonMark and GFM do', () => {
    const sound = [
      '    word\n\n1. [x] word', '    word\n\n- [x] word', '```\ncode\n```\n2. [x] word', '    word\n\n2\\. [x] word', 'para\n\n2) [x] word', 'para\n2) not a list', '-word', '1234567890. word',
      '- [x] word', '- \n  word [x] later', '- \n  \\[x] escaped',
      '[x]: https://x.example\n\n[x][] and [x][x] and [x]', '[x][ with no definition', '[x]: https://x.example\n\n[x][y]',
      '[^1]: note\n\n    more', '[^1]:   three spaces',
    ]
    for (const markdown of sound) {
      expect(micromarkParseIfSound(markdown), JSON.stringify(markdown)).toBeDefined()
    }
  })
})

describe('the differences from micromark', () => {
  it.each(DIFFERENCES)('%s', (_, markdown) => {
    const ours = parseMarkdown(markdown)
    const oracle = micromarkParse(markdown)

    expect(converted(ours)).not.toEqual(comparable(oracle))
    expect(wordsShown(treeUnits(ours))).toEqual(wordsShown(treeUnits(oracle)))
  })
})
