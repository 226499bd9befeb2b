import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { ApiError } from './api-error.js'

/**
 * Who may knock: the checks every request to the HTTP server passes before
 * any route sees it, so a route added later is covered without thinking
 * about it.
 *
 * Why: with no API key (the default on loopback) the server trusts whoever
 * can reach it, and a web page the operator visits can reach it through the
 * browser. A cross-site `fetch(…, { mode: 'no-cors' })` may POST a
 * `text/plain` body without any preflight, and a DNS name rebound to
 * 127.0.0.1 makes the browser treat our answers as the attacker's own
 * origin. Three checks close that:
 * - `Host` must name this server (a rebound name carries the attacker's);
 * - a browser's `Origin` / `Sec-Fetch-Site` must say the request comes from
 *   this server's own origin (no page of ours calls the API, so in practice:
 *   no browser-initiated cross-site request at all);
 * - a body must carry a content type a cross-site form or no-cors fetch
 *   cannot send (`application/json`; Slack's two types on `/slack/events`).
 */
export interface FrontDoor {
  /** True when this `Host` header names us. */
  hostAllowed(host: string): boolean
}

export interface FrontDoorOptions {
  /** The address the server is bound to (`HOST`). */
  bindHost: string
  /** `DSH_SLACK_ALLOWED_HOSTS`: extra names (`name`, `name:port`, `.suffix`), or `*` for any. */
  allowedHosts?: readonly string[]
}

/** The content types a body may have, by path; everything else sends JSON. */
const SLACK_EVENTS_TYPES = ['application/json', 'application/x-www-form-urlencoded']

/**
 * Host names we always answer to: loopback names, the bound address and any
 * IP literal. An IP literal cannot be a rebinding attack (that needs a DNS
 * name the attacker controls), and a browser page on another IP origin is
 * stopped by the Origin check; this keeps `HOST=0.0.0.0` reachable by
 * address without listing every interface.
 */
export function createFrontDoor(options: FrontDoorOptions): FrontDoor {
  const entries = (options.allowedHosts ?? []).map((entry) => entry.trim().toLowerCase()).filter((entry) => entry !== '')
  const anyHost = entries.includes('*')
  const bound = bareHostname(options.bindHost.toLowerCase())
  return {
    hostAllowed(host) {
      if (anyHost) return true
      const authority = host.trim().toLowerCase()
      const name = hostnameOf(authority)
      if (name === null) return false
      if (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || name === bound) return true
      return entries.some((entry) => (entry.startsWith('.') ? name.endsWith(entry) || name === entry.slice(1) : entry === name || entry === authority))
    },
  }
}

/**
 * Refuses a request that fails the front door's checks with the `ApiError`
 * to answer; returns normally otherwise. `path` picks the body types.
 */
export function checkFrontDoor(door: FrontDoor, req: IncomingMessage, path: string): void {
  const host = req.headers.host
  if (host === undefined || !door.hostAllowed(host)) {
    throw new ApiError(
      403,
      'BAD_HOST',
      host === undefined
        ? 'the request has no Host header'
        : `this server does not answer to Host ${JSON.stringify(host)}; if it is the name of your proxy or load balancer, add it to DSH_SLACK_ALLOWED_HOSTS`,
    )
  }
  checkOrigin(req, host)
  checkBodyType(req, path)
}

function checkOrigin(req: IncomingMessage, host: string): void {
  // Browsers send Sec-Fetch-Site on every request (even no-cors GETs, which
  // carry no Origin); 'none' is the user typing the URL, which is fine.
  const site = req.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new ApiError(403, 'BAD_ORIGIN', `requests from other web sites are not accepted (Sec-Fetch-Site: ${site}); call the API from a program, not a web page`)
  }
  const origin = req.headers.origin
  if (origin === undefined) return
  if (originAuthority(origin) !== host.trim().toLowerCase()) {
    throw new ApiError(403, 'BAD_ORIGIN', `requests from ${JSON.stringify(origin)} are not accepted; call the API from a program, not a web page`)
  }
}

function checkBodyType(req: IncomingMessage, path: string): void {
  // Only a request that carries a body: a bodiless POST or PUT does nothing
  // harmful and gets its own clearer answer (an empty body, a wrong method).
  const length = req.headers['content-length']
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0')
  if (!hasBody) return
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  const accepted = path === '/slack/events' ? SLACK_EVENTS_TYPES : ['application/json']
  if (!accepted.includes(type)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `send the body as ${accepted.join(' or ')}${type === '' ? ' (the request has no Content-Type)' : ` (not ${type})`}`, {
      'accept-post': accepted.join(', '),
    })
  }
}

/** `example.com:3000` → `example.com`; `[::1]:3000` → `::1`; null when malformed. */
function hostnameOf(authority: string): string | null {
  // Only a plain authority: URL parsing alone would read `127.0.0.1@evil` as evil.
  if (!/^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(authority)) return null
  try {
    return bareHostname(new URL(`http://${authority}/`).hostname)
  } catch {
    return null
  }
}

function bareHostname(host: string): string {
  return host.replace(/^\[|\]$/g, '')
}

/** An Origin's `host[:port]` as a Host header would carry it, or null (`null`, malformed). */
function originAuthority(origin: string): string | null {
  try {
    const url = new URL(origin)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : null
  } catch {
    return null
  }
}
