/**
 * Writes one JSON payload per card shape and state into blocks/examples/,
 * each pasteable into Slack's Block Kit Builder. Run by `npm run examples`
 * (built first, so this runs from dist/ and writes into the source folder).
 * The only file under blocks/ allowed to do I/O; the boundary test skips examples/.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  approvalMessage,
  batchModal,
  feedbackModal,
  otherModal,
  questionMessage,
  settledApprovalMessage,
  settledMessage,
} from '../index.js'
import type { ApprovalView, AskView, Outcome, QuestionView } from '../view.js'

/** The package root: the nearest folder above this file holding package.json (works from blocks/ and dist/blocks/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('package.json not found above blocks/examples')
    dir = up
  }
  return dir
}

const AT = Date.UTC(2026, 6, 1, 12, 0, 0)
const agent = { id: 'sess-7f3a', title: 'refactor-bot', cwd: '/home/dev/shop' }
const alice = { id: 'U0ALICE', name: 'alice' }

function q(overrides: Partial<QuestionView>): QuestionView {
  return { id: 'q1', question: 'Which package manager should the project use?', header: 'Tooling', options: [], multiSelect: false, ...overrides }
}

function ask(questions: QuestionView[], overrides: Partial<AskView> = {}): AskView {
  return { askId: 'ex1', locale: 'en', agent, mention: 'U0TEAMLEAD', expiresAt: AT + 30 * 60_000, questions, ...overrides }
}

const managers = [
  { label: 'pnpm (Recommended)', description: 'Fast, disk-efficient, strict.' },
  { label: 'npm', description: 'Ships with Node.' },
  { label: 'yarn', description: 'Berry, with Plug’n’Play.' },
]
const many = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `Region ${i + 1}` }))

const PLAN = `# Migrate the shop to pnpm workspaces

The repo has three packages that install separately. This plan moves them into one **pnpm workspace** and keeps CI green at every step.

## Steps

1. Add \`pnpm-workspace.yaml\` listing \`packages/*\`.
2. Replace each \`package-lock.json\` with one \`pnpm-lock.yaml\`.
   - keep versions exactly as locked today
   - check with \`pnpm why\`
3. Update CI:

\`\`\`yaml
- uses: pnpm/action-setup@v4
- run: pnpm install --frozen-lockfile
\`\`\`

## Risks

| risk | likelihood | mitigation |
|:-----|:----------:|-----------:|
| hoisting differences | medium | \`node-linker=hoisted\` for one release |
| CI cache misses | low | cache \`~/.pnpm-store\` |

> Rollback: revert the single merge commit.

See the [pnpm docs](https://pnpm.io/workspaces). Not a real link: [bank.com](https://evil.example).
`

const LONG_PLAN = `${PLAN}\n\n${Array.from({ length: 120 }, (_, i) => `## Appendix ${i + 1}\n\nDetail ${i + 1}: ${'each package keeps its own scripts and its own tests; '.repeat(6)}\n\n\`\`\`sh\npnpm --filter pkg${i} test\n\`\`\``).join('\n\n')}`

function planQuestion(detail: string): QuestionView {
  return {
    id: 'plan-review',
    header: 'Plan review',
    question: 'Approve this plan and leave plan mode?',
    detail,
    options: [
      { label: 'Approve', description: 'Leave plan mode; the plan is carried out from the next step.' },
      { label: 'Keep planning', description: 'Stay in plan mode; feedback goes back to the model.' },
    ],
    multiSelect: false,
    intent: { kind: 'plan-review', approve: 'Approve' },
  }
}

const single = ask([q({ options: managers, detail: 'The lockfile decides **install speed** in CI. See `package.json`.' })])
const batch = ask([
  q({ id: 'pm', options: managers }),
  q({ id: 'node', header: 'Runtime', question: 'Which Node version?', options: [{ label: '20 LTS' }, { label: '22 LTS' }] }),
  q({ id: 'checks', header: 'CI', question: 'Which checks must pass before merge?', multiSelect: true, options: [{ label: 'lint' }, { label: 'typecheck' }, { label: 'unit tests' }, { label: 'e2e' }] }),
  q({ id: 'notes', header: 'Notes', question: 'Anything else the agent should know?', options: [] }),
])
// Short enough for cards (decision 0077): single-select, at most three short options each.
const shortBatch = ask([
  q({ id: 'pm', header: 'Tooling', question: 'Which package manager?', options: [{ label: 'pnpm', description: 'fast installs, strict' }, { label: 'npm' }, { label: 'yarn' }] }),
  q({ id: 'node', header: 'Runtime', question: 'Which Node version?', options: [{ label: '22 LTS' }, { label: '24' }] }),
  q({ id: 'license', header: 'Licence', question: 'Which licence for the new package?', detail: 'The rest of the repository is MIT.', options: [{ label: 'MIT' }, { label: 'Apache-2.0' }] }),
])
const plan = ask([planQuestion(PLAN)])
const approval: ApprovalView = {
  askId: 'ex2',
  locale: 'en',
  toolName: 'bash',
  reason: 'Run `pnpm install --frozen-lockfile` in /home/dev/shop',
  callId: 'call_81c2',
  arguments: JSON.stringify({ command: 'pnpm install --frozen-lockfile', cwd: '/home/dev/shop' }),
  agent,
  mention: 'U0TEAMLEAD',
  expiresAt: AT + 10 * 60_000,
}

/** Every example payload by file name (without `.json`); the examples test compares them with the committed files. */
export const examples: Record<string, unknown> = {}
const message = (name: string, view: AskView) => {
  const rendered = questionMessage(view)
  examples[name] = rendered.message
  rendered.thread.slice(0, 1).forEach((part) => (examples[`${name}.thread-part-1`] = part))
}
const settled = (name: string, view: AskView, outcome: Outcome) => (examples[name] = settledMessage(view, outcome))

