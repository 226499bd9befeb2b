import { describe, expect, it } from 'vitest'
import { docBlocks, DocMarkerError } from './doc-blocks.js'

const FENCE = '```'

describe('reading the docs’ fenced blocks', () => {
  it('takes each fence’s language and the marker on the line right before it', () => {
    const markdown = [
      '# Page',
      `${FENCE}sh`,
      'echo one',
      FENCE,
      '<!-- doc-test: skip: needs a real Slack app -->',
      `${FENCE}bash`,
      'npm start',
      FENCE,
      '<!-- doc-test: file request.json -->',
      `${FENCE}json`,
      '{ "questions": [] }',
      FENCE,
      `${FENCE}text`,
      'output',
      FENCE,
    ].join('\n')

    expect(docBlocks(markdown, 'page.md')).toEqual([
      { file: 'page.md', line: 2, lang: 'sh', text: 'echo one\n' },
      { file: 'page.md', line: 6, lang: 'bash', marker: { kind: 'skip', reason: 'needs a real Slack app' }, text: 'npm start\n' },
      { file: 'page.md', line: 10, lang: 'json', marker: { kind: 'file', name: 'request.json' }, text: '{ "questions": [] }\n' },
      { file: 'page.md', line: 13, lang: 'text', text: 'output\n' },
    ])
  })

  it.each([
    ['a misspelt marker', `<!-- doc-test: skp: reason -->\n${FENCE}sh\nx\n${FENCE}`],
    ['a skip without a reason', `<!-- doc-test: skip: -->\n${FENCE}sh\nx\n${FENCE}`],
    ['a file outside the working folder', `<!-- doc-test: file ../x.json -->\n${FENCE}json\n{}\n${FENCE}`],
    ['a marker that is not right before a fence', `<!-- doc-test: skip: reason -->\n\n${FENCE}sh\nx\n${FENCE}`],
  ])('refuses %s rather than run or skip a block by accident', (_, markdown) => {
    expect(() => docBlocks(markdown, 'page.md')).toThrow(DocMarkerError)
  })

  it('reads a block indented under a list item, marker included, without its indentation', () => {
    const markdown = ['1. Start it:', '', '   <!-- doc-test: skip: runs until stopped -->', `   ${FENCE}sh`, '   npm start \\', '     --port 1', `   ${FENCE}`].join('\n')

    expect(docBlocks(markdown, 'page.md')).toEqual([{ file: 'page.md', line: 4, lang: 'sh', marker: { kind: 'skip', reason: 'runs until stopped' }, text: 'npm start \\\n  --port 1\n' }])
  })

  it('leaves a marker-looking line inside a block alone', () => {
    expect(docBlocks(`${FENCE}text\n<!-- doc-test: nonsense -->\nmore text\n${FENCE}`, 'page.md')).toHaveLength(1)
  })
})
