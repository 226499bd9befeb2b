/**
 * `[text](` whose inline link does not close is a shortcut reference
 * (`[text]` alone) in CommonMark. markdown-it 14 reads the reference from
 * where its attempt at the inline link stopped instead of from the `]`:
 * `[a](<b>[x]` links "a" to the definition of `x` and swallows the rest,
 * and `[x](` at the end of a line is text even where `x` is defined.
 */
import type MarkdownIt from 'markdown-it'
import { type InlineRule, wrapInlineRule } from './wrap-rules.js'

/**
 * Where `](` follows the label and the inline link does not parse (a probe
 * in silent mode, which pushes no tokens), the rule runs again on the source
 * up to the `]`, where only the shortcut reference can match.
 */
function shortcutWhereInlineFails(rule: InlineRule, labelOpensAt: 0 | 1): InlineRule {
  return (state, silent) => {
    const start = state.pos
    if (state.src.charCodeAt(start + labelOpensAt) !== 0x5b /* [ */) return false
    // Links may not hold links, images may (the third argument is markdown-it's own).
    const labelEnd = state.md.helpers.parseLinkLabel(state, start + labelOpensAt, labelOpensAt === 0)
    if (labelEnd < 0 || state.src.charCodeAt(labelEnd + 1) !== 0x28 /* ( */) return rule(state, silent)
    const inlineLink = rule(state, true) && state.src.charCodeAt(state.pos - 1) === 0x29 /* ) */
    state.pos = start
    if (inlineLink) return rule(state, silent)
    const max = state.posMax
    state.posMax = labelEnd + 1
    try {
      return rule(state, silent)
    } finally {
      state.posMax = max
    }
  }
}

export function shortcutAfterUnclosedLinks(md: MarkdownIt): void {
  wrapInlineRule(md, 'link', (rule) => shortcutWhereInlineFails(rule, 0))
  wrapInlineRule(md, 'image', (rule) => shortcutWhereInlineFails(rule, 1))
}
