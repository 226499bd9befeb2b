/**
 * The in-memory workspace: people, channels, messages, ephemeral messages,
 * open modals and files. Every change is emitted as a `change` event
 * (`WorkspaceChange`), the seam a live page or a test follows; every change
 * of what is kept between runs (those, and people, channels and files) also
 * as `dirty`, which `WorkspaceFile` follows to save it (`dump()`/`load()`).
 * Permission and limit checks live in the Web API methods; this file only
 * keeps the data.
 */
import { EventEmitter } from 'node:events'

import type { SandboxClock } from './clock.js'
import { IdSource } from './ids.js'
import type { EphemeralMessage, SandboxChannel, SandboxFile, SandboxHomeView, SandboxUser, SandboxUserGroup, SandboxView, StoredMessage, WorkspaceChange } from './model.js'
import { WORKSPACE_DATA_VERSION, type WorkspaceData } from './workspace-data.js'

/** Who the app is in this workspace: what auth.test answers. */
export interface AppIdentity {
  teamId: string
  teamDomain: string
  teamName: string
  appId: string
  botId: string
  botUserId: string
  botName: string
}

export interface WorkspaceEvents {
  change: [WorkspaceChange]
  /** Something kept between runs changed (a `change`, or a person, channel, group or file). */
  dirty: []
}

export class Workspace extends EventEmitter<WorkspaceEvents> {
  readonly ids: IdSource
  readonly users = new Map<string, SandboxUser>()
  readonly channels = new Map<string, SandboxChannel>()
  readonly userGroups = new Map<string, SandboxUserGroup>()
  readonly files = new Map<string, SandboxFile>()
  private readonly messagesByChannel = new Map<string, StoredMessage[]>()
  private readonly ephemeralMessages: EphemeralMessage[] = []
  /** Errors a view_submission ack put under a modal's inputs, by view id (cleared when the view changes). */
  readonly viewErrors = new Map<string, Record<string, string>>()
  /** Each user's modal stack, root first (Slack allows three). */
  private readonly viewStacks = new Map<string, SandboxView[]>()
  /** Each user's Home tab, as the app last published it. */
  private readonly homeViews = new Map<string, SandboxHomeView>()

  constructor(
    readonly app: AppIdentity,
    readonly clock: SandboxClock,
  ) {
    super()
    // Every waitFor() and every open page follows 'change' while it lasts and
    // stops after, so hundreds at once (a load test's waits) are no leak: no
    // limit, rather than Node's warning at 11.
    this.setMaxListeners(0)
    this.ids = new IdSource(clock)
    this.users.set(app.botUserId, { id: app.botUserId, name: app.botName, realName: app.botName, isBot: true })
  }

  private emitChange(change: WorkspaceChange): void {
    this.emit('change', change)
    this.emit('dirty')
  }

  /** Says that something kept between runs changed outside this class (a file's bytes or title). */
  markDirty(): void {
    this.emit('dirty')
  }

  /** Everything kept between runs, as plain JSON-safe data. */
  dump(): WorkspaceData {
    return {
      version: WORKSPACE_DATA_VERSION,
      ids: this.ids.state,
      users: [...this.users.values()].filter((u) => !u.isBot),
      userGroups: [...this.userGroups.values()],
      channels: [...this.channels.values()].map((c) => ({ ...c, members: [...c.members] })),
      messages: [...this.messagesByChannel.values()].flat(),
      files: [...this.files.values()].map(({ bytes, ...file }) => ({ ...file, ...(bytes ? { bytes: bytes.toString('base64') } : {}) })),
      views: [...this.viewStacks].filter(([, stack]) => stack.length > 0).map(([user, stack]) => ({ user, stack })),
      viewErrors: Object.fromEntries(this.viewErrors),
    }
  }

