/**
 * The render thread: long asks are rendered here, off the event loop that
 * acknowledges everyone's clicks (a 100 KB plan's Markdown parse takes far
 * longer than a click may wait). blocks/ is pure, so the same renderers run
 * here as on the main thread; the parse cache lives here, so a long ask's
 * settled card, rendered here too, reuses its parse.
 */
import { parentPort } from 'node:worker_threads'
import type { RenderJob, RenderReply } from './render-pool.js'
import { renderOpen, renderSettled } from './render.js'

const port = parentPort
if (port) {
  port.on('message', (job: RenderJob) => {
    let reply: RenderReply
    try {
      reply = job.kind === 'open' ? { id: job.id, open: renderOpen(job.record, job.settings, job.approvals) } : { id: job.id, settled: renderSettled(job.record, job.outcome, job.settings) }
    } catch (error) {
      reply = { id: job.id, error: error instanceof Error ? error.message : String(error) }
    }
    port.postMessage(reply)
  })
}
