/**
 * Keeps other web sites out of the stand-in's Web API, its file URLs and its
 * Socket Mode endpoint, as web/http.ts does for the page. The stand-in
 * listens on 127.0.0.1 only, but a page in the operator's browser can still
 * reach it: its tokens are fixed and public (`xoxb-sandbox-…`), so a
 * cross-site `GET /api/chat.postMessage?token=…` or a DNS name rebound to
 * 127.0.0.1 would post as the bot. Slack clients (the SDK, Bolt's socket)
 * send neither an Origin nor a foreign Host; browsers always mark a
 * cross-site request with one or the other.
 */
import type { IncomingMessage } from 'node:http'

/** Why the request is refused (`bad_host`, `bad_origin`), or null when it may proceed. */
export function foreignRequest(req: IncomingMessage): { error: 'bad_host' | 'bad_origin'; message: string } | null {
  const port = req.socket.localPort
  const host = (req.headers.host ?? '').toLowerCase()
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { error: 'bad_host', message: `the stand-in answers only on 127.0.0.1:${port} (Host was ${JSON.stringify(host)})` }
  }
  const site = req.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return { error: 'bad_origin', message: `cross-site requests are not accepted (Sec-Fetch-Site: ${site})` }
  const origin = req.headers.origin
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) return { error: 'bad_origin', message: `requests from ${origin} are not accepted` }
  return null
}
