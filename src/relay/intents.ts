import type { AskUserQuestionItem } from '../contract/index.js'

/** The intent kinds dsh-slack presents specially; SEAM.md: plan review is the only one today. */
export const KNOWN_INTENT_KINDS: readonly string[] = ['plan-review']

/**
 * Drops intents of a kind dsh-slack does not know, so the question is shown
 * as the generic question it also is (SEAM.md: "A UI that does not recognise
 * an intent kind renders the generic question"), rather than refused for
 * lacking a plan-review's fields. Returns the kinds dropped, for the log.
 */
export function withKnownIntents(questions: AskUserQuestionItem[]): { questions: AskUserQuestionItem[]; dropped: { id: string; kind: string }[] } {
  const dropped: { id: string; kind: string }[] = []
  const kept = questions.map((question) => {
    const kind = (question.intent as { kind?: unknown } | undefined)?.kind
    if (question.intent === undefined || (typeof kind === 'string' && KNOWN_INTENT_KINDS.includes(kind))) return question
    dropped.push({ id: question.id, kind: String(kind) })
    const { intent: _unknown, ...generic } = question
    return generic
  })
  return { questions: kept, dropped }
}
