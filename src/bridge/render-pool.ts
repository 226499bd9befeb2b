import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { Outcome } from '../../blocks/view.js'
import type { Logger } from '../log/logger.js'
import type { MessageContent } from '../slack/slack-port.js'
import type { AskRecord } from '../store/ask-record.js'
import type { Approval } from '../store/team-records.js'
import type { ViewSettings } from './ask-view.js'
import { BodyCache } from './body-cache.js'
import { renderOpen, renderSettled, type PostPlan } from './render.js'

/**
 * Markdown and text longer than this (characters, over all questions) is
 * rendered on the render thread: below it a render takes well under a
 * millisecond and the hop to the thread would cost more than it saves.
 */
export const OFF_LOOP_TEXT_CHARS = 8_000

type RenderWork = { kind: 'open'; record: AskRecord; settings: ViewSettings; approvals: Approval[] } | { kind: 'settled'; record: AskRecord; outcome: Outcome; settings: ViewSettings }

/** A job for the render thread. */
export type RenderJob = RenderWork & { id: number }

/** The render thread's answer to one job. */
export type RenderReply = { id: number; open?: PostPlan; settled?: MessageContent; error?: string }

/** Renders an ask's messages: short asks at once, long ones on the render thread. */
export interface Renderer {
  /** The open card (with a quorum's approvals so far) and its thread continuation. */
  open(record: AskRecord, settings: ViewSettings, approvals?: Approval[]): Promise<PostPlan>
  settled(record: AskRecord, outcome: Outcome, settings: ViewSettings): Promise<MessageContent>
  close(): Promise<void>
  /** Renders done on the render thread so far (tests check long asks really go there). */
  readonly offLoop: number
}

/**
 * Bodies worth keeping: an ask with Markdown `detail` (a plan, a diff),
 * whose body costs a real parse to render again. A short question's body is
 * laid out again in less time than digesting its questions for the cache
 * key takes.
 */
const keepsBody = (record: AskRecord) => record.questions.some((q) => q.detail !== undefined)

function textSize(record: AskRecord): number {
  let size = 0
  for (const q of record.questions) {
    size += q.question.length + (q.detail?.length ?? 0)
    for (const o of q.options) size += o.label.length + (o.description?.length ?? 0)
  }
  return size
}

/** Where the compiled render thread is; absent when running from TypeScript sources (tests), which render in place. */
const WORKER_FILE = new URL('./render-worker.js', import.meta.url)

/**
 * One render thread per bridge, started on the first long ask and never
 * keeping the process alive. If the thread cannot run (a crash, running
 * from sources), asks are rendered in place: slower for a long plan, never wrong.
 * With `warm` (a service, which lives long and takes long plans over HTTP)
 * the thread starts at once and renders a made-up plan first, so the first
 * real plan does not pay for the JIT compiling the renderers (several times
 * a warm render).
 */
export function createRenderer(logger: Logger, { warm = false }: { warm?: boolean } = {}): Renderer {
  let worker: Worker | undefined
  let usable = existsSync(fileURLToPath(WORKER_FILE))
  let seq = 0
  let offLoop = 0
  const waiting = new Map<number, { resolve: (reply: RenderReply) => void; reject: (error: Error) => void }>()
  // Bodies rendered here; the render thread keeps its own for the asks it renders.
  const bodies = new BodyCache()

  const thread = (): Worker | undefined => {
    if (!usable) return undefined
    if (worker) return worker
    const started = new Worker(WORKER_FILE, { workerData: { warmUp: warm } })
    started.unref()
    started.on('message', (reply: RenderReply) => {
      const job = waiting.get(reply.id)
      waiting.delete(reply.id)
      job?.resolve(reply)
    })
    started.on('error', (error) => {
      logger.error(`the render thread failed (${error.message}); rendering in place from now on`)
      usable = false
      worker = undefined
      for (const job of waiting.values()) job.reject(error)
      waiting.clear()
    })
    worker = started
    return worker
  }

  if (warm) thread()

  const run = async (job: RenderWork): Promise<RenderReply | undefined> => {
    const target = thread()
    if (!target) return undefined
    const id = ++seq
    try {
      return await new Promise<RenderReply>((resolve, reject) => {
        waiting.set(id, { resolve, reject })
        target.postMessage({ ...job, id })
      })
    } catch {
      return undefined
    }
  }

  return {
    async open(record, settings, approvals = []) {
      if (textSize(record) > OFF_LOOP_TEXT_CHARS) {
        const reply = await run({ kind: 'open', record, settings, approvals })
        if (reply?.open) {
          offLoop++
          return reply.open
        }
        if (reply?.error !== undefined) throw new Error(reply.error)
      }
      return renderOpen(record, settings, approvals, keepsBody(record) ? bodies : undefined)
    },
    async settled(record, outcome, settings) {
      if (textSize(record) > OFF_LOOP_TEXT_CHARS) {
        const reply = await run({ kind: 'settled', record, outcome, settings })
        if (reply?.settled) {
          offLoop++
          return reply.settled
        }
        if (reply?.error !== undefined) throw new Error(reply.error)
      }
      return renderSettled(record, outcome, settings, keepsBody(record) ? bodies : undefined)
    },
    get offLoop() {
      return offLoop
    },
    async close() {
      const stopping = worker
      worker = undefined
      usable = false
      if (stopping) await stopping.terminate()
    },
  }
}