message('question-buttons', single)
message('question-select', ask([q({ question: 'Which region should host the staging stack?', header: 'Deploy', options: many(20) })]))
message('question-external-select', ask([q({ question: 'Which region should host the staging stack?', header: 'Deploy', options: many(150) })]))
message('question-checkboxes', ask([q({ question: 'Which checks must pass before merge?', header: 'CI', multiSelect: true, options: [{ label: 'lint' }, { label: 'typecheck', description: 'tsc --noEmit' }, { label: 'unit tests' }] })]))
message('question-multi-select', ask([q({ question: 'Which regions?', header: 'Deploy', multiSelect: true, options: many(30) })]))
message('question-multi-external-select', ask([q({ question: 'Which regions?', header: 'Deploy', multiSelect: true, options: many(150) })]))
message('question-reply', ask([q({ question: 'What should the release be called?', header: 'Release', options: [] })]))
message('question-batch', batch)
message('question-batch-carousel', shortBatch)
message('question-batch-large', ask(Array.from({ length: 80 }, (_, i) => q({ id: `q${i}`, header: `Module ${i + 1}`, question: `Keep module ${i + 1}?`, options: [{ label: 'keep' }, { label: 'drop' }] }))))
message('plan-review', plan)
message('plan-review-long', ask([planQuestion(LONG_PLAN)]))
message('plan-review-zh', ask([planQuestion(PLAN)], { locale: 'zh-CN' }))

