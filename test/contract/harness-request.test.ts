import { describe, expect, expectTypeOf, it } from 'vitest'
import { validateAnswer, validateRequest } from '../../src/contract/index.js'
import type { AgentLike, AskUserQuestionAnswer, AskUserQuestionRequest, UserInteractionProvider } from '../../src/contract/index.js'
import { knownFieldsOnly } from '../../src/contract/validate-request.js'

// The harness's own shapes, declared here as the harness declares them: an
// `Agent` class with methods and more fields than the seam reads, and items
// that carry keys this bridge has never heard of. The harness plugin reads
// them as the harness does (knownFieldsOnly); the library's own ask() is strict.
class HarnessSession {
  constructor(readonly header: { cwd: string; createdAt: number; version: number; parentSession?: string }) {}

  entries(): string[] {
    return []
  }
}

class HarnessAgent {
  readonly options = { model: 'deepseek-chat', temperature: 0.2, tools: ['ask_user'] }
  readonly session = new HarnessSession({ cwd: '/home/dev/app', createdAt: 1_764_460_800_000, version: 3 })
  private turns = 0

  constructor(readonly id: string) {}

  async prompt(_text: string): Promise<void> {
    this.turns += 1
  }

  get turnCount(): number {
    return this.turns
  }
}

interface HarnessQuestion {
  id: string
  question: string
  detail?: string
  header?: string
  options?: { label: string; description?: string; shortcut?: string }[]
  multiSelect?: boolean
  intent?: { kind: 'plan-review'; approve: string }
  toolCallId: string
}

interface HarnessRequest {
  questions: HarnessQuestion[]
  agent?: HarnessAgent
  signal?: AbortSignal
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !(value instanceof AbortSignal)) {
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key])
    Object.freeze(value)
  }
  return value
}

function harnessRequest(): HarnessRequest {
  return {
    questions: [
      {
        id: 'pkg',
        header: 'Tooling',
        question: 'Which package manager?',
        options: [{ label: 'pnpm (Recommended)', description: 'fast', shortcut: 'p' }, { label: 'npm' }],
        toolCallId: 'call_1',
      },
      {
        id: 'plan-review',
        header: 'Plan review',
        question: 'Approve this plan and leave plan mode?',
        detail: '# Plan\n\n- step one\n',
        options: [{ label: 'Approve' }, { label: 'Keep planning' }],
        intent: { kind: 'plan-review', approve: 'Approve' },
        toolCallId: 'call_2',
      },
    ],
    agent: new HarnessAgent('session-42'),
    signal: new AbortController().signal,
  }
}

describe('a request shaped like the harness’s', () => {
  it('is assignable to the seam types without a cast', () => {
    expectTypeOf<HarnessAgent>().toExtend<AgentLike>()
    expectTypeOf<HarnessRequest>().toExtend<AskUserQuestionRequest>()
  })

  it('lets a provider typed by the seam be called with the harness’s request', () => {
    const provider: UserInteractionProvider = { ask: async () => ({ answers: [] }) }

    expectTypeOf(provider.ask).toBeCallableWith(harnessRequest())
    expectTypeOf(provider.ask).returns.resolves.toEqualTypeOf<AskUserQuestionAnswer>()
  })

  it('validates at run time as the plugin reads it, keeping the agent instance and its methods', () => {
    const request = harnessRequest()

    const valid = validateRequest(knownFieldsOnly(request))

    expect(valid.questions.map((question) => question.id)).toEqual(['pkg', 'plan-review'])
    expect(valid.agent).toBe(request.agent)
    expect(valid.agent?.options?.model).toBe('deepseek-chat')
    expect(valid.agent?.session?.header?.cwd).toBe('/home/dev/app')
  })

  it('never mutates the request, even when every object in it is frozen', () => {
    const request = deepFreeze(harnessRequest())
    const before = JSON.stringify(request)

    const valid = validateRequest(knownFieldsOnly(request))

    expect(JSON.stringify(request)).toBe(before)
    expect(valid.questions[0]).not.toHaveProperty('toolCallId')
  })

  it('never mutates a frozen answer while trimming its custom text', () => {
    const valid = validateRequest(knownFieldsOnly(harnessRequest()))
    const answer = deepFreeze({
      answers: [
        { id: 'pkg', selected: [], custom: '  bun  ' },
        { id: 'plan-review', selected: ['Approve'] },
      ],
    })
    const before = JSON.stringify(answer)

    const clean = validateAnswer(valid, answer)

    expect(JSON.stringify(answer)).toBe(before)
    expect(clean.answers[0]).toEqual({ id: 'pkg', selected: [], custom: 'bun' })
  })

  it('validates an agent that carries only an id', () => {
    expect(validateRequest(knownFieldsOnly({ questions: harnessRequest().questions, agent: { id: 'bare' } })).agent).toEqual({ id: 'bare' })
  })

  it('is refused by the strict library check, which names the keys the format does not know', () => {
    expect(() => validateRequest(harnessRequest())).toThrow(expect.objectContaining({ code: 'BAD_REQUEST', message: expect.stringMatching(/^unknown field questions\[0\]\.toolCallId/) }))
  })
})
