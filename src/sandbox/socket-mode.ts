/**
 * Socket Mode: apps.connections.open hands out a one-use `ws://127.0.0.1:…/link/?ticket=…`
 * URL; a connection gets `hello`, then `interactive` envelopes, and answers
 * each with `{ envelope_id, payload? }`. Several connections may be open;
 * each envelope goes to one of them (round robin here, "any one" at Slack).
 * The server pings every connection, as Slack does; the `ws` library answers
 * the client's own pings with pongs, which @slack/socket-mode insists on.
 */
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

import { WebSocket, WebSocketServer } from 'ws'

import { TIMING } from '../slack/timing.js'
import { SandboxError } from './errors.js'
import type { IdSource } from './ids.js'

/** Why Slack asks a client to reconnect. */
export type DisconnectReason = 'refresh_requested' | 'link_disabled' | 'warning' | 'too_many_websockets'

interface Pending {
  resolve: (payload: Record<string, unknown>) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

export interface SocketModeOptions {
  ids: IdSource
  appId: string
  origin: () => string
  /** How often the server pings each connection. */
  pingIntervalMs: number
  /** How long a client gets to close after `disconnect` before the server drops it. */
  disconnectGraceMs: number
}

/** An interaction's type, or an event callback's event type, for messages. */
function describe(payload: Record<string, unknown>): string {
  const event = payload.event
  return typeof event === 'object' && event !== null ? String((event as Record<string, unknown>).type) : String(payload.type)
}

export class SocketModeServer {
  private readonly wss = new WebSocketServer({ noServer: true })
  private readonly tickets = new Set<string>()
  private readonly open: WebSocket[] = []
  private readonly pending = new Map<string, Pending>()
  private readonly timers = new Set<NodeJS.Timeout>()
  private turn = 0

  constructor(private readonly options: SocketModeOptions) {}

  /** A fresh connection URL with a one-use ticket (what apps.connections.open answers). */
  issueUrl(): string {
    const ticket = this.options.ids.opaque()
    this.tickets.add(ticket)
    return `${this.options.origin().replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${this.options.appId}`
  }

  /** Connections that got their `hello`. */
  get connectionCount(): number {
    return this.open.length
  }

  /** Takes an HTTP upgrade for `/link/`; refuses a missing or used ticket. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    const ticket = url.searchParams.get('ticket') ?? ''
    if (!this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n')
      return
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws))
  }

  private accept(ws: WebSocket): void {
    this.open.push(ws)
    const ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.ping(), this.options.pingIntervalMs)
    ws.on('message', (data) => this.onMessage(String(data)))
    ws.on('close', () => {
      clearInterval(ping)
      const at = this.open.indexOf(ws)
      if (at >= 0) this.open.splice(at, 1)
    })
    ws.on('error', () => ws.terminate())
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.open.length,
        debug_info: { host: 'sandbox-applink', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.options.appId },
      }),
    )
  }

  private onMessage(raw: string): void {
    let message: unknown
    try {
      message = JSON.parse(raw)
    } catch {
      return
    }
    if (typeof message !== 'object' || message === null) return
    const { envelope_id: id, payload } = message as { envelope_id?: unknown; payload?: unknown }
    const pending = typeof id === 'string' ? this.pending.get(id) : undefined
    if (!pending || typeof id !== 'string') return
    this.pending.delete(id)
    clearTimeout(pending.timer)
    pending.resolve(typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {})
  }

  /**
   * Sends one envelope (`interactive`, or `events_api` for an event) to one
   * connection and resolves with its ack payload. An event nobody
   * acknowledged is sent again, as Slack does (TIMING.eventRetryDelaysMs),
   * to whichever connection's turn it is; a click is not.
   */
  deliver(payload: Record<string, unknown>, acceptsResponsePayload: boolean, type: 'interactive' | 'events_api' = 'interactive'): Promise<Record<string, unknown>> {
    const sent = this.send(payload, acceptsResponsePayload, type, 0)
    if (type === 'events_api') sent.catch((error: unknown) => (error instanceof SandboxError && error.code === 'NOT_ACKNOWLEDGED' ? this.retryEvent(payload, 1) : undefined))
    return sent
  }

  private send(payload: Record<string, unknown>, acceptsResponsePayload: boolean, type: 'interactive' | 'events_api', attempt: number): Promise<Record<string, unknown>> {
    const live = this.open.filter((ws) => ws.readyState === WebSocket.OPEN)
    if (live.length === 0) return Promise.reject(new SandboxError('NO_RECEIVER', 'no app is connected over Socket Mode, so this was not sent to any app: start the app (or wait for it to reconnect) and try again'))
    const ws = live[this.turn++ % live.length]!
    const envelopeId = this.options.ids.opaque()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelopeId)
        reject(new SandboxError('NOT_ACKNOWLEDGED', `the app did not acknowledge ${describe(payload)} within ${TIMING.ackDeadlineMs} ms`))
      }, TIMING.ackDeadlineMs)
      this.pending.set(envelopeId, { resolve, reject, timer })
      const retry = { retry_attempt: attempt, retry_reason: attempt === 0 ? '' : 'timeout' }
      const envelope = type === 'events_api' ? { envelope_id: envelopeId, payload, type, accepts_response_payload: false, ...retry } : { envelope_id: envelopeId, payload, type, accepts_response_payload: acceptsResponsePayload }
      ws.send(JSON.stringify(envelope))
    })
  }

  /** The `attempt`th retry of an unacknowledged event, after its delay; the last unacknowledged one is dropped. */
  private retryEvent(payload: Record<string, unknown>, attempt: number): void {
    const delay = TIMING.eventRetryDelaysMs[attempt - 1]
    if (delay === undefined) return
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.send(payload, false, 'events_api', attempt).catch((error: unknown) => {
        if (error instanceof SandboxError && (error.code === 'NOT_ACKNOWLEDGED' || error.code === 'NO_RECEIVER')) this.retryEvent(payload, attempt + 1)
      })
    }, delay)
    this.timers.add(timer)
  }

  /** Asks every connection to reconnect, as Slack does before it recycles a link. */
  disconnectAll(reason: DisconnectReason): void {
    for (const ws of [...this.open]) {
      ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'sandbox-applink' } }))
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        ws.terminate()
      }, this.options.disconnectGraceMs)
      this.timers.add(timer)
      ws.once('close', () => {
        clearTimeout(timer)
        this.timers.delete(timer)
      })
    }
  }

  /** Closes every connection with a close handshake (clients that are stopping get to finish theirs), then drops stragglers. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer)
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer)
      pending.reject(new SandboxError('CLOSED', 'the stand-in closed before the app acknowledged'))
    }
    this.pending.clear()
    await Promise.all(
      [...this.open].map(
        (ws) =>
          new Promise<void>((resolve) => {
            const drop = setTimeout(() => ws.terminate(), this.options.disconnectGraceMs)
            ws.once('close', () => {
              clearTimeout(drop)
              resolve()
            })
            if (ws.readyState === WebSocket.OPEN) ws.close(1001, 'going away')
          }),
      ),
    )
    this.wss.close()
  }
}
