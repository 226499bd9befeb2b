/**
 * The page's live feed: Server-Sent Events, one `change` event per workspace
 * change, carrying only its type (the page then fetches what it shows, so no
 * message content leaves through a stream that cannot tell users apart).
 * One workspace listener serves every open page: a listener per page would
 * trip Node's max-listeners warning with a few tabs and a test's waits.
 */
import type { ServerResponse } from 'node:http'

import type { WorkspaceChange } from '../model.js'
import type { Workspace } from '../workspace.js'
import { SECURITY_HEADERS } from './http.js'

/** Browser's EventSource: how long to wait before reconnecting after the stream drops. */
const RECONNECT_MS = 1000

export class ChangeStream {
  private readonly clients = new Set<ServerResponse>()
  private readonly onChange = (change: WorkspaceChange): void => {
    const line = `event: change\ndata: ${JSON.stringify({ type: change.type })}\n\n`
    for (const res of this.clients) res.write(line)
  }

  constructor(private readonly workspace: Workspace) {
    workspace.on('change', this.onChange)
  }

  /** Holds `res` open as an event stream until the browser goes away. */
  attach(res: ServerResponse): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' })
    res.write(`retry: ${RECONNECT_MS}\nevent: hello\ndata: {}\n\n`)
    this.clients.add(res)
    res.on('close', () => this.clients.delete(res))
  }

  get size(): number {
    return this.clients.size
  }

  close(): void {
    this.workspace.off('change', this.onChange)
    for (const res of this.clients) res.end()
    this.clients.clear()
  }
}
