/**
 * Replacing one of markdown-it's rules with a wrapper around it.
 * markdown-it has no public way to read a rule back, so the ruler's list is
 * read directly, here only.
 */
import type MarkdownIt from 'markdown-it'
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs'
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs'

export type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean
export type InlineRule = (state: StateInline, silent: boolean) => boolean

function ruleNamed<Fn>(ruler: unknown, kind: string, name: string): { fn: Fn; alt: string[] } {
  const rule = (ruler as { __rules__: { name: string; fn: Fn; alt: string[] }[] }).__rules__.find((r) => r.name === name)
  if (rule === undefined) throw new Error(`markdown-it has no ${kind} rule ${name}`)
  return rule
}

/**
 * Wraps the block rule `name`, keeping the blocks it may interrupt (plus
 * `interrupts`): `at` without options would forget the alternatives.
 */
export function wrapBlockRule(md: MarkdownIt, name: string, wrap: (rule: BlockRule) => BlockRule, interrupts: string[] = []): void {
  const rule = ruleNamed<BlockRule>(md.block.ruler, 'block', name)
  md.block.ruler.at(name, wrap(rule.fn), { alt: [...new Set([...rule.alt, ...interrupts])] })
}

/** Wraps the inline rule `name`. */
export function wrapInlineRule(md: MarkdownIt, name: string, wrap: (rule: InlineRule) => InlineRule): void {
  md.inline.ruler.at(name, wrap(ruleNamed<InlineRule>(md.inline.ruler, 'inline', name).fn))
}
