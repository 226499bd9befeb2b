/**
 * How long rendering a 100 KB plan takes (parse + blocks + split), against
 * the goals: under 50 ms for a new plan (cold: Markdown parsed),
 * under 5 ms for a later render of the same ask (warm: its body kept, as the
 * bridge keeps it for the settled card, quorum progress and reminders).
 * Timing lives here, never in a test assertion.
 */
import { questionMessage } from '../../blocks/index.js'
import type { AskView } from '../../blocks/view.js'
import { BodyCache } from '../../src/bridge/body-cache.js'
import { renderOpen, renderSettled } from '../../src/bridge/render.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { benchPlan } from './plan.js'
import { ms, since, summary } from './stats.js'

const PLAN_BYTES = 100_000
/** New plans rendered before the cold samples, so they measure rendering and not the JIT compiling the renderers. */
const WARM_UP = 5
/** 100 KB plans the bridge's body cache holds at its default budget (BODY_CACHE_CHARS), with room to spare. */
const KEPT_PLANS = 15

/** A plan review of a realistic plan of PLAN_BYTES: headings, prose with links, nested lists, code blocks, tables, quotes. */
function planAsk(seed: number, detail: string = benchPlan(seed, PLAN_BYTES)): AskRecord {
  return { id: `bench${seed}`, kind: 'question', questions: [planReviewQuestion(detail)], target: 'C0BENCH', status: 'pending', createdAt: 0, owner: { kind: 'service' } }
}

/** A plan written as one paragraph: every rich_text element is cut from it between graphemes (chunkText). */
function paragraph(seed: number): string {
  const words = ['alpha', 'beta', 'gamma 👩‍👩‍👧', 'delta', 'épsilon', '中文', 'zeta']
  let text = `Plan ${seed}:`
  for (let i = 0; text.length < PLAN_BYTES; i++) text += ` ${words[(i * 7 + seed) % words.length]}`
  return text
}

const settings = { locale: 'en' as const }
const approved = { kind: 'answered' as const, by: { id: 'U0BENCH' }, at: 0, answers: [{ id: 'plan-review', selected: ['Approve'] }] }

function view(record: AskRecord): AskView {
  return { askId: record.id, locale: 'en', questions: record.questions }
}

export async function benchRender(options: { runs: number }): Promise<string[]> {
  const bodies = new BodyCache()
  let seed = 0
  const first = planAsk(seed++)
  const start = performance.now()
  const rendered = questionMessage(view(first))
  const firstMs = since(start)
  for (let i = 1; i < WARM_UP; i++) questionMessage(view(planAsk(seed++)))
  const cold: number[] = []
  const long: number[] = []
  const records: AskRecord[] = []
  for (let run = 0; run < options.runs; run++) {
    const record = planAsk(seed++)
    records.push(record)
    let at = performance.now()
    renderOpen(record, settings, [], bodies)
    cold.push(since(at))
    const text = planAsk(seed++, paragraph(run))
    at = performance.now()
    questionMessage(view(text))
    long.push(since(at))
  }
  // Later renders of the same asks, as a settled card and a quorum's progress are: their bodies
  // kept (the last KEPT_PLANS, which the cache's default budget holds). The cold phase's garbage
  // is collected first (npm run bench exposes gc), so its collection is not timed as a warm render.
  ;(globalThis as { gc?: () => void }).gc?.()
  const warmSettled: number[] = []
  const warmProgress: number[] = []
  // Seven passes: over 100 samples, so p99 is not simply the slowest one.
  for (const record of Array.from({ length: 7 }, () => records.slice(-KEPT_PLANS)).flat()) {
    let at = performance.now()
    renderSettled(record, approved, settings, bodies)
    warmSettled.push(since(at))
    at = performance.now()
    renderOpen(record, settings, [{ by: { id: 'U0BENCH' }, at: 0 }], bodies)
    warmProgress.push(since(at))
  }
  return [
    `render: ${(benchPlan(0, PLAN_BYTES).length / 1000).toFixed(0)} KB plan → card + ${rendered.thread.length} thread parts`,
    `cold (a new plan: parse + blocks + split): ${summary(cold)}  [goal < 50 ms]`,
    `cold, the first render in the process (the JIT compiling the renderers): ${ms(firstMs)}`,
    `cold, one 100 KB paragraph (split between graphemes): ${summary(long)}`,
    `warm (a later render of the same ask, its body kept): settled card ${summary(warmSettled)}, quorum progress ${summary(warmProgress)}  [goal < 5 ms]`,
    `body cache after the run: ${JSON.stringify(bodies.stats)}`,
  ]
}
