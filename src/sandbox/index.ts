/**
 * The local Slack stand-in: a strict, in-memory stand-in for the part of
 * Slack dsh-slack uses (Web API, Socket Mode, signed HTTP delivery), with
 * scripted users for end-to-end tests. Point real clients at it:
 * `new App({ token: slack.botToken, appToken: slack.appToken, socketMode: true, clientOptions: { slackApiUrl: slack.apiUrl } })`.
 */
import type { Server } from 'node:http'

import { ClientState } from './client-state.js'
import { CodeChannels } from './code-channels.js'
import { systemClock } from './clock.js'
import type { SandboxCore } from './core.js'
import { Delivery, type DeliveryTarget } from './delivery.js'
import { SandboxError } from './errors.js'
import { Faults } from './faults.js'
import type { EphemeralMessage, SandboxChannel, SandboxUser, SandboxUserGroup, SandboxView, StoredMessage } from './model.js'
import { DEFAULT_SCOPES, DEFAULTS, type SandboxOptions } from './options.js'
import { RateLimiter } from './rate-limit.js'
import { perMinute } from '../slack/rate-rules.js'
import { ScriptedUser } from './scripted-user.js'
import { addressOf, listen, SANDBOX_HOST } from './server.js'
import { SocketModeServer, type DisconnectReason } from './socket-mode.js'
import { TriggerRegistry } from './triggers.js'
import { waitFor, type WaitOptions } from './wait.js'
import { createWebPage } from './web/routes.js'
import { Workspace } from './workspace.js'
import { readWorkspaceFile, WorkspaceFile } from './workspace-file.js'

export { ShiftedClock, systemClock, type SandboxClock } from './clock.js'
export type { CanvasComment, CodeChannel, CodeChannels, SandboxCanvas } from './code-channels.js'
export type { DeliveryTarget } from './delivery.js'
export { SANDBOX_ERROR_CODES, SandboxError, SlackRefusal, type SandboxErrorCode } from './errors.js'
export type { Fault } from './faults.js'
export { signRequest } from './http-delivery.js'
export type * from './model.js'
export type { SandboxOptions, SandboxSamples } from './options.js'
export type { Ack, ClickOptions, PickOptions, ScriptedUser, Target } from './scripted-user.js'
export type { DisconnectReason } from './socket-mode.js'
export type { WaitOptions } from './wait.js'
export type { Workspace } from './workspace.js'

export interface Sandbox {
  /** The Web API base URL to give clients as `slackApiUrl`: `http://127.0.0.1:N/api/`. */
  readonly apiUrl: string
  /** The web page showing the workspace, where a person clicks, picks and fills: `http://127.0.0.1:N/`. */
  readonly webUrl: string
  readonly port: number
  readonly botToken: string
  readonly appToken: string
  readonly signingSecret: string
  /** A channel the bot is in (#agents unless `channels` said otherwise). */
  readonly defaultChannel: string
  /** Where the workspace is kept between runs (`workspaceFile`); absent: memory only. */
  readonly workspaceFile?: string
  /** Whether the workspace was read back from `workspaceFile` (false: it started empty). */
  readonly restored: boolean
  /** The in-memory workspace; `workspace.on('change', …)` follows every change. */
  readonly workspace: Workspace
  /** Code channels and their canvases, as agents.conversations.* left them. */
  readonly codeChannels: CodeChannels
  /** Faults for the next calls of a method: `faults.inject('chat.postMessage', { error: 'channel_not_found' })`. */
  readonly faults: Faults
  createChannel(init: { id?: string; name: string; botIsMember?: boolean; isPrivate?: boolean; members?: string[] }): SandboxChannel
  addUser(init: { id: string; name?: string; realName?: string }): SandboxUser
  createUserGroup(init: { id?: string; handle?: string; users: string[] }): SandboxUserGroup
  /** Where interactions go from now on: Socket Mode (default) or signed HTTP to an app's URL. */
  deliverInteractionsTo(target: DeliveryTarget): void
  /** Messages in a channel, thread replies included, oldest first. */
  messages(channel: string): StoredMessage[]
  /** The newest top-level message of a channel (or the newest reply of a thread). */
  latestMessage(channel: string, options?: { thread?: string }): StoredMessage | undefined
  /** Ephemeral messages a user got, oldest first. */
  ephemerals(userId: string, channel?: string): EphemeralMessage[]
  /** The modal open for a user (top of their stack). */
  modal(userId: string): SandboxView | undefined
  /** A scripted user (added to the workspace if unknown). */
  user(userId: string): ScriptedUser
  /** Resolves with the predicate's first truthy value, re-checked on every workspace change. */
  waitFor<T>(predicate: () => T | undefined | null | false, options?: WaitOptions): Promise<T>
  /** A fresh trigger_id for `userId`, as an interaction of theirs would carry (3 s, once). */
  issueTriggerId(userId: string): string
  /** Socket Mode connections currently open. */
  socketConnections(): number
  /** How many calls of a Web API method (`chat.getPermalink`) the stand-in has received, 429s and errors included. */
  callCount(method: string): number
  /** Sends `disconnect` to every Socket Mode connection (clients reconnect through apps.connections.open). */
  disconnectSockets(reason?: DisconnectReason): void
  close(): Promise<void>
}

