/**
 * The external upload flow: files.getUploadURLExternal gives an upload URL
 * on the stand-in (POST the bytes there), files.completeUploadExternal shares
 * the file into a channel or thread as a message.
 */
import { z } from 'zod'

import { BAD_JSON, integer, json, text } from '../args.js'
import { SlackRefusal } from '../errors.js'
import type { SandboxFile } from '../model.js'
import { postableChannel } from './content.js'
import { method, type MethodTable } from './method.js'

const fileRefs = z.array(z.object({ id: z.string(), title: z.string().optional() }))

/** A file object as Slack shows it in messages and answers. */
export function fileObject(file: SandboxFile, origin: string): Record<string, unknown> {
  return {
    id: file.id,
    name: file.name,
    title: file.title,
    size: file.size,
    mimetype: /\.md$/i.test(file.name) ? 'text/markdown' : 'application/octet-stream',
    url_private: `${origin}/files/${file.id}/${encodeURIComponent(file.name)}`,
  }
}

export const fileMethods: MethodTable = {
  'files.getUploadURLExternal': method({
    token: 'bot',
    scope: 'files:write',
    args: z.object({ filename: z.string().min(1), length: integer, alt_txt: z.string().optional(), snippet_type: z.string().optional() }),
    run(args, core) {
      const id = core.workspace.ids.next('F')
      core.workspace.files.set(id, { id, name: args.filename, title: args.filename, size: 0, length: args.length, completed: false })
      core.workspace.markDirty()
      return { upload_url: `${core.origin()}/upload/v1/${id}`, file_id: id }
    },
  }),

  'files.completeUploadExternal': method({
    token: 'bot',
    scope: 'files:write',
    args: z.object({ files: json, channel_id: z.string().optional(), channels: z.string().optional(), thread_ts: text.optional(), initial_comment: z.string().optional() }),
    run(args, core) {
      const refs = args.files === BAD_JSON ? undefined : fileRefs.safeParse(args.files)
      if (!refs?.success || refs.data.length === 0) throw new SlackRefusal('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: files'] } })
      const files = refs.data.map((ref) => {
        const file = core.workspace.files.get(ref.id)
        if (!file || file.bytes === undefined) throw new SlackRefusal('file_not_found')
        if (ref.title) file.title = ref.title
        file.completed = true
        return file
      })
      core.workspace.markDirty()
      const target = args.channel_id ?? args.channels?.split(',')[0]
      if (target) {
        const channel = postableChannel(core, target)
        const { app } = core.workspace
        core.workspace.post({
          channel: channel.id,
          user: app.botUserId,
          bot_id: app.botId,
          app_id: app.appId,
          text: args.initial_comment ?? '',
          files: files.map((f) => fileObject(f, core.origin())),
          ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}),
        })
      }
      return { files: files.map((f) => ({ id: f.id, title: f.title })) }
    },
  }),
}
