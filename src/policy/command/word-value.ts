import type { ShellNode } from './shell-parser.js'

/**
 * A word's value as the program receives it (quotes removed, escapes
 * applied), or `undefined` when only the running shell knows it: an
 * expansion, a substitution, a glob, a brace expansion.
 */

// `{a,b}` and `{1..3}` expand into several words.
export const BRACE_EXPANSION = /\{[^{}]*(,|\.\.)[^{}]*\}/

/** Whether an unquoted word is a pattern the shell expands into file names: an unescaped `*`, `?` or `[…]`. */
export function isGlob(text: string): boolean {
  let bracket = false
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at]
    if (char === '\\') {
      at += 1
      continue
    }
    if (char === '*' || char === '?') return true
    if (char === '[') bracket = true
    else if (char === ']' && bracket) return true
  }
  return false
}

/** A word's value as the program receives it, or undefined when only the running shell knows it. */
export function wordValue(node: ShellNode): string | undefined {
  switch (node.type) {
    case 'word':
    case 'command_name': {
      if (node.type === 'command_name') {
        const only = node.children.length === 1 ? node.children[0] : null
        return only ? wordValue(only) : undefined
      }
      if (BRACE_EXPANSION.test(node.text) || isGlob(node.text)) return undefined
      return node.text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1')
    }
    case 'number':
      return node.text
    case 'raw_string':
      return node.text.slice(1, -1)
    case 'string':
      // Only literal text inside double quotes is known; any $x or $(…) is not.
      if (node.children.some((child) => child !== null && !['"', 'string_content'].includes(child.type))) return undefined
      return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, (_, escaped: string) => (escaped === '\n' ? '' : escaped))
    case 'translated_string': {
      const inner = node.children.find((child) => child?.type === 'string')
      return inner ? wordValue(inner) : undefined
    }
    case 'ansi_c_string':
      return ansiC(node.text.slice(2, -1))
    case 'concatenation': {
      if (BRACE_EXPANSION.test(node.text)) return undefined
      let text = ''
      for (const child of node.children) {
        const value = child ? wordValue(child) : undefined
        if (value === undefined) return undefined
        text += value
      }
      return text
    }
    default:
      // Expansions, substitutions, arithmetic and anything this reader does not know.
      return undefined
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' }

/** `$'…'` as bash decodes it; an escape it does not know keeps the word unknown. */
function ansiC(body: string): string | undefined {
  let unknown = false
  const text = body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_, escape: string) => {
    if (SIMPLE_ESCAPES[escape] !== undefined) return SIMPLE_ESCAPES[escape]!
    if (/^[xuU]/.test(escape) && escape.length > 1) return String.fromCodePoint(Number.parseInt(escape.slice(1), 16))
    if (/^[0-7]+$/.test(escape)) return String.fromCharCode(Number.parseInt(escape, 8))
    unknown = true
    return ''
  })
  return unknown ? undefined : text
}
