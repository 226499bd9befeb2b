import { z } from 'zod'

/**
 * The request and answer format, as data: one zod schema per shape, with a
 * description on every field. Validation parses with these, docs/request-format.md's
 * reference and the published JSON Schema (`z.toJSONSchema`) are read from
 * them, so the format is written down once. Objects are strict: a key the
 * format does not know is refused by name (see unknown-fields.ts), except
 * where a harness hands us its own objects (see `knownFieldsOnly`).
 */

export const optionSchema = z
  .strictObject({
    label: z.string({ error: 'option label must be a string' }).meta({
      description: 'What the person sees and picks; the answer gives it back exactly as written (e.g. "pnpm (Recommended)"). Unique within the question, not blank.',
    }),
    description: z.string({ error: 'option description must be a string' }).optional().meta({
      description: 'A line of context shown with the label.',
    }),
  })
  .meta({ id: 'AskUserQuestionOption', title: 'Option', description: 'One choice offered to the person.' })

// Closed like the rest, and refused as BAD_INTENT (validate-request.ts): the
// intent decides how the answer is read, and unknown keys kept here once let
// deeply nested junk reach the store and overflow the stack when written out.
export const intentSchema = z
  .strictObject({
    kind: z.string({ error: 'intent.kind must be a string' }).meta({
      description: 'What decision this question is. "plan-review": `detail` holds a plan in Markdown, shown as a plan card. A kind this bridge does not know is shown as a plain question.',
    }),
    approve: z.string({ error: 'intent.approve must be a string' }).optional().meta({
      description: 'The option label that approves (required for "plan-review"); every other option declines.',
    }),
  })
  .meta({ id: 'AskUserQuestionIntent', title: 'Intent', description: 'What the question is, when it is a decision of a known shape; it changes the presentation only, never the answer.' })

export const questionSchema = z
  .strictObject({
    id: z.string({ error: 'id must be a string' }).meta({ description: 'Your id for the question, echoed in its answer item. Unique within the request, not blank.' }),
    question: z.string({ error: 'question must be a string' }).meta({ description: 'The question itself, in one sentence. Not blank.' }),
    detail: z.string({ error: 'detail must be a string' }).optional().meta({
      description: 'Supporting text in Markdown (headings, lists, code, tables, links), shown under the question; a plan review\'s plan. Long text continues in the message\'s thread.',
    }),
    header: z.string({ error: 'header must be a string' }).optional().meta({ description: 'A short heading shown above the question (e.g. "Tooling").' }),
    options: z.array(optionSchema, { error: 'options must be an array' }).optional().meta({
      description: 'The choices, in order. None: the person types an answer (`custom`). Any number: beyond what Slack shows as buttons it becomes a menu, beyond 100 a searchable menu.',
    }),
    multiSelect: z.boolean({ error: 'multiSelect must be true or false' }).optional().meta({
      description: 'true: the person may pick several options (checkboxes or a multi-select menu, then Submit). Default false: one.',
    }),
    intent: intentSchema.optional(),
  })
  .meta({ id: 'AskUserQuestionItem', title: 'Question', description: 'One question.' })

export const questionsSchema = z.array(questionSchema).min(1).meta({
  description: 'The questions, at least one. Several are asked in one message and answered in one form.',
})

export const answerItemSchema = z
  .strictObject({
    id: z.string().meta({ description: 'The question\'s id.' }),
    selected: z.array(z.string()).meta({
      description: 'The picked option labels, exactly as given in the request. Empty for a typed answer or a skipped question.',
    }),
    custom: z.string().optional().meta({
      description: 'A typed ("Other…") answer, trimmed and never blank; when present, `selected` is empty. A plan review\'s requested changes come here.',
    }),
  })
  .meta({ id: 'AskUserQuestionAnswerItem', title: 'Answer item', description: 'The answer to one question; `{ id, selected: [] }` when it was skipped.' })

export const answerSchema = z
  .strictObject({
    answers: z.array(answerItemSchema).meta({ description: 'One item per question, in the request\'s order.' }),
  })
  .meta({ id: 'AskUserQuestionAnswer', title: 'Answer', description: 'What the person answered.' })

/** The request's own keys as the library takes them (`signal` is an AbortSignal: a program's, never JSON). */
export const REQUEST_KEYS = ['questions', 'agent', 'signal'] as const
