/**
 * The fenced blocks of the project's Markdown, as the doc-test reads them
 * (docs/README.md, "Every example runs"): the language after the fence, and
 * the `<!-- doc-test: … -->` line right before it, if any.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

export type DocMarker = { kind: 'skip'; reason: string } | { kind: 'file'; name: string }

export interface DocBlock {
  /** The Markdown file, relative to the project. */
  file: string
  /** 1-based line of the opening fence. */
  line: number
  /** The word after the fence (`sh`, `json`, …); empty when there is none. */
  lang: string
  marker?: DocMarker
  text: string
}

/** Markers that are not one of the two forms: a typo would otherwise quietly run (or skip) a block. */
export class DocMarkerError extends Error {}

const MARKER = /^<!--\s*doc-test:\s*(.*?)\s*-->$/
// Indented fences count too: an example inside a numbered step is still an example.
const FENCE = /^( *)(`{3,}|~{3,})\s*([\w-]*)/

function parseMarker(body: string, where: string): DocMarker {
  const skip = /^skip:\s*(\S.*)$/.exec(body)
  if (skip) return { kind: 'skip', reason: skip[1]! }
  const file = /^file\s+([\w.-]+(?:\/[\w.-]+)*)$/.exec(body)
  if (file && !file[1]!.split('/').includes('..')) return { kind: 'file', name: file[1]! }
  throw new DocMarkerError(`${where}: "<!-- doc-test: ${body} -->" is neither "skip: reason" nor "file NAME"`)
}

export function docBlocks(markdown: string, file: string): DocBlock[] {
  const lines = markdown.split('\n')
  const blocks: DocBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!)
    // A marker that is not right before a fence belongs to nothing: say so rather than ignore it.
    if (!open && MARKER.test(lines[i]!.trim()) && !FENCE.test(lines[i + 1] ?? '')) throw new DocMarkerError(`${file}:${i + 1}: a doc-test marker must be the line right before a fence`)
    if (!open) continue
    const indent = open[1]!.length
    const fence = open[2]!
    const before = i > 0 ? MARKER.exec(lines[i - 1]!.trim()) : null
    const body: string[] = []
    let j = i + 1
    // The block's lines lose the fence's indentation, as Markdown reads them.
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence)) body.push(lines[j++]!.replace(new RegExp(`^ {0,${indent}}`), ''))
    blocks.push({
      file,
      line: i + 1,
      lang: open[3] ?? '',
      ...(before ? { marker: parseMarker(before[1]!, `${file}:${i}`) } : {}),
      text: body.join('\n') + '\n',
    })
    i = j
  }
  return blocks
}

/** README.md and every Markdown file under docs/, relative to `root`, in a stable order. */
export function docFiles(root: string): string[] {
  const found = ['README.md']
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.md')) found.push(relative(root, path))
    }
  }
  walk(join(root, 'docs'))
  return found
}

export function readDocBlocks(root: string, file: string): DocBlock[] {
  return docBlocks(readFileSync(join(root, file), 'utf8'), file)
}
