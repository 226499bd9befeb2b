/**
 * blocks.validate: @slack/web-api 8.2 declares it ("Validates blocks,
 * messages, and views Block Kit JSON payloads", docs.slack.dev/reference/methods/blocks.validate)
 * with `errors: [{ code, message, pointer }]` in its answer. The exact refusal
 * shape is not documented where we could read it; this answers
 * `invalid_blocks` with those errors and Slack's usual response_metadata.messages.
 */
import { z } from 'zod'

import { checkMessagePayload, checkViewPayload, type PayloadProblem } from '../../../blocks/check.js'
import { BAD_JSON, json } from '../args.js'
import { SlackRefusal } from '../errors.js'
import { method, type MethodTable } from './method.js'

function refuse(problems: PayloadProblem[]): Record<string, unknown> {
  if (problems.length === 0) return {}
  throw new SlackRefusal(problems[0]!.code === 'msg_blocks_too_long' ? 'msg_blocks_too_long' : 'invalid_blocks', {
    errors: problems.map((p) => {
      const match = /^\[ERROR\] (.*) \[json-pointer:(.*)\]$/.exec(p.message)
      return { code: p.code, message: match?.[1] ?? p.message, pointer: match?.[2] ?? '' }
    }),
    response_metadata: { messages: problems.map((p) => p.message) },
  })
}

export const blockMethods: MethodTable = {
  'blocks.validate': method({
    token: 'bot',
    args: z.object({ blocks: json.optional(), message: json.optional(), view: json.optional() }),
    run(args) {
      const given = [args.blocks, args.message, args.view].filter((v) => v !== undefined)
      if (given.length !== 1 || given[0] === BAD_JSON) {
        throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: ['[ERROR] provide exactly one of: blocks, message, view'] } })
      }
      if (args.view !== undefined) return refuse(checkViewPayload(args.view))
      const message = (args.message ?? { blocks: args.blocks }) as { text?: unknown; blocks?: unknown }
      return refuse(checkMessagePayload(message))
    },
  }),
}
