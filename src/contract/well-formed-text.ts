/**
 * A high surrogate not followed by a low one, or a low one not preceded by a
 * high one (no `u` flag: it must see the halves). The same pattern as
 * blocks/text.ts's, copied: the contract imports nothing from another folder
 * (test/contract/boundary.test.ts), and blocks/ repairs such text where the
 * contract refuses it.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text)
}

/**
 * Where a value holds text that is not well-formed Unicode: a lone
 * surrogate (`"\ud800"` in JSON). PostgreSQL's jsonb refuses such text and
 * Slack would show a replacement character, so the ask is refused up front,
 * the same way on every store. Returns the path (`questions[0].options[1].label`)
 * of the first such string, or undefined.
 */
export function illFormedTextAt(value: unknown, path = '', seen = new WeakSet<object>()): string | undefined {
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : path || '(the value)'
  // An object met twice (a value that refers back to itself) was looked at the first time.
  if (typeof value !== 'object' || value === null || seen.has(value) || value instanceof AbortSignal) return undefined
  seen.add(value)
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = illFormedTextAt(item, `${path}[${index}]`, seen)
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const [key, item] of Object.entries(value)) {
    const here = path === '' ? key : `${path}.${key}`
    if (!isWellFormedText(key)) return here
    const found = illFormedTextAt(item, here, seen)
    if (found !== undefined) return found
  }
  return undefined
}
