import { z } from 'zod'

/** The most approvals a quorum may ask for. */
export const MAX_APPROVALS = 10

/**
 * The most ids one list may hold: a request's `policy.approvers`, and a
 * policy file's `answerers`, `approvers` and `mention`. Every user-group id
 * in a list can cost a Slack look-up when someone clicks (Tier 2, about 20 a
 * minute), so a list of thousands is refused rather than looked up.
 */
export const MAX_LISTED_IDS = 100

export const USER_OR_GROUP = /^[UWS][A-Z0-9]{2,}$/
export const duration = z.union([z.number().int().positive(), z.string()], { error: 'expected milliseconds, or text like 15m or 2h' })

/**
 * `policy` of `POST /v1/asks` and of `open()`/`ask()` (ARCHITECTURE.md,
 * fixed): every key optional; durations as milliseconds or text like `15m`.
 */
export const policyInputSchema = z.strictObject(
  {
    approvals: z.number({ error: 'policy.approvals must be a number' }).int('policy.approvals must be a whole number').min(1, 'policy.approvals must be at least 1').max(MAX_APPROVALS, `policy.approvals must be at most ${MAX_APPROVALS}`).optional()
      .meta({ description: 'Distinct people who must approve a plan review (intent plan-review) or tool approval, 1–10; any other choice by an allowed person settles at once. A quorum on a plain question is 400 BAD_REQUEST. At least the operator\'s (the matching policy rule, or DSH_SLACK_APPROVALS): fewer is 403 POLICY_FORBIDDEN.', examples: [2] }),
    approvers: z
      .array(z.string().regex(USER_OR_GROUP, 'policy.approvers must list user ids (U…/W…) or user-group ids (S…)'), { error: 'policy.approvers must be a list of user or user-group ids' })
      .min(1, 'policy.approvers must name at least one user or user group')
      .max(MAX_LISTED_IDS, `policy.approvers may name at most ${MAX_LISTED_IDS} users and user groups (the cap on a list)`)
      .optional()
      .meta({ description: 'Who may approve (and veto): user ids (U…/W…) and user-group ids (S…), each one the operator\'s policy already lets decide (its approvers, else who may answer); anyone else is 403 POLICY_FORBIDDEN. Default for approvals: the policy\'s approvers (DSH_SLACK_APPROVERS).', examples: [['U0123ABCDEF', 'S0123ABCDEF']] }),
    remindAfter: duration.optional().meta({ description: 'With no answer after this long (ms, or text like "15m"), one reply in the question\'s thread mentions DSH_SLACK_MENTION (or the approvers) with a link. No later than the policy\'s (DSH_SLACK_REMIND_AFTER). Default: the policy\'s.', examples: ['15m'] }),
    escalateTo: z.string().regex(USER_OR_GROUP, 'policy.escalateTo must be a user id (U…/W…) or a user-group id (S…)').optional().meta({ description: 'With still no answer after escalateAfter: a user gets a DM with a link and the same controls; a user group is mentioned in the thread. Must be the policy\'s own escalation target, or (when it has none) someone the policy names; else 403 POLICY_FORBIDDEN. Default: DSH_SLACK_ESCALATE_TO.', examples: ['U0123ABCDEF'] }),
    escalateAfter: duration.optional().meta({ description: 'How long after the question was asked to escalate (ms, or text like "1h"); needs escalateTo; no later than the policy\'s. Default: DSH_SLACK_ESCALATE_AFTER.', examples: ['1h'] }),
  },
  { error: 'policy must be an object like {"approvals": 2, "remindAfter": "15m"}' },
).meta({ id: 'AskPolicy', description: 'Team rules for this ask: quorum, approvers, reminder, escalation. They may only tighten the operator\'s policy (DSH_SLACK_POLICY); anything looser is 403 POLICY_FORBIDDEN naming the rule and the field.' })

/** What a caller may pass as an ask's policy. */
export type PolicyInput = z.input<typeof policyInputSchema>

