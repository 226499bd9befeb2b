/**
 * Why the fresh-process figures weigh code the way they do: the same call,
 * made over and over, costs several times more when its calls are spread
 * out, even with the thread kept busy in between (so it is not the CPU
 * idling). On a shared host the caches lose a process's code and data within
 * milliseconds; a round trip that waits on Slack between its steps runs each
 * step cold, and pays for every distinct piece of code it touches.
 * Timing lives here, never in a test assertion.
 */
import { blockActionsPayload } from '../../src/slack/payloads.js'
import { questionMessage } from '../../blocks/index.js'
import { askViewOf } from '../../src/bridge/ask-view.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { benchQuestion } from './round-trip.js'
import { pad, percentile, since } from './stats.js'

/** A block_actions payload as the stand-in sends it for a tap on a card's option. */
function tapPayload(i: number): unknown {
  const ts = `1796159550.${String(i).padStart(6, '0')}`
  return {
    type: 'block_actions',
    user: { id: 'U0SANDBOX01', username: 'alice', name: 'alice', team_id: 'T0SANDBOX01' },
    api_app_id: 'A0SANDBOX01',
    team: { id: 'T0SANDBOX01', domain: 'sandbox' },
    container: { type: 'message', message_ts: ts, channel_id: 'C0BENCH0000', is_ephemeral: false },
    trigger_id: `1.2.${i}`,
    channel: { id: 'C0BENCH0000', name: 'c0bench-0' },
    message: { type: 'message', ts, user: 'U0SANDBOXBOT', bot_id: 'B0SANDBOX01', text: 'An agent asks: Which package manager?', blocks: [] },
    state: { values: {} },
    actions: [{ action_id: 'dsh1:opt:Psb9R9ZlRViAWJ-g:0:1', block_id: 'b1', type: 'button', value: '1', action_ts: ts }],
  }
}

function record(i: number): AskRecord {
  return { id: `cold${i}`, kind: 'question', questions: [{ ...benchQuestion, multiSelect: false }], target: 'C0BENCH', status: 'pending', createdAt: 0, owner: { kind: 'service' } }
}

/** Calls back to back first, so the JIT has done what it will before anything is measured. */
const WARM_UP_CALLS = 300
/** Calls measured at each gap, per pass; the passes take the gaps in turn, so a busy moment on the host hits all alike. */
const CALLS = 20
const PASSES = 3

/** The time (µs) of each of CALLS calls of `work`, `gapMs` apart with the thread spinning in between (0: back to back). */
function timeCalls(work: (i: number) => unknown, gapMs: number, first: number): number[] {
  const samples: number[] = []
  for (let i = first; i < first + CALLS; i++) {
    const until = performance.now() + gapMs
    while (performance.now() < until) {
      // spin: the thread stays busy, so only time and the rest of the host touch the caches
    }
    const start = performance.now()
    work(i)
    samples.push(since(start) * 1000)
  }
  return samples
}

/** p50 (µs) of a call at each gap, after the warm-up. */
function measure(work: (i: number) => unknown): number[] {
  for (let i = 0; i < WARM_UP_CALLS; i++) work(i)
  const byGap = GAPS_MS.map(() => [] as number[])
  let next = WARM_UP_CALLS
  for (let pass = 0; pass < PASSES; pass++) {
    GAPS_MS.forEach((gap, g) => {
      byGap[g]!.push(...timeCalls(work, gap, next))
      next += CALLS
    })
  }
  return byGap.map((samples) => percentile(samples, 50))
}

const GAPS_MS = [10, 0, 1]

export function benchColdCode(): string[] {
  const work: { name: string; run: (i: number) => unknown }[] = [
    { name: 'zod: a tap\'s block_actions payload', run: (i) => blockActionsPayload.safeParse(tapPayload(i)) },
    { name: 'render a short question\'s card', run: (i) => questionMessage(askViewOf(record(i), { locale: 'en' })) },
  ]
  const lines = [
    `p50 of ${PASSES * CALLS} calls at each gap after ${WARM_UP_CALLS} back to back (the thread spinning between calls; the gaps taken in turn, ${PASSES} passes)`,
    `${pad('', 40)}${GAPS_MS.map((gap) => pad(gap === 0 ? 'back to back' : `${gap} ms apart`, 16)).join('')}`,
  ]
  for (const { name, run } of work) lines.push(`${pad(name, 40)}${measure(run).map((us) => pad(`${us.toFixed(1)} µs`, 16)).join('')}`)
  return lines
}
