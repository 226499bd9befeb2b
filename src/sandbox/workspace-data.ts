/**
 * A workspace as it is kept on disk between runs of the stand-in
 * (`.dsh-slack/sandbox.json`): people, user groups, channels and DMs,
 * messages with their threads, uploaded files, each person's open modals and
 * the errors shown under them, and the id counters (so a restarted stand-in
 * never hands out an id twice). What Slack keeps only client-side or only
 * for a moment is left out: ephemeral messages, what someone ticked but did
 * not submit, trigger ids, rate-limit buckets and injected faults.
 *
 * The file is read back through this schema: it is input from outside the
 * process (a hand edit, or a file from an older version), parsed at the edge.
 */
import { z } from 'zod'

const obj = z.record(z.string(), z.unknown())

const user = z.object({ id: z.string(), name: z.string(), realName: z.string(), isBot: z.boolean() })

const userGroup = z.object({ id: z.string(), handle: z.string(), users: z.array(z.string()) })

const channel = z.object({
  id: z.string(),
  name: z.string(),
  isPrivate: z.boolean(),
  isIm: z.boolean(),
  imUser: z.string().optional(),
  botIsMember: z.boolean(),
  /** A Set in memory. */
  members: z.array(z.string()),
  created: z.number(),
})

const message = z.object({
  type: z.literal('message'),
  channel: z.string(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  user: z.string(),
  bot_id: z.string().optional(),
  app_id: z.string().optional(),
  team: z.string(),
  text: z.string(),
  blocks: z.array(obj).optional(),
  files: z.array(obj).optional(),
  edited: z.object({ user: z.string(), ts: z.string() }).optional(),
  reply_count: z.number().optional(),
  history: z.array(z.object({ text: z.string(), blocks: z.array(obj).optional() })),
})

const file = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  size: z.number(),
  length: z.number(),
  /** The bytes, base64: a Buffer in memory. */
  bytes: z.string().optional(),
  completed: z.boolean(),
})

const view = z.object({
  id: z.string(),
  team_id: z.string(),
  type: z.literal('modal'),
  title: obj,
  submit: obj.optional(),
  close: obj.optional(),
  blocks: z.array(obj),
  private_metadata: z.string(),
  callback_id: z.string(),
  external_id: z.string(),
  state: z.object({ values: z.record(z.string(), obj) }),
  hash: z.string(),
  clear_on_close: z.boolean(),
  notify_on_close: z.boolean(),
  previous_view_id: z.string().nullable(),
  root_view_id: z.string(),
  app_id: z.string(),
  app_installed_team_id: z.string(),
  bot_id: z.string(),
})

/** Bumped when the shape changes; a file of another version is refused with a way out (`--fresh`). */
export const WORKSPACE_DATA_VERSION = 1

export const workspaceData = z.object({
  version: z.literal(WORKSPACE_DATA_VERSION),
  ids: z.object({ counter: z.number().int().min(0), lastTs: z.number().min(0) }),
  users: z.array(user),
  userGroups: z.array(userGroup),
  channels: z.array(channel),
  /** Every channel's messages, thread replies included, each channel oldest first. */
  messages: z.array(message),
  files: z.array(file),
  /** Each person's modal stack, root first. */
  views: z.array(z.object({ user: z.string(), stack: z.array(view) })),
  /** Errors a submit ack put under a modal's inputs, by view id. */
  viewErrors: z.record(z.string(), z.record(z.string(), z.string())),
})

export type WorkspaceData = z.infer<typeof workspaceData>
