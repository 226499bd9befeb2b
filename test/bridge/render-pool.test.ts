import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { OFF_LOOP_TEXT_CHARS, type Renderer } from '../../src/bridge/render-pool.js'
import { renderOpen, renderSettled } from '../../src/bridge/render.js'
import { silentLogger } from '../../src/log/logger.js'
import type { AskRecord } from '../../src/store/ask-record.js'
import { buildCli } from '../cli/cli-process.js'

/** A record as the lifecycle holds it: one plan review of `chars` characters of Markdown. */
function planAsk(chars: number): AskRecord {
  const steps: string[] = []
  for (let i = 0; steps.join('\n\n').length < chars; i++) steps.push(`## Step ${i}\n\n- change \`module${i}.ts\`\n- run the **suite**`)
  return { id: 'A1', kind: 'question', questions: [planReviewQuestion(steps.join('\n\n'))], target: 'C1', status: 'pending', createdAt: 0, owner: { kind: 'service' } }
}

const settings = { locale: 'en' as const }
const outcome = { kind: 'answered' as const, by: { id: 'U1' }, at: 0, answers: [{ id: 'plan-review', selected: ['Approve'] }] }

// The render thread runs compiled JavaScript, as in production: this suite compiles the project once.
let built: ReturnType<typeof buildCli>
let renderer: Renderer
let warmRenderer: Renderer

beforeAll(async () => {
  built = buildCli()
  const compiled = join(dirname(dirname(built.main)), 'bridge', 'render-pool.js')
  const { createRenderer } = (await import(compiled)) as typeof import('../../src/bridge/render-pool.js')
  renderer = createRenderer(silentLogger)
  warmRenderer = createRenderer(silentLogger, { warm: true })
}, 180_000)

afterAll(async () => {
  await renderer?.close()
  await warmRenderer?.close()
  built?.cleanup()
})

describe('the render thread', () => {
  it('renders a long plan off the event loop, exactly as it renders in place', async () => {
    const record = planAsk(3 * OFF_LOOP_TEXT_CHARS)

    const open = await renderer.open(record, settings)
    const settled = await renderer.settled(record, outcome, settings)

    expect(open).toEqual(renderOpen(record, settings))
    expect(settled).toEqual(renderSettled(record, outcome, settings))
    expect(renderer.offLoop).toBe(2)
  }, 120_000)

  it('starts a warm render thread at once, and it renders a plan (and that plan again) as in place', async () => {
    const record = planAsk(3 * OFF_LOOP_TEXT_CHARS)

    const open = await warmRenderer.open(record, settings)
    const again = await warmRenderer.open(record, settings, [{ by: { id: 'U2' }, at: 0 }])
    const settled = await warmRenderer.settled(record, outcome, settings)

    expect(open).toEqual(renderOpen(record, settings))
    expect(again).toEqual(renderOpen(record, settings, [{ by: { id: 'U2' }, at: 0 }]))
    expect(settled).toEqual(renderSettled(record, outcome, settings))
    expect(warmRenderer.offLoop).toBe(3)
  }, 120_000)

  it('renders a short question in place: the hop to the thread would cost more than the render', async () => {
    const before = renderer.offLoop
    const record = planAsk(200)

    const open = await renderer.open(record, settings)

    expect(open).toEqual(renderOpen(record, settings))
    expect(renderer.offLoop).toBe(before)
  })
})
