/** Replacing one of markdown-it's block rules with a wrapper around it. */
import type MarkdownIt from 'markdown-it'
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs'

export type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean

/**
 * Wraps the block rule `name`, keeping the blocks it may interrupt (plus
 * `interrupts`). markdown-it has no public way to read a rule back, so the
 * ruler's list is read directly; `at` without options would forget the alternatives.
 */
export function wrapBlockRule(md: MarkdownIt, name: string, wrap: (rule: BlockRule) => BlockRule, interrupts: string[] = []): void {
  const rules = (md.block.ruler as unknown as { __rules__: { name: string; fn: BlockRule; alt: string[] }[] }).__rules__
  const rule = rules.find((r) => r.name === name)
  if (rule === undefined) throw new Error(`markdown-it has no block rule ${name}`)
  md.block.ruler.at(name, wrap(rule.fn), { alt: [...new Set([...rule.alt, ...interrupts])] })
}