settled('settled-answered', single, { kind: 'answered', by: alice, at: AT, answers: [{ id: 'q1', selected: ['pnpm (Recommended)'] }] })
settled('settled-answered-custom', single, { kind: 'answered', by: alice, at: AT, answers: [{ id: 'q1', selected: [], custom: 'bun, if CI supports it' }] })
settled('settled-answered-batch', batch, { kind: 'answered', by: alice, at: AT, answers: [{ id: 'pm', selected: ['npm'] }, { id: 'node', selected: ['22 LTS'] }, { id: 'checks', selected: ['lint', 'typecheck'] }, { id: 'notes', selected: [] }] })
settled('settled-answered-carousel', shortBatch, { kind: 'answered', by: alice, at: AT, answers: [{ id: 'pm', selected: ['pnpm'] }, { id: 'node', selected: ['24'] }, { id: 'license', selected: ['MIT'] }] })
settled('settled-approved', plan, { kind: 'answered', by: alice, at: AT, answers: [{ id: 'plan-review', selected: ['Approve'] }] })
settled('settled-changes-requested', plan, { kind: 'answered', by: alice, at: AT, answers: [{ id: 'plan-review', selected: [], custom: 'Keep npm for the docs site; migrate the rest.' }] })
settled('settled-dismissed', single, { kind: 'dismissed', by: alice, at: AT })
settled('settled-aborted', single, { kind: 'aborted', at: AT })
settled('settled-expired', single, { kind: 'expired', at: AT })
settled('settled-stopped', single, { kind: 'stopped', at: AT })
settled('settled-elsewhere', single, { kind: 'settled-elsewhere', how: 'answered', at: AT })
settled('settled-failed', single, { kind: 'failed', reason: 'the host refused the answer (409)', at: AT })
// A relayed answer the host has not accepted yet (relay card states).
settled('settled-delivering', single, { kind: 'answered', by: alice, at: AT, answers: [{ id: 'q1', selected: ['npm'] }], delivering: true })
settled('settled-answered-zh', ask(single.questions, { locale: 'zh-CN' }), { kind: 'answered', by: alice, at: AT, answers: [{ id: 'q1', selected: ['npm'] }] })

examples['approval'] = approvalMessage(approval)
examples['approval-allowed'] = settledApprovalMessage(approval, { kind: 'decided', decision: 'allowed-once', by: alice, at: AT })
examples['approval-rejected'] = settledApprovalMessage(approval, { kind: 'decided', decision: 'rejected', by: alice, at: AT })
examples['approval-settled-elsewhere'] = settledApprovalMessage(approval, { kind: 'settled-elsewhere', how: 'rejected', at: AT })
const { arguments: _seen, ...unseen } = approval
examples['approval-arguments-unseen'] = approvalMessage(unseen)
// The relay serves several hosts: the card names which one.
examples['approval-two-hosts'] = approvalMessage({ ...approval, agent: { ...approval.agent, host: '127.0.0.1:4001' } })
// A long script: the arguments start folded, first line as the subtitle, the buttons right under it.
const script = ['set -euo pipefail', ...Array.from({ length: 14 }, (_, i) => `psql "$DATABASE_URL" -f migrations/${String(i + 1).padStart(4, '0')}.sql`), 'systemctl restart shop']
examples['approval-folded'] = approvalMessage({ ...approval, arguments: JSON.stringify({ command: script.join('\n'), cwd: '/srv/shop' }) })
examples['approval-delivering'] = settledApprovalMessage(approval, { kind: 'decided', decision: 'allowed-once', by: alice, at: AT, delivering: true })

examples['modal-other'] = otherModal(single, 0)
examples['modal-feedback'] = feedbackModal(plan)
examples['modal-batch'] = batchModal(batch, 0).view
// The form of a carousel batch opened after choosing pnpm on the first card.
examples['modal-batch-chosen'] = batchModal(shortBatch, 0, { chosen: new Map([[0, 0]]) }).view
const bigBatch = ask(Array.from({ length: 14 }, (_, i) => q({ id: `q${i}`, header: `Module ${i + 1}`, question: `Keep module ${i + 1}?`, options: [{ label: 'keep' }, { label: 'drop' }] })))
examples['modal-batch-page-1'] = batchModal(bigBatch, 0).view
examples['modal-batch-page-2'] = batchModal(bigBatch, 1).view

/** The file of an example as `npm run examples` writes it. */
export function exampleFileText(payload: unknown): string {
  return `${JSON.stringify(payload, null, 2)}\n`
}

// Imported by the examples test; writes only when run as `npm run examples`.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = join(packageRoot(), 'blocks', 'examples')
  mkdirSync(folder, { recursive: true })
  // Stale examples (a renamed shape) would linger and mislead: start clean.
  for (const file of readdirSync(folder)) if (file.endsWith('.json')) rmSync(join(folder, file))
  for (const [name, payload] of Object.entries(examples)) writeFileSync(join(folder, `${name}.json`), exampleFileText(payload))
  console.log(`wrote ${Object.keys(examples).length} examples to ${folder}`)
}
