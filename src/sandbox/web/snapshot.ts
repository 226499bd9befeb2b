/**
 * What the page shows, as one user sees it: the channels they are in, one
 * channel's messages (thread replies and their own ephemeral messages
 * included), their open modal with its inline errors, and what they have
 * picked so far (Slack keeps that client-side, so it is per user). The page
 * fetches this again after every workspace change; it is small enough.
 */
import { messageContainer, viewContainer } from '../client-state.js'
import type { SandboxCore } from '../core.js'
import type { SandboxChannel, SandboxView } from '../model.js'

import type { PageCodeChannel, PageHome, PageMessage, PageModal, PageSnapshot } from './wire.js'

export type { PageMessage, PageModal, PageSnapshot } from './wire.js'

/** Orders Slack timestamps ("seconds.micro"): as one float they would lose the last microsecond digits. */
export function compareTs(a: string, b: string): number {
  const [as = '0', au = '0'] = a.split('.')
  const [bs = '0', bu = '0'] = b.split('.')
  return Number(as) - Number(bs) || Number(au.padEnd(6, '0')) - Number(bu.padEnd(6, '0'))
}

function visibleTo(channel: SandboxChannel, user: string): boolean {
  return channel.isIm ? channel.imUser === user : channel.members.has(user)
}

/**
 * A DM is listed under the other side's name, as Slack's sidebar does: every
 * DM the stand-in has is one with the app (`imUser` is the person), so it is
 * the app's name, never the person's own.
 */
function channelName(core: SandboxCore, channel: SandboxChannel): string {
  if (!channel.isIm) return channel.name
  return core.workspace.app.botName
}

/**
 * Slack marks "(edited)" on a message whose text was changed, but not on an
 * app's Block Kit message updated with chat.update (its docs are silent; we
 * follow what Slack shows): our cards are all blocks, so none carries it.
 * A plain-text message updated still does.
 */
function showsEdited(message: { edited?: unknown; blocks?: unknown[] }): boolean {
  return message.edited !== undefined && (message.blocks === undefined || message.blocks.length === 0)
}

function modalOf(core: SandboxCore, user: string, stack: SandboxView[]): PageModal | null {
  const view = stack.at(-1)
  if (!view) return null
  return {
    id: view.id,
    title: view.title,
    ...(view.submit ? { submit: view.submit } : {}),
    ...(view.close ? { close: view.close } : {}),
    blocks: view.blocks,
    errors: core.workspace.viewErrors.get(view.id) ?? {},
    state: core.clientState.values(user, viewContainer(view.id), view.blocks),
    depth: stack.length - 1,
  }
}

function homeOf(core: SandboxCore, user: string): PageHome | null {
  const view = core.workspace.homeView(user)
  return view ? { id: view.id, blocks: view.blocks, state: core.clientState.values(user, viewContainer(view.id), view.blocks) } : null
}

function codeChannelOf(core: SandboxCore, channelId: string | undefined): PageCodeChannel | null {
  const channel = channelId === undefined ? undefined : core.codeChannels.channels.get(channelId)
  if (!channel) return null
  const nameOf = (id: string) => core.workspace.users.get(id)?.name ?? id
  const canvases = channel.views.flatMap((view) => {
    const canvas = view.canvasId === undefined ? undefined : core.codeChannels.canvases.get(view.canvasId)
    if (!canvas) return []
    const open = canvas.comments.filter((c) => !c.resolved)
    const sections = canvas.sections.map((section) => ({
      id: section.id,
      markdown: section.markdown,
      comments: open.filter((c) => c.sectionId === section.id).map((c) => ({ userName: nameOf(c.userId), text: c.text, quoted: c.quotedText })),
    }))
    return [{ id: canvas.id, label: view.label, access: view.accessLevel ?? 'write', sections }]
  })
  return { archived: channel.archived, contextBar: channel.contextBar.map((item) => ({ label: item.label, ...(item.icon ? { icon: item.icon } : {}) })), canvases }
}

export function pageSnapshot(core: SandboxCore, user: string, wanted: string | undefined, samples: readonly string[]): PageSnapshot {
  const { workspace } = core
  const me = workspace.users.get(user)
  const channels = [...workspace.channels.values()].filter((c) => visibleTo(c, user))
  const shown = channels.find((c) => c.id === wanted) ?? channels.find((c) => c.botIsMember && !c.isIm) ?? channels[0]
  const messages: PageMessage[] = []
  if (shown) {
    for (const m of workspace.messages(shown.id)) {
      messages.push({
        ts: m.ts,
        ...(m.thread_ts !== undefined ? { threadTs: m.thread_ts } : {}),
        user: m.user,
        text: m.text,
        ...(m.blocks ? { blocks: m.blocks } : {}),
        ...(m.files ? { files: m.files } : {}),
        edited: showsEdited(m),
        ...(m.reply_count !== undefined ? { replyCount: m.reply_count } : {}),
        ephemeral: false,
        state: core.clientState.values(user, messageContainer(m.channel, m.ts), m.blocks),
      })
    }
    for (const e of workspace.ephemerals(user, shown.id)) {
      messages.push({
        ts: e.ts,
        ...(e.thread_ts !== undefined ? { threadTs: e.thread_ts } : {}),
        user: workspace.app.botUserId,
        text: e.text,
        ...(e.blocks ? { blocks: e.blocks } : {}),
        edited: false,
        ephemeral: true,
        state: core.clientState.values(user, messageContainer(e.channel, e.ts), e.blocks),
      })
    }
    messages.sort((a, b) => compareTs(a.ts, b.ts))
  }
  return {
    app: { botUserId: workspace.app.botUserId, botName: workspace.app.botName, teamName: workspace.app.teamName },
    me: { id: user, name: me?.name ?? user, realName: me?.realName ?? user },
    users: [...workspace.users.values()].map((u) => ({ id: u.id, name: u.name, realName: u.realName, isBot: u.isBot })),
    userGroups: [...workspace.userGroups.values()].map((g) => ({ id: g.id, handle: g.handle })),
    channels: channels.map((c) => ({ id: c.id, name: channelName(core, c), isIm: c.isIm, isPrivate: c.isPrivate, members: c.members.size })),
    channel: shown?.id ?? '',
    messages,
    modal: modalOf(core, user, workspace.viewStack(user)),
    homeEnabled: core.homeTabEnabled,
    home: homeOf(core, user),
    samples: [...samples],
    codeChannel: codeChannelOf(core, shown?.id),
  }
}
