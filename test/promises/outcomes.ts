import { planReviewQuestion } from '../../src/contract/plan-review.js'
import type { StoredMessage } from '../../src/sandbox/model.js'
import type { AgentGot, AskInput, Asking, DoorRun } from './doors.js'

/**
 * The ways an ask can end, each as what people (or the agent) do once its
 * card is up and what must then be true, whatever the door. A new outcome
 * is one more entry in OUTCOMES.
 */

export const ALICE = 'U0SANDBOX01'
export const BOB = 'U0SANDBOX02'
export const CAROL = 'U0SANDBOX03'

export interface Outcome {
  name: string
  input: AskInput
  /** A tool approval for this command, instead of a question: only doors with tools ask one. */
  tool?: string
  /** Text that shows the ask on the Home tab while it is open. */
  listedAs: string
  /** What happens once the card is posted. */
  act(run: DoorRun, card: StoredMessage, asking: Asking): Promise<void>
  /** What the agent receives. */
  agentGets: AgentGot
  /** The card's last text: how it ended (with no control left, never "Delivering…"). */
  card: RegExp
  /** The audit trail's event types, oldest first. */
  events: string[]
}

const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }
const langs = { id: 'langs', question: 'Which languages?', multiSelect: true, options: [{ label: 'TypeScript' }, { label: 'Rust' }, { label: 'Go' }] }
const ci = { id: 'ci', question: 'Which CI checks?', multiSelect: true, options: [{ label: 'lint' }, { label: 'test' }] }
const node = { id: 'node', question: 'Which Node version?', options: [{ label: '22' }, { label: '24' }] }
const plan = planReviewQuestion('# Plan: add a cache\n\n1. Add `cache.ts`.\n2. Wire it in.')
const feedback = 'Use the existing LRU package.'

async function fillModal(run: DoorRun, user: string, text: string): Promise<void> {
  const person = run.slack.user(user)
  await run.slack.waitFor(() => person.modal())
  person.fill(/.*/, text)
  await person.submit()
}

