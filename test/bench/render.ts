/**
 * How long rendering a 100 KB plan takes, against the 3 s interaction budget:
 * cold (a new plan: Markdown parsed), and warm (the settled card of the same
 * plan, whose parse is cached). Timing lives here, never in a test assertion.
 */
import { questionMessage, settledMessage } from '../../blocks/index.js'
import type { AskView } from '../../blocks/view.js'
import { TIMING } from '../../src/slack/timing.js'
import { benchPlan } from './plan.js'
import { percentile, since, summary } from './stats.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'

const PLAN_BYTES = 100_000
const COLD_RUNS = 8
const WARM_RUNS = 30

/** A realistic plan of PLAN_BYTES: headings, prose with links, nested lists, code blocks, tables, quotes. */
function plan(seed: number): string {
  return benchPlan(seed, PLAN_BYTES)
}

/** A plan written as one paragraph: every rich_text element is cut from it between graphemes (chunkText). */
function paragraph(seed: number): string {
  const words = ['alpha', 'beta', 'gamma 👩‍👩‍👧', 'delta', 'épsilon', '中文', 'zeta']
  let text = `Plan ${seed}:`
  for (let i = 0; text.length < PLAN_BYTES; i++) text += ` ${words[(i * 7 + seed) % words.length]}`
  return text
}

function view(seed: number, detail: string = plan(seed)): AskView {
  return {
    askId: `bench${seed}`,
    locale: 'en',
    questions: [
      planReviewQuestion(detail),
    ],
  }
}

function line(name: string, samples: number[]): string {
  const ratio = percentile(samples, 99) / TIMING.ackDeadlineMs
  return `${name}: ${summary(samples)}; p99 is ${(ratio * 100).toFixed(1)}% of the ${TIMING.ackDeadlineMs} ms interaction budget`
}

export async function benchRender(): Promise<string[]> {
  const cold: number[] = []
  const warm: number[] = []
  let parts = 0
  for (let run = 0; run < COLD_RUNS; run++) {
    const v = view(run)
    const start = performance.now()
    const rendered = questionMessage(v)
    cold.push(since(start))
    parts = rendered.thread.length
  }
  const long: number[] = []
  for (let run = 0; run < COLD_RUNS; run++) {
    const v = view(run, paragraph(run))
    const start = performance.now()
    questionMessage(v)
    long.push(since(start))
  }
  const settled = view(COLD_RUNS)
  questionMessage(settled)
  for (let run = 0; run < WARM_RUNS; run++) {
    const start = performance.now()
    settledMessage(settled, { kind: 'answered', by: { id: 'U0BENCH' }, at: 0, answers: [{ id: 'plan-review', selected: ['Approve'] }] })
    warm.push(since(start))
  }
  return [
    `render: ${(plan(0).length / 1000).toFixed(0)} KB plan → card + ${parts} thread parts`,
    line('render questionMessage (cold: Markdown parsed)', cold),
    line('render questionMessage (cold: one 100 KB paragraph, split between graphemes)', long),
    line('render settledMessage (warm: parse cached)', warm),
  ]
}
