import { z } from 'zod'
import { parseDuration } from '../config/duration.js'
import { ASK_KINDS } from './operator-policy.js'
import { MAX_APPROVALS, MAX_LISTED_IDS } from './policy-input.js'

const CHANNEL = /^[CG][A-Z0-9]{2,}$|^[UW][A-Z0-9]{2,}$/
const USER_OR_GROUP = /^[UW][A-Z0-9]{2,}$|^S[A-Z0-9]{2,}$/
const SHA256 = /^[0-9a-f]{64}$/

const id = z.string({ error: 'must be a user id (U…/W…) or a user-group id (S…)' }).regex(USER_OR_GROUP, 'must be a user id (U…/W…) or a user-group id (S…), e.g. U0123ABCDEF or S0123ABCDEF')
const ids = z.array(id, { error: 'must be a list of user or user-group ids' }).max(MAX_LISTED_IDS, `may name at most ${MAX_LISTED_IDS} users and user groups (the cap on a list: each group can cost a Slack look-up per click)`)
const channel = z.string({ error: 'must be a channel id' }).regex(CHANNEL, 'must be a channel id (C…/G…), or a user id (U…/W…) for a DM')
const duration = z.union([z.number().int().positive(), z.string()], { error: 'must be a duration like 15m or 2h' }).transform((value, context) => {
  const ms = typeof value === 'number' ? value * 1000 : parseDuration(value)
  if (ms === null || !(ms > 0)) {
    context.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a duration (expected e.g. 90s, 15m or 2h)` })
    return z.NEVER
  }
  return ms
})
/** One glob or several. */
const globs = z.union([z.string(), z.array(z.string()).min(1, 'must list at least one pattern')], { error: 'must be a pattern (glob) or a list of them' }).transform((value) => (typeof value === 'string' ? [value] : value))

/** One string or several. */
const oneOrMore = (what: string) => z.union([z.string(), z.array(z.string()).min(1, `must list at least one ${what}`)], { error: `must be a ${what} or a list of them` }).transform((value) => (typeof value === 'string' ? [value] : value))

/** A command in command terms (src/policy/command/command-pattern.ts): every field given must hold. */
const commandShape = z
  .strictObject(
    {
      program: oneOrMore('program name (glob)').refine((names) => names.every((name) => !name.includes('/')), 'must be a program name, not a path: /usr/bin/git is matched as git').optional(),
      subcommand: oneOrMore('subcommand (glob)').optional(),
      flags: oneOrMore('option').refine((flags) => flags.every((flag) => /^--?[^-\s]/.test(flag)), 'must be options such as -f or --force').optional(),
      args: oneOrMore('argument glob').optional(),
    },
    { error: 'must be a pattern (glob) or an object with program, subcommand, flags or args' },
  )
  .refine((shape) => Object.values(shape).some((value) => value !== undefined), 'must say something: program, subcommand, flags or args')

/** Command patterns: globs over each normalised simple command (the short form), or commands in command terms. */
const commands = z
  .union([z.string(), commandShape, z.array(z.union([z.string(), commandShape], { error: 'must be a pattern (glob) or an object with program, subcommand, flags or args' })).min(1, 'must list at least one pattern')], { error: 'must be a pattern (glob), a command like {program: git, subcommand: push, flags: [--force]}, or a list of them' })
  .transform((value) => (Array.isArray(value) ? value : [value]))

const kind = z.enum(ASK_KINDS, { error: `must be one of ${ASK_KINDS.join(', ')}` })

const matchSchema = z.strictObject(
  {
    kind: z.union([kind, z.array(kind).min(1)]).transform((value) => (typeof value === 'string' ? [value] : value)).optional(),
    tool: globs.optional(),
    command: commands.optional(),
    title: globs.optional(),
    cwd: globs.optional(),
    host: globs.optional(),
    key: z.union([z.string(), z.array(z.string())]).transform((value) => (typeof value === 'string' ? [value] : value)).optional(),
  },
  { error: 'must be an object with kind, tool, command, title, cwd, host or key' },
)

const settingsShape = {
  channel: channel.optional(),
  channels: z.union([z.literal('*'), z.array(channel)], { error: 'must be "*" or a list of channel ids' }).optional(),
  answerers: ids.optional(),
  approvers: ids.optional(),
  approvals: z.number({ error: `must be a whole number from 1 to ${MAX_APPROVALS}` }).int(`must be a whole number from 1 to ${MAX_APPROVALS}`).min(1, 'must be at least 1').max(MAX_APPROVALS, `must be at most ${MAX_APPROVALS}`).optional(),
  mention: z.union([id, ids]).transform((value) => (typeof value === 'string' ? [value] : value)).optional(),
  remindAfter: duration.optional(),
  escalate: z.strictObject({ to: id, after: duration }, { error: 'must be an object like {to: S0123ABCDEF, after: 1h}' }).optional(),
}

export const ruleSchema = z.strictObject({ name: z.string({ error: 'must be a name' }).min(1, 'must not be empty'), match: matchSchema.optional(), ...settingsShape }, { error: 'must be an object with a name' })

/** How far a key reaches (docs/security.md): its own asks (the default), or every ask. */
const reach = z.enum(['own', 'all'], { error: 'must be "own" (the key\'s own asks, the default) or "all" (every key\'s asks)' })

export const keySchema = z.strictObject(
  {
    name: z.string({ error: 'must be a name' }).regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be letters, digits, ".", "_" or "-" (at most 64)'),
    // A number is taken here only to say what went wrong: YAML reads an unquoted all-digit digest as one (and rounds it).
    sha256: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])).min(1)], { error: 'must be the hex SHA-256 of the secret, or a list of them' })
      .transform((value, context) => {
        const hashes = Array.isArray(value) ? value : [value]
        if (hashes.every((hash) => typeof hash === 'string')) return hashes.map((hash) => hash.toLowerCase())
        context.addIssue({ code: 'custom', message: 'is a number: YAML reads an unquoted all-digit digest as a number and loses its digits; put the digest in quotes (sha256: "0123…")' })
        return z.NEVER
      })
      .refine((hashes) => hashes.every((hash) => SHA256.test(hash)), 'must be a 64-character hex SHA-256 digest (printf %s "$SECRET" | sha256sum); never the secret itself'),
    channels: z.array(channel).optional(),
    rules: z.array(z.string()).optional(),
    read: reach.optional(),
    withdraw: reach.optional(),
  },
  { error: 'must be an object like {name: ci, sha256: <hex digest>}' },
)

export const policyFileSchema = z
  .strictObject(
    {
      version: z.literal(1, { error: 'must be 1' }).optional(),
      defaults: z.strictObject(settingsShape, { error: 'must be an object' }).optional(),
      rules: z.array(ruleSchema, { error: 'must be a list of rules' }).optional(),
      keys: z.array(keySchema, { error: 'must be a list of keys' }).optional(),
      limits: z
        .strictObject({
          pending: z.number().int().positive('must be a positive whole number').optional(),
          pendingPerKey: z.number().int().positive('must be a positive whole number').optional(),
        })
        .optional(),
    },
    { error: 'must be a mapping with defaults, rules, keys and limits' },
  )
  .superRefine((file, context) => {
    const names = new Set<string>()
    file.rules?.forEach((rule, index) => {
      if (names.has(rule.name)) context.addIssue({ code: 'custom', path: ['rules', index, 'name'], message: `is used twice: rule names must be unique (${JSON.stringify(rule.name)})` })
      names.add(rule.name)
    })
    const keys = new Set<string>()
    const digests = new Map<string, string>()
    file.keys?.forEach((key, index) => {
      if (keys.has(key.name)) context.addIssue({ code: 'custom', path: ['keys', index, 'name'], message: `is used twice: list both secrets of a rotation under one key (sha256: [old, new])` })
      keys.add(key.name)
      for (const hash of key.sha256) {
        // One secret, two keys: which name a request gets would depend on the order, and ownership with it.
        const first = digests.get(hash)
        if (first !== undefined && first !== key.name) context.addIssue({ code: 'custom', path: ['keys', index, 'sha256'], message: `is also the digest of key ${JSON.stringify(first)}: each secret belongs to one key` })
        digests.set(hash, key.name)
      }
      key.rules?.forEach((name, at) => {
        if (!names.has(name)) context.addIssue({ code: 'custom', path: ['keys', index, 'rules', at], message: `names no rule (${JSON.stringify(name)})` })
      })
    })
  })

export type PolicyFile = z.output<typeof policyFileSchema>
