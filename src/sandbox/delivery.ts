/**
 * Where interactions and events go: the Socket Mode connections (default) or an app's
 * Request URL over signed HTTP. The scripted user hands a payload here and
 * gets the app's ack back.
 */
import type { SandboxClock } from './clock.js'
import { postInteraction } from './http-delivery.js'
import type { SocketModeServer } from './socket-mode.js'

export type DeliveryTarget =
  /** Envelopes over the Socket Mode connections the app opened. */
  | { kind: 'socket' }
  /**
   * Signed POSTs to the app. `signingSecret` defaults to the stand-in's (give
   * a wrong one to see the app refuse a forged request); `optionsUrl` is the
   * options-load URL for block_suggestion (default `url`).
   */
  | { kind: 'http'; url: string; signingSecret?: string; optionsUrl?: string }

/** Payload types whose ack Slack reads (response_action, options). */
const ACCEPTS_RESPONSE = new Set(['view_submission', 'block_suggestion'])

export class Delivery {
  target: DeliveryTarget = { kind: 'socket' }

  constructor(
    private readonly socket: SocketModeServer,
    private readonly clock: SandboxClock,
    private readonly signingSecret: string,
  ) {}

  /** Delivers one interaction payload and resolves with the app's ack payload (`{}` for a bare ack). */
  send(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const type = String(payload.type)
    if (this.target.kind === 'socket') return this.socket.deliver(payload, ACCEPTS_RESPONSE.has(type))
    const url = type === 'block_suggestion' ? (this.target.optionsUrl ?? this.target.url) : this.target.url
    return postInteraction(url, this.target.signingSecret ?? this.signingSecret, Math.floor(this.clock.now() / 1000), payload)
  }

  /**
   * Delivers one Events API callback (`type: 'event_callback'`): an
   * `events_api` envelope over Socket Mode, or a signed JSON POST to the
   * Request URL (Slack sends events and interactions to the same one here).
   */
  sendEvent(callback: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.target.kind === 'socket') return this.socket.deliver(callback, false, 'events_api')
    return postInteraction(this.target.url, this.target.signingSecret ?? this.signingSecret, Math.floor(this.clock.now() / 1000), callback, 'json')
  }
}
