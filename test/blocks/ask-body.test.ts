import { describe, expect, it } from 'vitest'
import { askBody, questionMessage, settledMessage } from '../../blocks/index.js'
import type { AskView, Outcome } from '../../blocks/view.js'
import { ask, options, planReview, question } from './fixtures.js'

/** A body as a cache hands it out: frozen, so a renderer that changed it would throw. */
function frozenBody(view: AskView): ReturnType<typeof askBody> {
  const freeze = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return
    Object.values(value).forEach(freeze)
    Object.freeze(value)
  }
  const body = askBody(view)
  freeze(body)
  return body
}

const plan = Array.from({ length: 300 }, (_, i) => `## Step ${i}\n\nChange \`m${i}.ts\`, see [docs](https://d.example/${i}).\n\n| a | b |\n|---|---|\n| ${i} | x |`).join('\n\n')
const outcome: Outcome = { kind: 'answered', by: { id: 'U1' }, at: 0, answers: [{ id: 'q1', selected: ['Option 1'] }] }

const SHAPES: [string, AskView][] = [
  ['a plan review long enough for thread parts and a file', planReview(plan)],
  ['a single question whose options are listed in the body', ask({ questions: [question({ detail: plan.slice(0, 5000), options: options(30, (i) => `Option ${i} ${'x'.repeat(80)}`) })] })],
  ['a batch', ask({ questions: Array.from({ length: 12 }, (_, i) => question({ id: `q${i}`, question: `Question ${i}?`, detail: plan.slice(0, 3000) })) })],
]

describe('askBody', () => {
  it.each(SHAPES)('lays out %s from a kept body exactly as from a fresh render, without changing the body', (_, view) => {
    const body = frozenBody(view)

    expect(questionMessage(view, body)).toEqual(questionMessage(view))
    expect(questionMessage({ ...view, quorum: { required: 2, approvals: [{ id: 'U2' }] } }, body)).toEqual(questionMessage({ ...view, quorum: { required: 2, approvals: [{ id: 'U2' }] } }))
    expect(settledMessage(view, outcome, body)).toEqual(settledMessage(view, outcome))
  })
})
