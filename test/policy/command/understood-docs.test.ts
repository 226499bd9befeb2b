import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GIT_SUBCOMMANDS, UNDERSTOOD_PROGRAMS } from '../../../src/policy/command/understood.js'

// docs/policy.md lists what dsh-slack understands: it must be the list in
// understood.ts, no more (an operator would trust a looser rule for it) and
// no less.

const markdown = readFileSync(new URL('../../../docs/policy.md', import.meta.url), 'utf8')
const block = /<!-- understood-list -->\n([\s\S]*?)\n<!-- \/understood-list -->/.exec(markdown)?.[1] ?? ''

/** The rows of the list's table, by their first cell. */
const rows = new Map(
  block
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| kind') && !line.startsWith('| ---'))
    .map((line) => {
      const [kind, cell] = line.slice(2, -2).split(' | ')
      return [kind!, cell!] as const
    }),
)

/** The name each item of a cell starts with: items are split at commas outside parentheses. */
function names(cell: string): string[] {
  const items: string[] = []
  let depth = 0
  let current = ''
  for (const char of cell) {
    if (char === '(') depth += 1
    if (char === ')') depth -= 1
    if (char === ',' && depth === 0) {
      items.push(current)
      current = ''
    } else current += char
  }
  items.push(current)
  return items.flatMap((item) => /`([^`]+)`/.exec(item)?.[1] ?? []).flatMap((name) => name.split(' and ').map((one) => one.trim()))
}

describe('docs/policy.md and the understood list', () => {
  it('names every understood program, and only those', () => {
    const documented = ['shell builtins', 'reading and printing', 'changing files', 'package scripts and builds'].flatMap((kind) => names(rows.get(kind) ?? ''))
    // `env` and `exec` share an item ("`env` and `exec` with nothing to run").
    const withShared = [...documented, ...(/`env` and `exec`/.test(rows.get('shell builtins') ?? '') ? ['exec'] : [])]

    expect(new Set(withShared)).toEqual(new Set(Object.keys(UNDERSTOOD_PROGRAMS).filter((program) => program !== 'git')))
  })

  it('names every understood git subcommand, and only those', () => {
    const git = rows.get('git') ?? ''

    expect(new Set(names(git.slice(0, git.indexOf(';'))))).toEqual(new Set(Object.keys(GIT_SUBCOMMANDS)))
  })
})