  /** Replaces the people, channels, messages, files and modals with saved ones (at start, before anything else). */
  load(data: WorkspaceData): void {
    this.ids.restore(data.ids)
    for (const user of data.users) this.users.set(user.id, { ...user })
    for (const group of data.userGroups) this.userGroups.set(group.id, { ...group, users: [...group.users] })
    for (const { members, ...channel } of data.channels) this.channels.set(channel.id, { ...channel, members: new Set(members) })
    for (const message of data.messages) {
      const list = this.messagesByChannel.get(message.channel) ?? []
      list.push(message)
      this.messagesByChannel.set(message.channel, list)
    }
    for (const { bytes, ...file } of data.files) this.files.set(file.id, { ...file, ...(bytes !== undefined ? { bytes: Buffer.from(bytes, 'base64') } : {}) })
    for (const { user, stack } of data.views) this.viewStacks.set(user, stack)
    for (const [viewId, errors] of Object.entries(data.viewErrors)) this.viewErrors.set(viewId, errors)
  }

  addUser(user: { id: string; name?: string; realName?: string }): SandboxUser {
    const name = user.name ?? user.id.toLowerCase()
    const added: SandboxUser = { id: user.id, name, realName: user.realName ?? name, isBot: false }
    this.users.set(user.id, added)
    // People join every public channel, so they can see (and click in) what the bot posts there.
    for (const channel of this.channels.values()) if (!channel.isPrivate && !channel.isIm) channel.members.add(user.id)
    this.markDirty()
    return added
  }

  createChannel(init: { id?: string; name: string; botIsMember?: boolean; isPrivate?: boolean; members?: string[] }): SandboxChannel {
    const isPrivate = init.isPrivate ?? false
    const id = init.id ?? this.ids.next(isPrivate ? 'G' : 'C')
    const members = new Set(init.members ?? [...this.users.values()].filter((u) => !u.isBot).map((u) => u.id))
    const botIsMember = init.botIsMember ?? true
    if (botIsMember) members.add(this.app.botUserId)
    const channel: SandboxChannel = { id, name: init.name, isPrivate, isIm: false, botIsMember, members, created: Math.floor(this.clock.now() / 1000) }
    this.channels.set(id, channel)
    this.markDirty()
    return channel
  }

  /** The DM between the bot and `userId`, opened on first use (conversations.open). */
  openIm(userId: string): { channel: SandboxChannel; alreadyOpen: boolean } {
    for (const channel of this.channels.values()) if (channel.isIm && channel.imUser === userId) return { channel, alreadyOpen: true }
    const channel: SandboxChannel = {
      id: this.ids.next('D'),
      name: '',
      isPrivate: true,
      isIm: true,
      imUser: userId,
      botIsMember: true,
      members: new Set([userId, this.app.botUserId]),
      created: Math.floor(this.clock.now() / 1000),
    }
    this.channels.set(channel.id, channel)
    this.markDirty()
    return { channel, alreadyOpen: false }
  }

  createUserGroup(init: { id?: string; handle?: string; users: string[] }): SandboxUserGroup {
    const group: SandboxUserGroup = { id: init.id ?? this.ids.next('S'), handle: init.handle ?? 'group', users: [...init.users] }
    this.userGroups.set(group.id, group)
    this.markDirty()
    return group
  }

