import type { SlackPort } from './slack-port.js'

/**
 * The port with every call it has started counted until it finishes, so a
 * stopping bridge (SIGTERM) can let a message update that is already on its
 * way reach Slack before the store closes under it.
 */
export function trackInFlight(port: SlackPort): { port: SlackPort; idle(): Promise<void> } {
  const running = new Set<Promise<unknown>>()
  const tracked = {} as Record<string, unknown>
  for (const [name, method] of Object.entries(port) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    tracked[name] = (...args: unknown[]) => {
      const call = method(...args)
      const settled = call.then(
        () => undefined,
        () => undefined,
      )
      running.add(settled)
      void settled.then(() => running.delete(settled))
      return call
    }
  }
  return {
    port: tracked as unknown as SlackPort,
    // Calls started while waiting (a retry, the next post) are waited for too.
    idle: async () => {
      while (running.size > 0) await Promise.all([...running])
    },
  }
}