export const OUTCOMES: Outcome[] = [
  {
    name: 'single answer',
    input: { questions: [pm] },
    listedAs: 'Which package manager?',
    act: async (run, card) => void (await run.slack.user(ALICE).click(card, 'pnpm')),
    agentGets: { answer: { answers: [{ id: 'pm', selected: ['pnpm'] }] } },
    card: /Answered by[\s\S]*pnpm|pnpm[\s\S]*Answered by/,
    events: ['posted', 'answered'],
  },
  {
    name: 'multi-select + Other',
    input: { questions: [langs] },
    listedAs: 'Which languages?',
    async act(run, card) {
      const alice = run.slack.user(ALICE)
      await alice.toggle(card, 'Rust')
      await alice.click(card, /Other/)
      await fillModal(run, ALICE, 'Zig')
    },
    agentGets: { answer: { answers: [{ id: 'langs', selected: [], custom: 'Zig' }] } },
    card: /Zig/,
    events: ['posted', 'answered'],
  },
  {
    name: 'batch',
    input: { questions: [pm, ci] },
    listedAs: 'Which package manager?',
    async act(run, card) {
      const alice = run.slack.user(ALICE)
      await alice.click(card, /Answer/)
      await run.slack.waitFor(() => alice.modal())
      await alice.choose('modal', 'npm')
      await alice.toggle('modal', 'test')
      await alice.submit()
    },
    agentGets: { answer: { answers: [{ id: 'pm', selected: ['npm'] }, { id: 'ci', selected: ['test'] }] } },
    card: /Answered by/,
    events: ['posted', 'answered'],
  },
  {
    // Short enough for cards (decision 0077): a choice on each card, and the last one settles the batch.
    name: 'batch from the cards',
    input: { questions: [pm, node] },
    listedAs: 'Which package manager?',
    async act(run, card) {
      const alice = run.slack.user(ALICE)
      await alice.click(card, 'pnpm')
      await alice.click(card, '24')
    },
    agentGets: { answer: { answers: [{ id: 'pm', selected: ['pnpm'] }, { id: 'node', selected: ['24'] }] } },
    card: /Answered by/,
    events: ['posted', 'chose', 'chose', 'answered'],
  },
  {
    name: 'plan approved',
    input: { questions: [plan] },
    listedAs: 'Plan: add a cache',
    act: async (run, card) => void (await run.slack.user(ALICE).click(card, 'Approve')),
    agentGets: { answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] } },
    card: /Approved by/,
    events: ['posted', 'answered'],
  },
  {
    name: 'plan: changes requested',
    input: { questions: [plan] },
    listedAs: 'Plan: add a cache',
    async act(run, card) {
      await run.slack.user(ALICE).click(card, /Request changes/)
      await fillModal(run, ALICE, feedback)
    },
    agentGets: { answer: { answers: [{ id: 'plan-review', selected: [], custom: feedback }] } },
    card: /Changes requested by/,
    events: ['posted', 'answered'],
  },
  {
    name: 'plan dismissed',
    input: { questions: [plan] },
    listedAs: 'Plan: add a cache',
    act: async (run, card) => void (await run.slack.user(ALICE).click(card, 'Dismiss')),
    agentGets: { error: 'ASK_CANCELLED' },
    card: /Dismissed by/,
    events: ['posted', 'dismissed'],
  },
  {
    name: 'withdrawn by the agent',
    input: { questions: [pm] },
    listedAs: 'Which package manager?',
    act: async (_run, _card, asking) => asking.withdraw(),
    agentGets: { error: 'ASK_ABORTED' },
    card: /The agent withdrew this question/,
    events: ['posted', 'aborted'],
  },
  {
    name: 'expired',
    input: { questions: [pm], timeoutMs: 1_500 },
    listedAs: 'Which package manager?',
    act: async () => {},
    agentGets: { error: 'ASK_EXPIRED' },
    card: /expired unanswered/,
    events: ['posted', 'expired'],
  },
  {
    name: 'quorum 2 of 2',
    input: { questions: [plan], policy: { approvals: 2, approvers: [ALICE, BOB] } },
    listedAs: 'Plan: add a cache',
    async act(run, card) {
      await run.slack.user(ALICE).click(card, 'Approve')
      await run.slack.waitFor(() => run.slack.ephemerals(ALICE, run.channel).length > 0 || undefined)
      await run.slack.user(BOB).click(card, 'Approve')
    },
    agentGets: { answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] } },
    card: /Approved by/,
    events: ['posted', 'approved', 'approved', 'answered'],
  },
  {
    name: "an outsider's click refused",
    input: { questions: [plan], policy: { approvers: [ALICE] } },
    listedAs: 'Plan: add a cache',
    async act(run, card) {
      await run.slack.user(CAROL).click(card, 'Approve')
      await run.slack.waitFor(() => run.slack.ephemerals(CAROL, run.channel).find((message) => /not allowed/.test(message.text)))
      await run.slack.user(ALICE).click(card, 'Approve')
    },
    agentGets: { answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] } },
    card: /Approved by/,
    events: ['posted', 'refused', 'answered'],
  },
  {
    name: 'tool allowed',
    tool: 'rm -rf build/',
    input: { questions: [] },
    listedAs: 'rm -rf build/',
    act: async (run, card) => void (await run.slack.user(ALICE).click(card, /Allow/)),
    agentGets: { decision: 'allowed-once' },
    card: /Allowed once by/,
    events: ['posted', 'decided'],
  },
  {
    name: 'tool rejected',
    tool: 'rm -rf build/',
    input: { questions: [] },
    listedAs: 'rm -rf build/',
    act: async (run, card) => void (await run.slack.user(ALICE).click(card, 'Reject')),
    agentGets: { decision: 'rejected' },
    card: /Rejected by/,
    events: ['posted', 'decided'],
  },
]
