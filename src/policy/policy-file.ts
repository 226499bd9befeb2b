import { createHash } from 'node:crypto'
import { LineCounter, parseDocument, isNode } from 'yaml'
import type { z } from 'zod'
import { policyVersion } from './environment-policy.js'
import { DEFAULT_LIMITS, type ApiKeyEntry, type KeyAccess, type OperatorPolicy, type OperatorRule } from './operator-policy.js'
import { PolicyFileError } from './policy-file-error.js'
import { policyFileSchema, type PolicyFile } from './policy-file-schema.js'
import { readPolicyText } from './read-policy-text.js'

export { PolicyFileError } from './policy-file-error.js'

/** The name of the rule asks fall under when no rule matches. */
export const DEFAULTS_RULE = 'defaults'

/**
 * A named key from `DSH_SLACK_API_KEYS` or `DSH_SLACK_API_KEY`: the secret
 * is hashed at once and never kept. `access`: given only to the one-key
 * form, which keeps the full access it always had.
 */
export function keyEntry(name: string, secret: string, access?: KeyAccess): ApiKeyEntry {
  return { name, secretSha256: [sha256(secret)], ...(access ? { access } : {}) }
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

function fieldOf(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`)).join('')
}

/**
 * Parses a policy file's text (YAML, or JSON, which YAML reads too) and
 * checks it; a mistake names the line and field. `envKeys`: keys from
 * `DSH_SLACK_API_KEYS`, added to the file's (a name in both is refused).
 */
export function parsePolicy(text: string, file: string, envKeys: ApiKeyEntry[] = []): OperatorPolicy {
  const lines = new LineCounter()
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  const syntax = document.errors[0]
  if (syntax) throw new PolicyFileError(file, lines.linePos(syntax.pos[0]).line, undefined, `is not valid YAML or JSON: ${syntax.message.split('\n')[0]}`)
  const lineAt = (path: readonly PropertyKey[]): number | undefined => {
    // A missing field has no node: point at its nearest parent that exists.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = document.getIn(path.slice(0, depth) as unknown[], true)
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line
    }
    return undefined
  }
  const content: unknown = document.toJS()
  // An empty, comment-only, `null` or `---` file (a truncated write, a
  // template never filled in) would put a policy of nothing in force: every
  // key and rule gone. Refused, so a mistake never fails open.
  if (definesNothing(content)) throw new PolicyFileError(file, undefined, undefined, `defines nothing (no defaults, rules, keys or limits): a policy file must say something; an empty file is never read as "no rules"`)
  const parsed = policyFileSchema.safeParse(content)
  if (!parsed.success) throw errorOf(parsed.error, file, lineAt)
  const policy = policyOf(parsed.data, file, envKeys)
  for (const [index, rule] of policy.rules.entries()) {
    const unknown = rule.match.key?.find((name) => !policy.keys.some((key) => key.name === name))
    if (unknown !== undefined) throw new PolicyFileError(file, lineAt(['rules', index, 'match', 'key']), `rules[${index}].match.key`, `names no key (${JSON.stringify(unknown)}): list it under keys or in DSH_SLACK_API_KEYS`)
  }
  return policy
}

/** The parts of a policy file that say something; `version` alone does not. */
const POLICY_PARTS = ['defaults', 'rules', 'keys', 'limits'] as const

function definesNothing(content: unknown): boolean {
  if (content === null || content === undefined) return true
  if (typeof content !== 'object' || Array.isArray(content)) return false
  return !POLICY_PARTS.some((part) => (content as Record<string, unknown>)[part] !== undefined && (content as Record<string, unknown>)[part] !== null)
}

function errorOf(error: z.ZodError, file: string, lineAt: (path: readonly PropertyKey[]) => number | undefined): PolicyFileError {
  const issue = error.issues[0]!
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path
  const problem = issue.code === 'unrecognized_keys' ? `is not a field this file knows (${issue.keys.join(', ')})` : issue.message
  return new PolicyFileError(file, lineAt(path), path.length > 0 ? fieldOf(path) : undefined, problem)
}

/** Reads (bounded: read-policy-text.ts) and checks the policy file at `path`. Throws `PolicyFileError`. */
export function loadPolicyFile(path: string, envKeys: ApiKeyEntry[] = []): OperatorPolicy {
  return parsePolicy(readPolicyText(path), path, envKeys)
}

type Settings = NonNullable<PolicyFile['defaults']>

function ruleOf(name: string, settings: Settings, base: OperatorRule | undefined, match: OperatorRule['match']): OperatorRule {
  const rule: OperatorRule = {
    name,
    match,
    channels: settings.channels ?? base?.channels ?? [],
    answerers: settings.answerers ?? base?.answerers ?? [],
    approvers: settings.approvers ?? base?.approvers ?? [],
    approvals: settings.approvals ?? base?.approvals ?? 1,
    mention: settings.mention ?? base?.mention ?? [],
  }
  const channel = settings.channel ?? base?.channel
  if (channel !== undefined) rule.channel = channel
  const remind = settings.remindAfter ?? base?.remindAfterMs
  if (remind !== undefined) rule.remindAfterMs = remind
  if (settings.escalate) {
    rule.escalateTo = settings.escalate.to
    rule.escalateAfterMs = settings.escalate.after
  } else if (base?.escalateTo !== undefined && base.escalateAfterMs !== undefined) {
    rule.escalateTo = base.escalateTo
    rule.escalateAfterMs = base.escalateAfterMs
  }
  return rule
}

/** The file as the bridge applies it: every rule complete, what it leaves out taken from the defaults. */
function policyOf(file: PolicyFile, source: string, envKeys: ApiKeyEntry[]): OperatorPolicy {
  const defaults = ruleOf(DEFAULTS_RULE, file.defaults ?? {}, undefined, {})
  const rules = (file.rules ?? []).map(({ name, match, ...settings }) => ruleOf(name, settings, defaults, matchOf(match)))
  const keys: ApiKeyEntry[] = (file.keys ?? []).map((key) => ({
    name: key.name,
    secretSha256: key.sha256,
    ...(key.channels ? { channels: key.channels } : {}),
    ...(key.rules ? { rules: key.rules } : {}),
    ...(key.read !== undefined || key.withdraw !== undefined ? { access: { read: key.read ?? 'own', withdraw: key.withdraw ?? 'own' } } : {}),
  }))
  for (const key of envKeys) {
    if (keys.some((entry) => entry.name === key.name)) throw new PolicyFileError(source, undefined, 'keys', `and DSH_SLACK_API_KEYS both name a key ${JSON.stringify(key.name)}: keep each key in one place`)
    const twin = keys.find((entry) => entry.secretSha256.some((hash) => key.secretSha256.includes(hash)))
    if (twin) throw new PolicyFileError(source, undefined, 'keys', `hold the digest of the environment's key ${JSON.stringify(key.name)} under ${JSON.stringify(twin.name)}: each secret belongs to one key`)
    keys.push(key)
  }
  const body = { defaults, rules, keys, limits: { ...DEFAULT_LIMITS, ...file.limits } }
  return { source, version: policyVersion(body), ...body }
}

function matchOf(match: NonNullable<PolicyFile['rules']>[number]['match']): OperatorRule['match'] {
  const result: OperatorRule['match'] = {}
  if (!match) return result
  for (const [field, value] of Object.entries(match)) if (value !== undefined) (result as Record<string, unknown>)[field] = value
  return result
}
