import type { SlackBridge } from '../bridge/types.js'
import type { StoreKind } from '../store/ask-store.js'

/** `GET /healthz` (ARCHITECTURE.md, fixed), plus why when it is not ok. */
export interface HealthResponse {
  ok: boolean
  slack: 'connected' | 'local' | 'disconnected'
  store: StoreKind
  /** The operator's policy in force: a short hash of what it says (it changes when a reload takes). */
  policy?: string
  /** Set when `ok` is false: what a load balancer's operator reads. */
  problem?: string
}

/**
 * Healthy when Slack is connected, the store answers and the service is
 * not draining. A load balancer takes a 503 instance out of rotation: a
 * draining one (SIGTERM) as soon as it starts to stop, one whose
 * PostgreSQL is unreachable until it answers again.
 */
export async function healthOf(bridge: SlackBridge, options: { local: boolean; draining: boolean; policy?: string }): Promise<{ status: 200 | 503; body: HealthResponse }> {
  const storeUp = await bridge.store.ping()
  const connected = bridge.health() === 'connected'
  const body: HealthResponse = { ok: connected && storeUp && !options.draining, slack: connected ? (options.local ? 'local' : 'connected') : 'disconnected', store: bridge.store.kind }
  if (options.policy !== undefined) body.policy = options.policy
  if (body.ok) return { status: 200, body }
  body.problem = options.draining ? 'stopping: taking no new asks' : !storeUp ? `the ${bridge.store.kind} store does not answer` : 'not connected to Slack'
  return { status: 503, body }
}
