/**
 * The stand-in's parts, as the Web API methods, the deliveries and the
 * scripted users see them. `startSandbox` builds one `SandboxCore`.
 */
import type { SandboxClock } from './clock.js'
import type { ClientState } from './client-state.js'
import type { CodeChannels } from './code-channels.js'
import type { Delivery } from './delivery.js'
import type { Faults } from './faults.js'
import type { RateLimiter, RateRule } from './rate-limit.js'
import type { SocketModeServer } from './socket-mode.js'
import type { TriggerRegistry } from './triggers.js'
import type { Workspace } from './workspace.js'

export interface SandboxCore {
  workspace: Workspace
  clock: SandboxClock
  triggers: TriggerRegistry
  limiter: RateLimiter
  faults: Faults
  /** The bot token's scopes (returned in `x-oauth-scopes`). */
  scopes: Set<string>
  botToken: string
  appToken: string
  signingSecret: string
  /** chat.postMessage's per-channel rate. */
  postRate: RateRule
  /** chat.postMessage's workspace-wide rate, across channels. */
  workspacePostRate: RateRule
  /** chat.update's rate (the workspace's real Tier 3). */
  updateRate: RateRule
  /** `http://127.0.0.1:N` once listening. */
  origin(): string
  socket: SocketModeServer
  delivery: Delivery
  /** Each user's client-side input state (what they typed, picked, ticked). */
  clientState: ClientState
  /** Whether the app's Home tab is turned on (views.publish answers `not_enabled` when it is not). */
  homeTabEnabled: boolean
  /** Code channels and their canvases (agents.conversations.*). */
  codeChannels: CodeChannels
  /** Web API calls received, by method, whatever they were answered (tests count calls with it). */
  calls: Map<string, number>
}