  /** Messages of a channel, thread replies included, oldest first. */
  messages(channel: string): StoredMessage[] {
    return [...(this.messagesByChannel.get(channel) ?? [])]
  }

  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messagesByChannel.get(channel)?.find((m) => m.ts === ts)
  }

  post(message: Omit<StoredMessage, 'type' | 'ts' | 'team' | 'history'>): StoredMessage {
    const stored: StoredMessage = { type: 'message', ts: this.ids.ts(), team: this.app.teamId, history: [], ...message }
    const list = this.messagesByChannel.get(stored.channel) ?? []
    list.push(stored)
    this.messagesByChannel.set(stored.channel, list)
    if (stored.thread_ts !== undefined) {
      const parent = list.find((m) => m.ts === stored.thread_ts)
      if (parent) {
        parent.thread_ts = parent.ts
        parent.reply_count = (parent.reply_count ?? 0) + 1
      }
    }
    this.emitChange({ type: 'message_posted', message: stored })
    return stored
  }

  update(message: StoredMessage, next: { text: string; blocks?: Record<string, unknown>[] }, editor: string): StoredMessage {
    message.history.push({ text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) })
    message.text = next.text
    if (next.blocks) message.blocks = next.blocks
    else delete message.blocks
    message.edited = { user: editor, ts: this.ids.ts() }
    this.emitChange({ type: 'message_updated', message })
    return message
  }

  delete(channel: string, ts: string): void {
    const list = this.messagesByChannel.get(channel) ?? []
    this.messagesByChannel.set(
      channel,
      list.filter((m) => m.ts !== ts),
    )
    this.emitChange({ type: 'message_deleted', channel, ts })
  }

  postEphemeral(message: Omit<EphemeralMessage, 'ephemeral' | 'ts'>): EphemeralMessage {
    const stored: EphemeralMessage = { ephemeral: true, ts: this.ids.ts(), ...message }
    this.ephemeralMessages.push(stored)
    this.emitChange({ type: 'ephemeral_posted', message: stored })
    return stored
  }

  /** Ephemeral messages `userId` got, oldest first, optionally in one channel. */
  ephemerals(userId: string, channel?: string): EphemeralMessage[] {
    return this.ephemeralMessages.filter((m) => m.user === userId && (channel === undefined || m.channel === channel))
  }

  /** The user's modal stack, root first. */
  viewStack(userId: string): SandboxView[] {
    return [...(this.viewStacks.get(userId) ?? [])]
  }

  findView(viewId: string): { user: string; view: SandboxView } | undefined {
    for (const [user, stack] of this.viewStacks) {
      const view = stack.find((v) => v.id === viewId)
      if (view) return { user, view }
    }
    return undefined
  }

  findViewByExternalId(externalId: string): { user: string; view: SandboxView } | undefined {
    for (const [user, stack] of this.viewStacks) {
      const view = stack.find((v) => v.external_id === externalId)
      if (view) return { user, view }
    }
    return undefined
  }

  /** Opens a new modal for the user: a new root, replacing whatever was open. */
  openView(userId: string, view: SandboxView): void {
    this.viewStacks.set(userId, [view])
    this.emitChange({ type: 'view_opened', user: userId, view })
  }

  pushView(userId: string, view: SandboxView): void {
    this.viewStacks.set(userId, [...this.viewStack(userId), view])
    this.emitChange({ type: 'view_opened', user: userId, view })
  }

  replaceView(userId: string, view: SandboxView): void {
    this.viewErrors.delete(view.id)
    this.viewStacks.set(
      userId,
      this.viewStack(userId).map((v) => (v.id === view.id ? view : v)),
    )
    this.emitChange({ type: 'view_updated', user: userId, view })
  }

  /** Closes the top view (or all of them): what an empty submit ack, `clear` or the Close button do. */
  closeViews(userId: string, all: boolean): void {
    const stack = this.viewStack(userId)
    const closing = all ? stack.reverse() : stack.slice(-1)
    this.viewStacks.set(userId, all ? [] : stack.slice(0, -1))
    for (const view of closing) {
      this.viewErrors.delete(view.id)
      this.emitChange({ type: 'view_closed', user: userId, viewId: view.id })
    }
  }

  /** The user's Home tab as last published, if the app ever published one. */
  homeView(userId: string): SandboxHomeView | undefined {
    return this.homeViews.get(userId)
  }

  findHomeView(viewId: string): { user: string; view: SandboxHomeView } | undefined {
    for (const [user, view] of this.homeViews) if (view.id === viewId) return { user, view }
    return undefined
  }

  /** Replaces the user's Home tab (views.publish). */
  publishHome(userId: string, view: SandboxHomeView): void {
    this.homeViews.set(userId, view)
    this.emitChange({ type: 'home_published', user: userId, view })
  }

  showViewErrors(userId: string, viewId: string, errors: Record<string, string>): void {
    this.viewErrors.set(viewId, errors)
    this.emitChange({ type: 'view_errors', user: userId, viewId, errors })
  }
}
