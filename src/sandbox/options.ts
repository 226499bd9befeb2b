/**
 * How a stand-in starts, and its defaults: a workspace with two people, a
 * channel the bot is in (#agents) and one it is not in (#general), and tokens
 * that are plainly not real (`xoxb-sandbox-…`).
 */
import { RATE_RULES } from '../slack/rate-rules.js'
import type { SandboxClock } from './clock.js'
import type { DeliveryTarget } from './delivery.js'

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number
  /** Keeps the workspace in this JSON file between runs, starting from what it holds; absent: memory only. */
  workspaceFile?: string
  /** With `workspaceFile`: start empty, replacing what the file holds. */
  fresh?: boolean
  /** A save of `workspaceFile` failed (default: one line on stderr); the stand-in goes on. */
  onSaveError?: (error: Error) => void
  botToken?: string
  appToken?: string
  signingSecret?: string
  /** The bot token's scopes (default: what dsh-slack's manifest asks for, plus the read scopes). */
  scopes?: string[]
  /** chat.postMessage calls per second per channel (Slack: about 1). */
  postRatePerSecond?: number
  /** chat.postMessage calls a channel takes at once before the rate applies (Slack allows "short bursts"). */
  postBurst?: number
  /** chat.postMessage calls per minute across all channels, and the burst of them (Slack: a workspace-wide limit). */
  workspacePost?: { perMinute: number; burst: number }
  /**
   * chat.update calls a minute, with a burst of as many: the workspace's
   * real Tier 3, which the bridge does not know (Slack documents "50+";
   * default the documented 50). More models a Slack that allows more, so
   * tests and the bench can watch the bridge learn it (decision 0045).
   * `dsh-slack sandbox` and `dsh-slack serve` read SANDBOX_TIER3_PER_MINUTE.
   */
  tier3PerMinute?: number
  /** People in the workspace (default: alice U0SANDBOX01, bob U0SANDBOX02). */
  users?: { id: string; name?: string; realName?: string }[]
  /** Channels (default: #agents C0SANDBOX01 with the bot, #general C0SANDBOX02 without). The first is `defaultChannel`. */
  channels?: { id?: string; name: string; botIsMember?: boolean; isPrivate?: boolean; members?: string[] }[]
  /** Where interactions go (default: Socket Mode). */
  deliverTo?: DeliveryTarget
  /** Time as the stand-in sees it (tests pass a `ShiftedClock`). */
  clock?: SandboxClock
  /** How often the server pings Socket Mode connections. */
  serverPingIntervalMs?: number
  /** Whether the app's Home tab is turned on (default true); off, views.publish answers `not_enabled` and nobody can open it. */
  homeTabEnabled?: boolean
  /** Sample asks the web page offers to send (`dsh-slack serve` passes ones that call the bridge). */
  samples?: SandboxSamples
}

/**
 * The web page's "send a sample ask" panel: the stand-in knows nothing about
 * asks, so whoever runs the bridge says which samples exist and how to send one.
 */
export interface SandboxSamples {
  /** Sample names, in the order the page shows them (e.g. `question`, `plan-review`). */
  kinds: readonly string[]
  /** Posts one sample; a rejection is shown on the page. */
  send(kind: string): Promise<void>
}

export const DEFAULT_SCOPES = ['chat:write', 'chat:write.public', 'users:read', 'usergroups:read', 'im:write', 'files:write', 'channels:read', 'groups:read', 'im:read', 'channels:history', 'groups:history']

export const DEFAULTS = {
  botToken: 'xoxb-sandbox-bot-token',
  appToken: 'xapp-sandbox-app-token',
  // Hex like a real signing secret, so the printed SLACK_SIGNING_SECRET passes dsh-slack's own config check.
  signingSecret: '5a4db0c5a4db0c5a4db0c5a4db0c5a4d',
  /** The rules the bridge paces to (src/slack/rate-rules.ts), so a paced bridge never meets a 429 here. */
  postRatePerSecond: RATE_RULES.channelPost.perSecond,
  postBurst: RATE_RULES.channelPost.burst,
  workspacePost: { perMinute: RATE_RULES.workspacePost.perSecond * 60, burst: RATE_RULES.workspacePost.burst },
  /** The documented Tier 3: the floor the bridge sends at, and all the stand-in promises unless told otherwise. */
  tier3PerMinute: RATE_RULES.tier3.perSecond * 60,
  /** Stand-in knob: well inside @slack/socket-mode's 30 s server-ping timeout. */
  serverPingIntervalMs: 10_000,
  /** Stand-in knob: how long a client may take to close after `disconnect`. */
  disconnectGraceMs: 1000,
  users: [
    { id: 'U0SANDBOX01', name: 'alice', realName: 'Alice Example' },
    { id: 'U0SANDBOX02', name: 'bob', realName: 'Bob Example' },
  ],
  channels: [
    { id: 'C0SANDBOX01', name: 'agents', botIsMember: true },
    { id: 'C0SANDBOX02', name: 'general', botIsMember: false },
  ],
  app: {
    teamId: 'T0SANDBOX01',
    teamDomain: 'sandbox',
    teamName: 'Sandbox',
    appId: 'A0SANDBOX01',
    botId: 'B0SANDBOX01',
    botUserId: 'U0SANDBOXBOT',
    botName: 'dsh-slack',
  },
} as const
