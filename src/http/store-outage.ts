import type { AskStore } from '../store/ask-store.js'
import { isStoreUnavailable } from '../store/store-unavailable.js'
import { TIMING } from '../slack/timing.js'

/**
 * Whether a request failed because the state store is unreachable, and the
 * sentence the client reads if so. An error that says so outright (a refused
 * or broken connection) decides it; any other failure is checked with a
 * ping (bounded: a frozen database must not hold the answer), because a
 * driver does not always name the network in what it throws.
 */
export async function storeOutage(store: AskStore, error: unknown): Promise<string | undefined> {
  const what = `the service cannot reach its ${store.kind} state store right now; ask again after Retry-After (a POST repeated with the same Idempotency-Key is never posted twice)`
  if (isStoreUnavailable(error)) return what
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), TIMING.storePingTimeoutMs)))
  const up = await Promise.race([store.ping().catch(() => false), timedOut]).finally(() => clearTimeout(timer))
  return up ? undefined : what
}
