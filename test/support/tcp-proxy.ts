import { createServer, connect, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy a test owns, in front of PostgreSQL, the stand-in or a
 * service: the test cuts it to make that server unreachable (refused
 * connections, broken ones) without touching the server itself, which
 * other suites share.
 */
export interface TcpProxy {
  readonly port: number
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string
  /** Refuses new connections and breaks the open ones: the server looks down. */
  cut(): Promise<void>
  /** Listens again on the same port: the server is back. */
  restore(): Promise<void>
  /** Breaks every open connection; new ones still go through (a server restart as a client sees it). */
  resetConnections(): void
  /**
   * The next connection's first bytes back from the server are dropped and
   * the connection broken instead: the request reached the server and was
   * handled, and the client never hears the answer.
   */
  breakNextAnswer(): void
  /** Sends new connections to another server from now on (a load balancer taking a dead instance out). */
  retarget(to: { host: string; port: number }): void
  /** Connections made through the proxy so far. */
  readonly connections: number
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let to = target
  const open = new Set<Socket>()
  let breakNext = false
  let connections = 0
  let port = 0
  const onConnection = (client: Socket) => {
    connections++
    const upstream = connect(to.port, to.host)
    open.add(client).add(upstream)
    const breakThis = breakNext
    breakNext = false
    const drop = () => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    client.pipe(upstream)
    if (breakThis) upstream.once('data', drop)
    else upstream.pipe(client)
  }
  let server: Server = createServer(onConnection)
  const listen = (on: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(on, '127.0.0.1', () => {
        server.off('error', reject)
        port = (server.address() as { port: number }).port
        resolve()
      })
    })
  await listen(0)
  const resetConnections = () => {
    for (const socket of open) socket.destroy()
    open.clear()
  }
  const closeServer = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))
  return {
    get port() {
      return port
    },
    get connections() {
      return connections
    },
    through(url: string) {
      const parsed = new URL(url)
      parsed.hostname = '127.0.0.1'
      parsed.port = String(port)
      return parsed.toString()
    },
    async cut() {
      const closing = closeServer()
      resetConnections()
      await closing
    },
    async restore() {
      if (server.listening) return
      server = createServer(onConnection)
      await listen(port)
    },
    resetConnections,
    retarget(next) {
      to = next
    },
    breakNextAnswer() {
      breakNext = true
    },
    async close() {
      const closing = closeServer()
      resetConnections()
      await closing
    },
  }
}