/**
 * Starts a stand-in on 127.0.0.1 and resolves once it listens. With
 * `workspaceFile`, it starts from the workspace kept there (unless `fresh`)
 * and keeps it there; the people and channels of `options` then only seed
 * a workspace that starts empty.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? systemClock
  const workspace = new Workspace({ ...DEFAULTS.app }, clock)
  const saved = options.workspaceFile && !options.fresh ? readWorkspaceFile(options.workspaceFile) : undefined
  if (saved) {
    workspace.load(saved)
  } else {
    for (const user of options.users ?? DEFAULTS.users) workspace.addUser(user)
    for (const init of options.channels ?? DEFAULTS.channels) workspace.createChannel(init)
  }
  const channels = [...workspace.channels.values()].filter((c) => !c.isIm)
  let server: Server | undefined
  const origin = (): string => {
    if (!server) throw new SandboxError('CLOSED', 'the stand-in is not listening')
    return `http://${SANDBOX_HOST}:${addressOf(server).port}`
  }
  const socket = new SocketModeServer({
    ids: workspace.ids,
    appId: workspace.app.appId,
    origin,
    pingIntervalMs: options.serverPingIntervalMs ?? DEFAULTS.serverPingIntervalMs,
    disconnectGraceMs: DEFAULTS.disconnectGraceMs,
  })
  const signingSecret = options.signingSecret ?? DEFAULTS.signingSecret
  const delivery = new Delivery(socket, clock, signingSecret)
  if (options.deliverTo) delivery.target = options.deliverTo
  const core: SandboxCore = {
    workspace,
    clock,
    triggers: new TriggerRegistry(workspace.ids, clock),
    limiter: new RateLimiter(clock),
    faults: new Faults(),
    scopes: new Set(options.scopes ?? DEFAULT_SCOPES),
    botToken: options.botToken ?? DEFAULTS.botToken,
    appToken: options.appToken ?? DEFAULTS.appToken,
    signingSecret,
    postRate: { perSecond: options.postRatePerSecond ?? DEFAULTS.postRatePerSecond, burst: options.postBurst ?? DEFAULTS.postBurst },
    workspacePostRate: perMinute(options.workspacePost?.perMinute ?? DEFAULTS.workspacePost.perMinute, options.workspacePost?.burst ?? DEFAULTS.workspacePost.burst),
    updateRate: perMinute(options.tier3PerMinute ?? DEFAULTS.tier3PerMinute),
    origin,
    socket,
    delivery,
    clientState: new ClientState(),
    homeTabEnabled: options.homeTabEnabled ?? true,
    calls: new Map(),
    codeChannels: new CodeChannels(workspace),
  }
  const users = new Map<string, ScriptedUser>()
  const user = (userId: string): ScriptedUser => {
    if (!workspace.users.has(userId)) workspace.addUser({ id: userId })
    let scripted = users.get(userId)
    if (!scripted) users.set(userId, (scripted = new ScriptedUser(core, userId)))
    return scripted
  }
  const web = createWebPage({ core, user, ...(options.samples ? { samples: options.samples } : {}), port: () => Number(new URL(origin()).port) })
  server = await listen(core, options.port ?? 0, web.handle)
  const listening = server
  const defaultChannel = channels.find((c) => c.botIsMember)?.id ?? channels[0]?.id ?? ''
  const file = options.workspaceFile
    ? new WorkspaceFile(options.workspaceFile, workspace, options.onSaveError ?? ((error) => console.error(`stand-in: could not save the workspace: ${error.message}`)))
    : undefined

  return {
    apiUrl: `${origin()}/api/`,
    webUrl: `${origin()}/`,
    port: addressOf(listening).port,
    botToken: core.botToken,
    appToken: core.appToken,
    signingSecret,
    defaultChannel,
    ...(file ? { workspaceFile: file.path } : {}),
    restored: saved !== undefined,
    workspace,
    faults: core.faults,
    codeChannels: core.codeChannels,
    createChannel: (init) => workspace.createChannel(init),
    addUser: (init) => workspace.addUser(init),
    createUserGroup: (init) => workspace.createUserGroup(init),
    deliverInteractionsTo: (target) => void (delivery.target = target),
    messages: (channel) => workspace.messages(channel),
    latestMessage: (channel, opts = {}) =>
      workspace
        .messages(channel)
        .filter((m) => (opts.thread === undefined ? m.thread_ts === undefined || m.thread_ts === m.ts : m.thread_ts === opts.thread && m.ts !== opts.thread))
        .at(-1),
    ephemerals: (userId, channel) => workspace.ephemerals(userId, channel),
    modal: (userId) => workspace.viewStack(userId).at(-1),
    user,
    waitFor: (predicate, opts) => waitFor(workspace, predicate, opts),
    issueTriggerId: (userId) => core.triggers.issue(userId),
    socketConnections: () => socket.connectionCount,
    callCount: (method) => core.calls.get(method) ?? 0,
    disconnectSockets: (reason = 'refresh_requested') => socket.disconnectAll(reason),
    async close() {
      file?.close()
      web.close()
      await socket.close()
      listening.closeAllConnections()
      await new Promise<void>((resolve) => listening.close(() => resolve()))
    },
  }
}
