/**
 * Faults a test injects into the next calls of one Web API method: an error
 * code, a 429 with Retry-After, an HTTP 5xx, a delay before the call runs
 * normally, or a delay between running it and answering.
 */

export type Fault =
  /** Answer `{ ok: false, error }` (HTTP 200), as Slack does for refusals. */
  | { error: string }
  /** Answer HTTP 429 `ratelimited` with `Retry-After: retryAfter` seconds. */
  | { status: 429; retryAfter: number }
  /** Answer an HTTP 5xx with a non-JSON body, as a failing edge would. */
  | { status: 500 | 502 | 503 }
  /** Wait this long, then handle the call normally. */
  | { delayMs: number }
  /** Handle the call normally, then hold its answer this long: Slack has done it, the caller has not heard (a caller killed meanwhile never does). */
  | { answerAfterMs: number }

interface Armed {
  fault: Fault
  remaining: number
}

export class Faults {
  private readonly armed = new Map<string, Armed[]>()

  /** Arms `fault` for the next `times` (default 1) calls of `method` (e.g. `chat.postMessage`). */
  inject(method: string, fault: Fault, options: { times?: number } = {}): void {
    const list = this.armed.get(method) ?? []
    list.push({ fault, remaining: options.times ?? 1 })
    this.armed.set(method, list)
  }

  /** Disarms every fault (of one method, or all). */
  clear(method?: string): void {
    if (method === undefined) this.armed.clear()
    else this.armed.delete(method)
  }

  /** How many calls of `method` still meet an armed fault (a test waits for 0: the call has arrived). */
  armedFor(method: string): number {
    return (this.armed.get(method) ?? []).reduce((sum, entry) => sum + entry.remaining, 0)
  }

  /** The fault for this call of `method`, if one is armed (used up as it is taken). */
  take(method: string): Fault | undefined {
    const list = this.armed.get(method)
    const first = list?.[0]
    if (!list || !first) return undefined
    first.remaining -= 1
    if (first.remaining <= 0) list.shift()
    return first.fault
  }
}
