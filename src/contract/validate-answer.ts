import { z } from 'zod'
import { UserInteractionError } from './errors.js'
import type { AskUserQuestionAnswer, AskUserQuestionAnswerItem } from './types.js'
import type { ValidQuestion } from './validate-request.js'

const answerSchema = z.object({
  answers: z.array(
    z.object({
      id: z.string(),
      selected: z.array(z.string()),
      custom: z.string().optional(),
    }),
  ),
})

/**
 * Every problem with an answer against SEAM.md's answer semantics, as
 * sentences naming the question; empty when the answer is valid.
 */
export function answerProblems(request: { readonly questions: readonly ValidQuestion[] }, answer: unknown): string[] {
  const parsed = answerSchema.safeParse(answer)
  return parsed.success ? itemsProblems(request.questions, parsed.data.answers) : [MALFORMED_ANSWER]
}

const MALFORMED_ANSWER = 'the answer must be { answers: [{ id, selected: string[], custom?: string }] }'

function itemsProblems(questions: readonly ValidQuestion[], items: AskUserQuestionAnswerItem[]): string[] {
  if (items.length !== questions.length) {
    return [`the answer has ${items.length} item(s) for ${questions.length} question(s); give one per question, in order`]
  }
  return questions.flatMap((question, index) => itemProblems(question, items[index]!))
}

function itemProblems(question: ValidQuestion, item: AskUserQuestionAnswerItem): string[] {
  const name = `question "${question.id}"`
  if (item.id !== question.id) return [`${name}: the answer item in its place has id "${item.id}"`]
  const problems: string[] = []
  const labels = new Set(question.options.map((option) => option.label))
  if (item.custom !== undefined) {
    if (item.custom.trim() === '') problems.push(`${name}: the custom answer is blank`)
    if (item.selected.length > 0) problems.push(`${name}: a custom answer replaces the options, so selected must be empty`)
  }
  if (!question.multiSelect && item.selected.length > 1) problems.push(`${name}: single-select, but ${item.selected.length} labels are selected`)
  const seen = new Set<string>()
  for (const label of item.selected) {
    if (!labels.has(label)) problems.push(`${name}: "${label}" is not one of its options`)
    if (seen.has(label)) problems.push(`${name}: "${label}" is selected twice`)
    seen.add(label)
  }
  return problems
}

/**
 * Checks an answer the bridge is about to return and gives back a clean copy
 * (custom text trimmed, no extra keys). Throws `BAD_REQUEST` listing every
 * problem: an answer that breaks the seam never reaches the agent.
 */
export function validateAnswer(request: { readonly questions: readonly ValidQuestion[] }, answer: unknown): AskUserQuestionAnswer {
  const parsed = answerSchema.safeParse(answer)
  if (!parsed.success) throw new UserInteractionError('BAD_REQUEST', `invalid answer: ${MALFORMED_ANSWER}`)
  return checkAnswer(request, parsed.data)
}

/**
 * `validateAnswer` for an answer whose shape the type system already
 * vouches for (built by the handlers from an ask's own labels, or parsed
 * where it arrived): the seam's rules only, without parsing it again.
 */
export function checkAnswer(request: { readonly questions: readonly ValidQuestion[] }, answer: AskUserQuestionAnswer): AskUserQuestionAnswer {
  const problems = itemsProblems(request.questions, answer.answers)
  if (problems.length > 0) throw new UserInteractionError('BAD_REQUEST', `invalid answer: ${problems.join('; ')}`)
  return {
    answers: answer.answers.map((item) =>
      item.custom !== undefined ? { id: item.id, selected: [], custom: item.custom.trim() } : { id: item.id, selected: [...item.selected] },
    ),
  }
}
