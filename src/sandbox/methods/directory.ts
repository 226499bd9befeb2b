/** Who and where: auth.test, apps.connections.open, conversations.open/info, users.info, usergroups.users.list. */
import { z } from 'zod'

import { TIMING } from '../../slack/timing.js'
import { flag } from '../args.js'
import { SlackRefusal } from '../errors.js'
import type { SandboxChannel } from '../model.js'
import { findChannel } from './content.js'
import { method, perMinute, type MethodTable } from './method.js'

function channelObject(channel: SandboxChannel, botUserId: string): Record<string, unknown> {
  if (channel.isIm) return { id: channel.id, created: channel.created, is_im: true, is_org_shared: false, user: channel.imUser, is_user_deleted: false, priority: 0 }
  return {
    id: channel.id,
    name: channel.name,
    name_normalized: channel.name,
    created: channel.created,
    is_channel: !channel.isPrivate,
    is_group: channel.isPrivate,
    is_im: false,
    is_mpim: false,
    is_private: channel.isPrivate,
    is_archived: false,
    is_general: false,
    is_shared: false,
    is_ext_shared: false,
    is_org_shared: false,
    is_member: channel.members.has(botUserId),
    num_members: channel.members.size,
  }
}

export const directoryMethods: MethodTable = {
  'auth.test': method({
    token: 'any',
    args: z.object({}),
    run(_args, core) {
      const { app } = core.workspace
      return {
        url: `${core.origin()}/`,
        team: app.teamName,
        user: app.botName,
        team_id: app.teamId,
        user_id: app.botUserId,
        bot_id: app.botId,
        app_id: app.appId,
        is_enterprise_install: false,
      }
    },
  }),

  'apps.connections.open': method({
    token: 'app',
    args: z.object({}),
    run(_args, core) {
      return { url: core.socket.issueUrl() }
    },
  }),

  'conversations.open': method({
    token: 'bot',
    scope: 'im:write',
    args: z.object({ users: z.string().optional(), channel: z.string().optional(), return_im: flag.optional() }),
    run(args, core) {
      if (args.channel) {
        const channel = findChannel(core, args.channel)
        return { no_op: true, already_open: true, channel: args.return_im ? channelObject(channel, core.workspace.app.botUserId) : { id: channel.id } }
      }
      const users = (args.users ?? '').split(',').map((u) => u.trim()).filter(Boolean)
      if (users.length === 0) throw new SlackRefusal('users_list_not_supplied')
      // Group DMs (several users) are not needed by dsh-slack and not modelled.
      if (users.length > 1) throw new SlackRefusal('not_supported')
      const [user] = users as [string]
      if (!core.workspace.users.has(user)) throw new SlackRefusal('user_not_found')
      const { channel, alreadyOpen } = core.workspace.openIm(user)
      return { ...(alreadyOpen ? { no_op: true, already_open: true } : {}), channel: args.return_im ? channelObject(channel, core.workspace.app.botUserId) : { id: channel.id } }
    },
  }),

  'conversations.info': method({
    token: 'bot',
    args: z.object({ channel: z.string().optional() }),
    run(args, core) {
      const channel = findChannel(core, args.channel)
      // Each conversation kind needs its own read scope.
      const needed = channel.isIm ? 'im:read' : channel.isPrivate ? 'groups:read' : 'channels:read'
      if (!core.scopes.has(needed)) throw new SlackRefusal('missing_scope', { needed, provided: [...core.scopes].join(',') })
      return { channel: channelObject(channel, core.workspace.app.botUserId) }
    },
  }),

  'conversations.members': method({
    token: 'bot',
    args: z.object({ channel: z.string().optional(), cursor: z.string().optional(), limit: z.coerce.number().int().optional() }),
    rate: () => ({ key: 'conversations.members', rule: perMinute(TIMING.tier4CallsPerMinute) }),
    run(args, core) {
      const channel = findChannel(core, args.channel)
      const needed = channel.isIm ? 'im:read' : channel.isPrivate ? 'groups:read' : 'channels:read'
      if (!core.scopes.has(needed)) throw new SlackRefusal('missing_scope', { needed, provided: [...core.scopes].join(',') })
      const all = [...channel.members].sort()
      const start = args.cursor ? Number(Buffer.from(args.cursor, 'base64').toString('utf8').replace(/^offset:/, '')) : 0
      if (!Number.isInteger(start) || start < 0) throw new SlackRefusal('invalid_cursor')
      const limit = Math.min(Math.max(args.limit ?? 100, 1), 1000)
      const members = all.slice(start, start + limit)
      const next = start + limit < all.length ? Buffer.from(`offset:${start + limit}`).toString('base64') : ''
      return { members, response_metadata: { next_cursor: next } }
    },
  }),

  'users.info': method({
    token: 'bot',
    scope: 'users:read',
    args: z.object({ user: z.string().optional() }),
    rate: () => ({ key: 'users.info', rule: perMinute(TIMING.tier4CallsPerMinute) }),
    run(args, core) {
      const user = args.user ? core.workspace.users.get(args.user) : undefined
      if (!user) throw new SlackRefusal('user_not_found')
      return {
        user: {
          id: user.id,
          team_id: core.workspace.app.teamId,
          name: user.name,
          deleted: false,
          real_name: user.realName,
          is_bot: user.isBot,
          is_app_user: false,
          tz: 'UTC',
          profile: { real_name: user.realName, display_name: user.name, real_name_normalized: user.realName, display_name_normalized: user.name },
        },
      }
    },
  }),

  'usergroups.users.list': method({
    token: 'bot',
    scope: 'usergroups:read',
    args: z.object({ usergroup: z.string().optional(), include_disabled: flag.optional() }),
    run(args, core) {
      const group = args.usergroup ? core.workspace.userGroups.get(args.usergroup) : undefined
      if (!group) throw new SlackRefusal('no_such_subteam')
      return { users: [...group.users] }
    },
  }),
}
