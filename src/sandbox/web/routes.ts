/**
 * The stand-in's web page and its endpoints, on the stand-in's own port:
 *
 * - `GET /` the page; `GET /web/app.js`, `/web/app.css`, `/web/icon.svg` its parts
 * - `GET /archives/C…/p…` a message's permalink (what `chat.getPermalink`
 *   gives): the page, opened at that message (its thread with `thread_ts`)
 * - `GET /web/state?user=U…&channel=C…` what that user sees (`PageSnapshot`)
 * - `GET /web/events` Server-Sent Events, one per workspace change
 * - `POST /web/act` a click, pick, tick, fill, submit or close (`WebAction`)
 * - `POST /web/sample` `{ kind }`: sends a sample ask through the `samples` hook
 *
 * Errors are `{ error: { code, message } }`: 400 for a body that is not JSON
 * or not a valid action, 422 for what the user cannot do (no such button, a
 * required input left empty), 502 when a sample could not be sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod'

import type { SandboxCore } from '../core.js'
import { SandboxError } from '../errors.js'
import type { SandboxSamples } from '../options.js'
import type { ScriptedUser } from '../scripted-user.js'
import { performAction, userId, webAction } from './act.js'
import { ChangeStream } from './events.js'
import { checkHost, checkPost, readJson, send, sendError, sendJson, WebRequestError } from './http.js'
import { PAGE_CSS } from './page-css.js'
import { PAGE_HTML, PAGE_ICON } from './page-html.js'
import { PAGE_SCRIPT_PATH, readPageScript } from './page-script.js'
import { pageSnapshot } from './snapshot.js'

export interface WebPageDeps {
  core: SandboxCore
  /** The scripted user acting for the page (added to the workspace if unknown). */
  user(id: string): ScriptedUser
  samples?: SandboxSamples
  port(): number
}

export interface WebPage {
  /** Answers the request when it is the page's; `false` leaves it to the Web API routes. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>
  close(): void
}

/** A permalink's path, as `chat.getPermalink` builds it (src/sandbox/methods/chat.ts). */
const PERMALINK = /^\/archives\/[CGD][A-Z0-9]{1,30}\/p\d{7,20}$/

const sampleBody = z.object({ kind: z.string().min(1).max(100) })

function describeZod(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (!result.success) throw new WebRequestError(400, 'BAD_REQUEST', describeZod(result.error))
  return result.data
}

/** The first person in the workspace (alice by default): whom the page acts as until told otherwise. */
function defaultUser(core: SandboxCore): string {
  return [...core.workspace.users.values()].find((u) => !u.isBot)?.id ?? 'U0SANDBOX01'
}

export function createWebPage(deps: WebPageDeps): WebPage {
  const { core, samples } = deps
  const stream = new ChangeStream(core.workspace)

  async function route(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    checkHost(req, deps.port())
    const get = req.method === 'GET' || req.method === 'HEAD'
    // A permalink is the page; its script reads the path and opens the channel at the message.
    if (get && (path === '/' || path === '/index.html' || PERMALINK.test(path))) return send(res, 200, 'text/html; charset=utf-8', PAGE_HTML)
    if (get && path === '/web/app.js') {
      const script = await readPageScript()
      if (script !== null) return send(res, 200, 'text/javascript; charset=utf-8', script)
      // The page then shows nothing at all: say why where a person looking into it will see it.
      return send(res, 503, 'text/javascript; charset=utf-8', `console.error(${JSON.stringify(`dsh-slack: the page's script is not built (${PAGE_SCRIPT_PATH}): run npm run build`)})\n`)
    }
    if (get && path === '/web/app.css') return send(res, 200, 'text/css; charset=utf-8', PAGE_CSS)
    if (get && path === '/web/icon.svg') return send(res, 200, 'image/svg+xml', PAGE_ICON)
    if (get && path === '/web/events') return stream.attach(res)
    if (get && path === '/web/state') {
      const id = parse(userId, url.searchParams.get('user') ?? defaultUser(core))
      deps.user(id)
      return sendJson(res, 200, pageSnapshot(core, id, url.searchParams.get('channel') ?? undefined, samples?.kinds ?? []))
    }
    if (req.method === 'POST' && path === '/web/act') {
      checkPost(req)
      const action = parse(webAction, await readJson(req))
      return sendJson(res, 200, await performAction(core, deps.user(action.user), action))
    }
    if (req.method === 'POST' && path === '/web/sample') {
      checkPost(req)
      const { kind } = parse(sampleBody, await readJson(req))
      if (!samples) throw new WebRequestError(404, 'NO_SAMPLES', 'this stand-in was started without sample asks (dsh-slack serve offers them)')
      if (!samples.kinds.includes(kind)) throw new WebRequestError(400, 'BAD_REQUEST', `unknown sample ${JSON.stringify(kind)}; try ${samples.kinds.join(', ')}`)
      try {
        await samples.send(kind)
      } catch (error) {
        throw new WebRequestError(502, 'SAMPLE_FAILED', `the sample was not sent: ${(error as Error).message}`)
      }
      return sendJson(res, 200, { ok: true })
    }
    throw new WebRequestError(404, 'BAD_REQUEST', `no page route ${req.method ?? ''} ${path}`)
  }

  return {
    async handle(req, res, url) {
      const path = url.pathname
      if (path !== '/' && path !== '/index.html' && !PERMALINK.test(path) && !path.startsWith('/web/')) return false
      try {
        await route(req, res, path, url)
      } catch (error) {
        if (res.headersSent) res.end()
        else if (error instanceof WebRequestError) sendError(res, error.status, error.code, error.message)
        else if (error instanceof SandboxError) sendError(res, 422, error.code, error.message)
        else sendError(res, 500, 'INTERNAL', (error as Error).message)
      }
      return true
    },
    close: () => stream.close(),
  }
}
