/**
 * The render thread: long asks are rendered here, off the event loop that
 * acknowledges everyone's clicks (a 100 KB plan's Markdown parse takes far
 * longer than a click may wait). blocks/ is pure, so the same renderers run
 * here as on the main thread. The thread keeps its own rendered bodies, so a
 * long ask's quorum progress and settled card, rendered here too, reuse them.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { planReviewQuestion } from '../contract/plan-review.js'
import type { AskRecord } from '../store/ask-record.js'
import type { RenderJob, RenderReply } from './render-pool.js'
import { BodyCache } from './body-cache.js'
import { renderOpen, renderSettled } from './render.js'
import { warmUpPlan } from './warm-up-plan.js'

const bodies = new BodyCache()

/**
 * Plans rendered when the thread starts warm (a service), one a turn: a real
 * job that arrives meanwhile goes first and ends the warm-up (real plans warm
 * the JIT as well), so the first long ask waits for one warm-up render at most.
 */
const WARM_UP_RENDERS = 3
let jobsSeen = 0

function warmUp(left: number): void {
  if (left === 0 || jobsSeen > 0) return
  const record: AskRecord = { id: `warm-up-${left}`, kind: 'question', questions: [planReviewQuestion(warmUpPlan(60))], target: 'C0', status: 'pending', createdAt: 0, owner: { kind: 'service' } }
  renderOpen(record, { locale: 'en' })
  setImmediate(() => warmUp(left - 1))
}

if ((workerData as { warmUp?: boolean } | undefined)?.warmUp === true) setImmediate(() => warmUp(WARM_UP_RENDERS))

const port = parentPort
if (port) {
  port.on('message', (job: RenderJob) => {
    jobsSeen++
    let reply: RenderReply
    try {
      reply = job.kind === 'open' ? { id: job.id, open: renderOpen(job.record, job.settings, job.approvals, bodies) } : { id: job.id, settled: renderSettled(job.record, job.outcome, job.settings, bodies) }
    } catch (error) {
      reply = { id: job.id, error: error instanceof Error ? error.message : String(error) }
    }
    port.postMessage(reply)
  })
}
