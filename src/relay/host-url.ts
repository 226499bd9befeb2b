/**
 * Where a harness web host is reached, derived once from `DSH_HOST_URL`.
 * The host may sit under a path (a reverse proxy), so URLs are built relative
 * to the configured base rather than from the origin.
 */
export interface HostEndpoints {
  /** The normalised base (`http://127.0.0.1:4000`, no trailing slash): names the host in logs and keys. */
  base: string
  /** The `Host` header to send: the URL's authority, which the host checks against its loopback list. */
  authority: string
  /** `ws://…/api/events.mux`. */
  events: string
  /** `ws://…/api/events.host`: the host's own stream (sessions added, removed, archived). */
  hostEvents: string
  /** `http://…/api/respond`. */
  respond: string
  /** `http://…/__dsh/access`. */
  access: string
  /** `http://…/api`: other calls are `POST <api>/<method>` (e.g. `session.history`). */
  api: string
  /** How a card names the host when the relay serves several: the base without its scheme (`127.0.0.1:4000`). */
  label: string
}

export function hostEndpoints(hostUrl: string): HostEndpoints {
  const url = new URL(hostUrl)
  url.search = ''
  url.hash = ''
  const path = url.pathname.replace(/\/+$/, '')
  const base = `${url.origin}${path}`
  const at = (relative: string) => `${base}/${relative}`
  return {
    base,
    authority: url.host,
    events: at('api/events.mux').replace(/^http/, 'ws'),
    hostEvents: at('api/events.host').replace(/^http/, 'ws'),
    respond: at('api/respond'),
    access: at('__dsh/access'),
    api: `${base}/api`,
    label: `${url.host}${path}`,
  }
}

/**
 * The ask store's key for a host's request. `#` ends the base, so one host's
 * prefix never matches another's (`…:4000#` vs `…:40001#`).
 */
export function externalKeyFor(base: string, rpcId: string): string {
  return `${base}#${rpcId}`
}

export function externalKeyPrefix(base: string): string {
  return `${base}#`
}

/** The rpcId in a key of this host, or `undefined` for another host's key. */
export function rpcIdFromExternalKey(base: string, key: string | undefined): string | undefined {
  const prefix = externalKeyPrefix(base)
  return key?.startsWith(prefix) ? key.slice(prefix.length) : undefined
}
