/**
 * What answers where the service would listen, so `doctor` says "listens"
 * only when a dsh-slack service does: its `GET /healthz` (no key needed)
 * answers `{ ok, slack, store }`.
 */
export type ApiProbe = 'dsh-slack' | 'another program' | 'nothing'

const PROBE_TIMEOUT_MS = 1500

/** Probes `host:port`; a wildcard address (0.0.0.0, ::) is probed on loopback, where it also listens. */
export async function probeApi(host: string, port: number): Promise<ApiProbe> {
  const bare = host.replace(/^\[|\]$/g, '')
  const target = bare === '0.0.0.0' || bare === '::' || bare === '' ? '127.0.0.1' : bare.includes(':') ? `[${bare}]` : bare
  try {
    const res = await fetch(`http://${target}:${port}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'manual' })
    const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined
    return body !== undefined && typeof body.ok === 'boolean' && typeof body.store === 'string' && 'slack' in body ? 'dsh-slack' : 'another program'
  } catch (error) {
    // Refused: nothing there. A timeout means something holds the port without answering HTTP.
    return (error as Error).name === 'TimeoutError' ? 'another program' : 'nothing'
  }
}
