/**
 * The sample asks the local stand-in's page offers ("Send a sample ask"),
 * so a newcomer sees every card shape without writing a request: one
 * question with buttons, a multi-select, a batch of questions (a modal
 * form), a plan review with a realistic plan, and a tool approval (the
 * harness plugin's headline: a command the agent wants to run).
 *
 * The stand-in starts before the bridge (the bridge connects to it), so the
 * hook it is given resolves the bridge when a sample is sent: `attach()` it
 * once the bridge runs.
 */
import type { OpenApprovalInput, SlackBridge } from '../bridge/types.js'
import type { AskUserQuestionRequest } from '../contract/index.js'
import { planReviewQuestion } from '../contract/plan-review.js'

export const SAMPLE_KINDS = ['question', 'multi-select', 'batch', 'plan-review', 'tool-approval'] as const
export type SampleKind = (typeof SAMPLE_KINDS)[number]

const agent = { id: 'sess-sample-7f3a', title: 'sample-agent' }

const PLAN = `# Move the shop's packages into one pnpm workspace

The repo has three packages (\`web\`, \`api\`, \`shared\`) that each install on their own, so CI installs dependencies three times and \`shared\` is consumed through a \`file:\` link that breaks on every rename. This plan moves them into **one pnpm workspace** and keeps CI green at every step.

## Steps

1. Add \`pnpm-workspace.yaml\` listing \`packages/*\`, and move the three folders under \`packages/\`.
2. Replace each \`package-lock.json\` with one \`pnpm-lock.yaml\`:
   - keep every version exactly as locked today (\`pnpm import\` reads the old lockfiles)
   - check the few hoisting differences with \`pnpm why\`
3. Point \`web\` and \`api\` at \`shared\` with \`"@shop/shared": "workspace:*"\`.
4. Update CI to install once and cache the store:

\`\`\`yaml
- uses: pnpm/action-setup@v4
  with:
    version: 9
- run: pnpm install --frozen-lockfile
- run: pnpm -r --parallel test
\`\`\`

5. Delete the old \`install:all\` script and update the README.

## Risks

| risk | likelihood | mitigation |
|:-----|:----------:|:-----------|
| a package relies on hoisting | medium | \`node-linker=hoisted\` for one release |
| CI cache misses | low | cache \`~/.pnpm-store\` keyed on the lockfile |
| Docker builds copy the wrong folder | low | build context stays the repo root |

> Rollback: everything lands as one merge commit; reverting it restores the three lockfiles.

Estimated effort: half a day. See the [pnpm workspace docs](https://pnpm.io/workspaces).
`

/** One request per sample kind that is a question, as an agent would send them. */
export const SAMPLE_ASKS: Record<Exclude<SampleKind, 'tool-approval'>, AskUserQuestionRequest> = {
  question: {
    agent,
    questions: [
      {
        id: 'package-manager',
        header: 'Tooling',
        question: 'Which package manager should the project use?',
        detail: 'The lockfile decides **install speed** in CI. The current setup is in `package.json`.',
        options: [
          { label: 'pnpm (Recommended)', description: 'Fast, disk-efficient, strict about undeclared dependencies.' },
          { label: 'npm', description: 'Ships with Node; nothing to install.' },
          { label: 'yarn', description: 'Berry, with Plug’n’Play.' },
        ],
      },
    ],
  },
  'multi-select': {
    agent,
    questions: [
      {
        id: 'checks',
        header: 'CI',
        question: 'Which checks must pass before a pull request can merge?',
        multiSelect: true,
        options: [
          { label: 'lint' },
          { label: 'typecheck', description: 'tsc --noEmit' },
          { label: 'unit tests' },
          { label: 'end-to-end tests', description: 'Playwright, about 6 minutes' },
        ],
      },
    ],
  },
  batch: {
    agent,
    questions: [
      {
        id: 'runtime',
        header: 'Runtime',
        question: 'Which Node version should CI and production use?',
        options: [{ label: '20 LTS' }, { label: '22 LTS' }],
      },
      {
        id: 'deploy',
        header: 'Deploy',
        question: 'Where should the staging stack run?',
        options: [{ label: 'eu-west-1', description: 'Ireland' }, { label: 'us-east-1', description: 'Virginia' }, { label: 'ap-southeast-2', description: 'Sydney' }],
      },
      {
        id: 'checks',
        header: 'CI',
        question: 'Which checks must pass before merge?',
        multiSelect: true,
        options: [{ label: 'lint' }, { label: 'typecheck' }, { label: 'unit tests' }],
      },
      { id: 'notes', header: 'Notes', question: 'Anything else the agent should know before it starts?' },
    ],
  },
  'plan-review': {
    agent,
    questions: [
      planReviewQuestion(PLAN),
    ],
  },
}

/**
 * A tool approval as the harness plugin (and the relay) asks one: the tool,
 * its arguments as the model wrote them, and the harness's reason. The
 * command is long enough to wrap on a phone, as real ones are.
 */
export const SAMPLE_APPROVAL: OpenApprovalInput = {
  agent,
  toolName: 'bash',
  callId: 'call-sample-1',
  reason: 'bash runs commands on your machine: the permission mode asks first',
  arguments: JSON.stringify({ command: 'pnpm -r run migrate --filter @shop/api -- --to 2026_12_04_add_cache_table', description: 'Apply the database migrations of the api package', timeout: 120000 }),
}

/** The stand-in's `samples` hook, and the bridge it posts through once attached. */
export interface SampleAskHook {
  /** What the stand-in takes as its `samples` option. */
  readonly samples: { kinds: readonly string[]; send(kind: string): Promise<void> }
  /** Gives the hook the running bridge (returns it, to wrap a bridge factory). */
  attach<B extends Pick<SlackBridge, 'open' | 'openApproval'>>(bridge: B): B
}

export function sampleAskHook(): SampleAskHook {
  let bridge: Pick<SlackBridge, 'open' | 'openApproval'> | undefined
  return {
    samples: {
      kinds: SAMPLE_KINDS,
      async send(kind) {
        if (!bridge) throw new Error('the bridge is still starting; try again in a moment')
        if (kind === 'tool-approval') {
          await bridge.openApproval(structuredClone(SAMPLE_APPROVAL))
          return
        }
        const request = (SAMPLE_ASKS as Record<string, AskUserQuestionRequest | undefined>)[kind]
        if (!request) throw new Error(`no sample ${JSON.stringify(kind)}`)
        await bridge.open(structuredClone(request))
      },
    },
    attach(next) {
      bridge = next
      return next
    },
  }
}
