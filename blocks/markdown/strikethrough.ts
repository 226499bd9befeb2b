/**
 * GFM strikethrough as micromark reads it: `~one~` and `~~two~~` strike, a
 * run of three or more tildes is literal, and a run closes only a run of
 * its own length. markdown-it's own rule strikes `~~` pairs only and splits
 * longer runs into pairs.
 */
import type MarkdownIt from 'markdown-it'
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs'
import type { Delimiter } from 'markdown-it/lib/rules_inline/state_inline.mjs'

/** Delimiter markers: markdown-it pairs openers with closers of the same marker, so each run length gets its own. */
const SINGLE = 0x7e
const DOUBLE = 0x7e7e

function tokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== 0x7e /* ~ */) return false
  const scanned = state.scanDelims(state.pos, true)
  const run = '~'.repeat(scanned.length)
  const token = state.push('text', '', 0)
  token.content = run
  if (scanned.length <= 2) {
    state.delimiters.push({ marker: scanned.length === 1 ? SINGLE : DOUBLE, length: 0, token: state.tokens.length - 1, end: -1, open: scanned.can_open, close: scanned.can_close })
  }
  state.pos += scanned.length
  return true
}

function pair(state: StateInline, delimiters: Delimiter[]): void {
  for (const start of delimiters) {
    if ((start.marker !== SINGLE && start.marker !== DOUBLE) || start.end === -1) continue
    const end = delimiters[start.end]!
    const markup = start.marker === SINGLE ? '~' : '~~'
    Object.assign(state.tokens[start.token]!, { type: 's_open', tag: 's', nesting: 1, markup, content: '' })
    Object.assign(state.tokens[end.token]!, { type: 's_close', tag: 's', nesting: -1, markup, content: '' })
  }
}

function postProcess(state: StateInline): boolean {
  pair(state, state.delimiters)
  for (const meta of state.tokens_meta) if (meta?.delimiters) pair(state, meta.delimiters)
  return false
}

export function gfmStrikethrough(md: MarkdownIt): void {
  md.inline.ruler.at('strikethrough', tokenize)
  md.inline.ruler2.at('strikethrough', postProcess)
}
