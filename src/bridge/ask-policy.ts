import { z } from 'zod'
import { parseDuration } from '../config/duration.js'
import { UserInteractionError, type ValidQuestion } from '../contract/index.js'
import type { AskPolicy } from '../store/team-records.js'

/** The most approvals a quorum may ask for. */
export const MAX_APPROVALS = 10

const USER_OR_GROUP = /^[UWS][A-Z0-9]{2,}$/
const duration = z.union([z.number().int().positive(), z.string()], { error: 'expected milliseconds, or text like 15m or 2h' })

/**
 * `policy` of `POST /v1/asks` and of `open()`/`ask()` (ARCHITECTURE.md,
 * fixed): every key optional; durations as milliseconds or text like `15m`.
 */
export const policyInputSchema = z.strictObject(
  {
    approvals: z.number({ error: 'policy.approvals must be a number' }).int('policy.approvals must be a whole number').min(1, 'policy.approvals must be at least 1').max(MAX_APPROVALS, `policy.approvals must be at most ${MAX_APPROVALS}`).optional()
      .meta({ description: 'Distinct people who must approve a plan review (intent plan-review) or tool approval, 1–10; any other choice by an allowed person settles at once. A quorum on a plain question is 400 BAD_REQUEST. Default: DSH_SLACK_APPROVALS (1).', examples: [2] }),
    approvers: z
      .array(z.string().regex(USER_OR_GROUP, 'policy.approvers must list user ids (U…/W…) or user-group ids (S…)'), { error: 'policy.approvers must be a list of user or user-group ids' })
      .min(1, 'policy.approvers must name at least one user or user group')
      .optional()
      .meta({ description: 'Who may approve (and veto): user ids (U…/W…) and user-group ids (S…). Default for approvals: DSH_SLACK_APPROVERS; otherwise SLACK_ALLOWED_USERS/USERGROUPS.', examples: [['U0123ABCDEF', 'S0123ABCDEF']] }),
    remindAfter: duration.optional().meta({ description: 'With no answer after this long (ms, or text like "15m"), one reply in the question\'s thread mentions DSH_SLACK_MENTION (or the approvers) with a link. Default: DSH_SLACK_REMIND_AFTER.', examples: ['15m'] }),
    escalateTo: z.string().regex(USER_OR_GROUP, 'policy.escalateTo must be a user id (U…/W…) or a user-group id (S…)').optional().meta({ description: 'With still no answer after escalateAfter: a user gets a DM with a link and the same controls; a user group is mentioned in the thread. Default: DSH_SLACK_ESCALATE_TO.', examples: ['U0123ABCDEF'] }),
    escalateAfter: duration.optional().meta({ description: 'How long after the question was asked to escalate (ms, or text like "1h"); needs escalateTo. Default: DSH_SLACK_ESCALATE_AFTER.', examples: ['1h'] }),
  },
  { error: 'policy must be an object like {"approvals": 2, "remindAfter": "15m"}' },
).meta({ id: 'AskPolicy', description: 'Team rules for this ask: quorum, approvers, reminder, escalation.' })

/** What a caller may pass as an ask's policy. */
export type PolicyInput = z.input<typeof policyInputSchema>

/** The bridge's defaults (DSH_SLACK_APPROVALS, …), already checked. */
export interface PolicyDefaults {
  approvals: number
  approvers: string[]
  remindAfterMs?: number
  escalateTo?: string
  escalateAfterMs?: number
}

/** What an ask is, for the rules below. */
export type AskStyle = 'approval' | 'question'

/** A plan review (a recognised intent) is approval-style, like a relayed tool approval. */
export function styleOfQuestions(questions: ValidQuestion[]): AskStyle {
  const only = questions.length === 1 ? questions[0]! : undefined
  return only?.intent?.kind === 'plan-review' && only.options.some((option) => option.label === only.intent!.approve) ? 'approval' : 'question'
}

function ms(name: string, value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined
  const parsed = typeof value === 'number' ? value : parseDuration(value)
  if (parsed === null || !(parsed > 0)) throw new UserInteractionError('BAD_REQUEST', `policy.${name} ${JSON.stringify(value)} is not a duration (expected milliseconds, or text like 90s, 15m or 2h)`)
  return parsed
}

/**
 * The policy an ask gets: the request's, over the bridge's defaults. A
 * quorum on a plain question is refused (`BAD_REQUEST`): only plan reviews
 * and tool approvals have an "approve" to count. The default quorum and
 * approvers apply to approval-style asks only, so plain questions keep
 * "first answer wins"; reminders and escalation apply to every ask.
 * Returns undefined when nothing differs from Slack's ordinary behaviour.
 */
export function resolvePolicy(input: unknown, defaults: PolicyDefaults, style: AskStyle): AskPolicy | undefined {
  const parsed = policyInputSchema.optional().safeParse(input)
  if (!parsed.success) throw new UserInteractionError('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'policy is malformed')
  const given = parsed.data ?? {}
  if (style === 'question' && given.approvals !== undefined && given.approvals > 1) {
    throw new UserInteractionError('BAD_REQUEST', `policy.approvals ${given.approvals} needs a plan review or a tool approval: a plain question has no "approve" to count (drop policy.approvals, or ask with intent plan-review)`)
  }
  const policy: AskPolicy = { approvals: given.approvals ?? (style === 'approval' ? defaults.approvals : 1) }
  const approvers = given.approvers ?? (style === 'approval' && defaults.approvers.length > 0 ? defaults.approvers : undefined)
  if (approvers) policy.approvers = [...new Set(approvers)]
  const remindAfterMs = ms('remindAfter', given.remindAfter) ?? defaults.remindAfterMs
  if (remindAfterMs !== undefined) policy.remindAfterMs = remindAfterMs
  const givenEscalation = given.escalateTo !== undefined || given.escalateAfter !== undefined
  const escalateTo = givenEscalation ? given.escalateTo : defaults.escalateTo
  const escalateAfterMs = givenEscalation ? ms('escalateAfter', given.escalateAfter) : defaults.escalateAfterMs
  if ((escalateTo === undefined) !== (escalateAfterMs === undefined)) {
    throw new UserInteractionError('BAD_REQUEST', escalateTo === undefined ? 'policy.escalateAfter needs policy.escalateTo (whom to bring the question to)' : 'policy.escalateTo needs policy.escalateAfter (how long to wait first, e.g. "1h")')
  }
  if (escalateTo !== undefined && escalateAfterMs !== undefined) {
    policy.escalateTo = escalateTo
    policy.escalateAfterMs = escalateAfterMs
  }
  return policy.approvals === 1 && Object.keys(policy).length === 1 ? undefined : policy
}
