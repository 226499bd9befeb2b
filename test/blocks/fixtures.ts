/** View-model builders and payload walkers for the blocks/ tests. */
import type { AskView, OptionView, QuestionView } from '../../blocks/view.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'

export const NOW = Date.UTC(2026, 6, 1, 12, 0, 0)

export function options(count: number, label = (i: number) => `Option ${i}`): OptionView[] {
  return Array.from({ length: count }, (_, i) => ({ label: label(i) }))
}

export function question(overrides: Partial<QuestionView> = {}): QuestionView {
  return { id: 'q1', question: 'Which package manager?', options: options(3), multiSelect: false, ...overrides }
}

export function ask(overrides: Partial<AskView> = {}): AskView {
  return { askId: 'ask1', locale: 'en', questions: [question()], ...overrides }
}

export function planReview(plan: string, overrides: Partial<QuestionView> = {}): AskView {
  return ask({
    questions: [
      {
        ...planReviewQuestion(plan),
        ...overrides,
      },
    ],
  })
}

type Json = unknown

/** Every object in a payload, depth first. */
export function objects(value: Json): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  const walk = (v: Json) => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (typeof v === 'object' && v !== null) {
      out.push(v as Record<string, unknown>)
      Object.values(v).forEach(walk)
    }
  }
  walk(value)
  return out
}

/** Text Slack parses as mrkdwn: mrkdwn text objects (and the top-level text, which callers add). */
export function mrkdwnTexts(value: Json): string[] {
  return objects(value)
    .filter((o) => o.type === 'mrkdwn' && typeof o.text === 'string')
    .map((o) => o.text as string)
}

/** The literal text of rich_text elements, joined. */
export function richText(value: Json): string {
  return objects(value)
    .filter((o) => (o.type === 'text' || o.type === 'link') && typeof (o.text ?? o.url) === 'string')
    .map((o) => (o.text ?? o.url) as string)
    .join('')
}

/** Links in rich text. */
export function links(value: Json): { url: string; text?: string }[] {
  return objects(value)
    .filter((o) => o.type === 'link')
    .map((o) => ({ url: o.url as string, ...(o.text !== undefined ? { text: o.text as string } : {}) }))
}

/** action_ids of every element, in order. */
export function actionIds(value: Json): string[] {
  return objects(value)
    .filter((o) => typeof o.action_id === 'string')
    .map((o) => o.action_id as string)
}

export function elementsOfType(value: Json, type: string): Record<string, unknown>[] {
  return objects(value).filter((o) => o.type === type)
}

/**
 * Slack syntax that would be live in mrkdwn: `<!…>`, `<@…>`, `<#…>`, `<http…>`,
 * apart from the ones we make ourselves from trusted ids (`<@U…>`, `<!subteam^S…>`, `<!date^…>`).
 */
export function liveSyntax(mrkdwn: string, trusted: string[] = []): string[] {
  let rest = mrkdwn
  for (const t of trusted) rest = rest.split(t).join('')
  rest = rest.replace(/<!date\^\d+\^[^|<>]*\|[^<>]*>/g, '')
  return rest.match(/<[!@#]|<https?:|<mailto:/gi) ?? []
}
