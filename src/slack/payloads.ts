import { z } from 'zod'

/**
 * The parts of Slack's interaction payloads the handlers read, parsed once
 * where they arrive. Slack sends much more; unknown keys are ignored.
 */
export const slackUser = z.object({
  id: z.string(),
  username: z.string().optional(),
  name: z.string().optional(),
  team_id: z.string().optional(),
})

export type SlackUser = z.infer<typeof slackUser>

const option = z.object({ value: z.string() })

/** One input's client-side state, as Slack reports it in `state.values`. */
export const inputState = z.looseObject({
  type: z.string(),
  value: z.string().nullish(),
  selected_option: option.nullish(),
  selected_options: z.array(option).nullish(),
})

export type InputState = z.infer<typeof inputState>

/** `state.values`: block_id → action_id → state. */
export const stateValues = z.record(z.string(), z.record(z.string(), inputState))

export type StateValues = z.infer<typeof stateValues>

export const blockActionsPayload = z.object({
  type: z.literal('block_actions'),
  user: slackUser,
  trigger_id: z.string().optional(),
  channel: z.object({ id: z.string() }).optional(),
  /** `message` for a click in a message; `view` (with `view_id`) in a modal or the Home tab. */
  container: z.looseObject({ type: z.string().optional(), channel_id: z.string().optional(), message_ts: z.string().optional(), thread_ts: z.string().optional(), view_id: z.string().optional() }).optional(),
  /** Absent for clicks outside a message (the Home tab, a modal) and in ephemeral messages. */
  message: z.looseObject({ ts: z.string(), thread_ts: z.string().optional() }).optional(),
  /** The view clicked in: `type` is `home` on the Home tab. */
  view: z.looseObject({ id: z.string().optional(), type: z.string() }).optional(),
  state: z.object({ values: stateValues }).optional(),
  actions: z.array(
    z.looseObject({
      action_id: z.string(),
      block_id: z.string().optional(),
      type: z.string(),
      value: z.string().optional(),
      selected_option: option.nullish(),
      selected_options: z.array(option).nullish(),
    }),
  ),
})

export type BlockActionsPayload = z.infer<typeof blockActionsPayload>
export type BlockAction = BlockActionsPayload['actions'][number]

export const viewSubmissionPayload = z.object({
  type: z.literal('view_submission'),
  user: slackUser,
  view: z.looseObject({
    id: z.string().optional(),
    callback_id: z.string(),
    private_metadata: z.string().optional(),
    state: z.object({ values: stateValues }),
  }),
})

export type ViewSubmissionPayload = z.infer<typeof viewSubmissionPayload>

export const blockSuggestionPayload = z.object({
  type: z.literal('block_suggestion'),
  user: slackUser,
  action_id: z.string(),
  block_id: z.string().optional(),
  value: z.string(),
})

export type BlockSuggestionPayload = z.infer<typeof blockSuggestionPayload>

/** Whether a click came from the app's Home tab (no message, no channel: notices go to the tab itself). */
export function fromHomeTab(payload: BlockActionsPayload): boolean {
  return payload.container?.type === 'view' && payload.view?.type === 'home'
}

/** The `app_home_opened` event, as the Events API delivers it. */
export const appHomeOpenedEvent = z.looseObject({
  type: z.literal('app_home_opened'),
  user: z.string(),
  /** `home` or `messages`: only the Home tab is ours to draw. */
  tab: z.string(),
  channel: z.string().optional(),
  /** The Home view the person saw last, when there was one. */
  view: z.looseObject({ id: z.string().optional() }).optional(),
})

export type AppHomeOpenedEvent = z.infer<typeof appHomeOpenedEvent>

/**
 * A person's reply in a thread, as the Events API's `message` event
 * delivers it: no subtype (or `thread_broadcast`, a reply also sent to the
 * channel), a `thread_ts` naming the parent, a human author (no `bot_id`).
 * Every other message event (top-level messages, edits, deletions, bots)
 * fails this parse and is ignored.
 */
export const threadReplyEvent = z.looseObject({
  type: z.literal('message'),
  subtype: z.literal('thread_broadcast').optional(),
  channel: z.string(),
  user: z.string(),
  text: z.string(),
  ts: z.string(),
  thread_ts: z.string(),
  bot_id: z.undefined().optional(),
}).refine((event) => event.thread_ts !== event.ts, 'a thread parent, not a reply')

export type ThreadReplyEvent = z.infer<typeof threadReplyEvent>

/** The person as the status lines and notices show them. */
export function personOf(user: SlackUser): { id: string; name?: string } {
  const name = user.name ?? user.username
  return name ? { id: user.id, name } : { id: user.id }
}
