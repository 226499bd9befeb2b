export * from './types.js'
export * from './errors.js'
export { validateRequest, isPlanReview } from './validate-request.js'
export type { ValidQuestion, ValidRequest } from './validate-request.js'
export { checkAnswer, validateAnswer, answerProblems } from './validate-answer.js'
export { planReviewQuestion, PLAN_APPROVE_LABEL } from './plan-review.js'
// The request and answer format as zod schemas: the same ones the bridge
// validates with and the JSON Schema is generated from.
export { answerItemSchema, answerSchema, intentSchema, optionSchema, questionSchema, questionsSchema } from './request-schema.js'
