import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import WebSocket from 'ws'
import { freshDshHome, removeQuietly, type RealHarness } from './real-harness.js'
import type { ScriptedModel } from './scripted-model.js'

/**
 * A real harness web host (`dsh web`) for a test: the built harness under its
 * Node 22, its own `DSH_HOME` and port, the offline overlay, the scripted
 * model, and optionally an access secret. Its output is kept for the
 * failure message; `session.create`, `session.prompt` and `/plan` go through
 * its own HTTP API, as its web UI sends them.
 */
export interface DshWeb {
  /** `http://127.0.0.1:<port>`: what `DSH_HOST_URL` names. */
  readonly url: string
  readonly port: number
  readonly accessSecret: string | undefined
  /** Everything the host printed so far (stdout and stderr). */
  logs(): string
  /** `POST /api/<method>` as a web client sends it; resolves with the result's value, throws on an error result. */
  call<T = unknown>(method: string, payload: unknown): Promise<T>
  /** A new session in a fresh working folder; returns its id. */
  createSession(): Promise<string>
  /** Queues a user message in the session (the turn runs on the host). */
  prompt(sessionId: string, text: string): Promise<void>
  /** `/plan`: the session's next step runs in plan mode. */
  planMode(sessionId: string): Promise<void>
  /** Answers a pending request as the web UI would (`POST /api/respond`); returns the receipt. */
  respond(body: unknown): Promise<{ accepted: boolean; reason?: string }>
  /**
   * Resolves with the next `server-request` of that method (`approval/requested`,
   * `question/requested`) the host sends on a fresh event stream of its own,
   * replays included: a test can tell a request is pending with no relay connected.
   */
  nextRequest(method: string, timeoutMs?: number): Promise<{ rpcId: string; payload: Record<string, unknown> }>
  /** SIGSTOP: the host keeps its sockets but answers nothing (a frozen process). */
  freeze(): void
  /** SIGCONT after `freeze`. */
  thaw(): void
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and starts it again on the same port and DSH_HOME. */
  restart(): Promise<void>
  /** Stops the process (without a restart), keeping DSH_HOME. */
  stop(): Promise<void>
  /** Stops it for good and removes its DSH_HOME. */
  close(): Promise<void>
}

export interface DshWebOptions {
  model: ScriptedModel
  /** `DSH_ACCESS_SECRET` (16+ characters): every request then needs the login cookie. */
  accessSecret?: string
  /** How long the host may take to print its address (the first boot compiles a little). */
  readyTimeoutMs?: number
  /** A folder put first on the host's PATH: stub programs, so the commands its tools run touch nothing real. */
  pathPrefix?: string
}

/** Starts `dsh web --no-open --port 0` and resolves once it printed its address. */
export async function startDshWeb(harness: RealHarness, options: DshWebOptions): Promise<DshWeb> {
  const home = freshDshHome()
  const workdir = freshDshHome()
  let output = ''
  let child: ChildProcess | undefined
  let port = 0
  let cookie: string | undefined

  const boot = async (): Promise<void> => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DSH_HOME: home,
      DEEPSEEK_BASE_URL: options.model.baseUrl,
      DEEPSEEK_API_KEY: 'scripted',
      PATH: `${options.pathPrefix !== undefined ? `${options.pathPrefix}:` : ''}${harness.pnpmDir}:${process.env.PATH ?? ''}`,
    }
    delete env.DSH_ACCESS_SECRET
    if (options.accessSecret !== undefined) env.DSH_ACCESS_SECRET = options.accessSecret
    const started = spawn(
      harness.node,
      [`${harness.root}/apps/cli/lib/bin.js`, '--profile', 'web', '--patch', harness.offlineOverlay, '--no-open', '--port', String(port)],
      { env, cwd: workdir, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child = started
    cookie = undefined
    const address = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dsh web did not print its address within ${options.readyTimeoutMs ?? 60_000} ms:\n${output.slice(-4000)}`)), options.readyTimeoutMs ?? 60_000)
      const onData = (data: Buffer) => {
        output += data.toString('utf8')
        const match = /dsh web: (http:\/\/\S+)/.exec(output.slice(-2000))
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      }
      started.stdout!.on('data', onData)
      started.stderr!.on('data', (data: Buffer) => void (output += data.toString('utf8')))
      started.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`dsh web exited (${code ?? signal}) before it was ready:\n${output.slice(-4000)}`))
      })
    })
    const url = await address
    port = Number(new URL(url).port)
  }

  const stopProcess = async (): Promise<void> => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()))
    running.kill('SIGCONT')
    running.kill('SIGTERM')
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }

  await boot()
  const base = () => `http://127.0.0.1:${port}`

  const login = async (): Promise<void> => {
    if (options.accessSecret === undefined || cookie !== undefined) return
    const response = await fetch(`${base()}/__dsh/access`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret: options.accessSecret }) })
    const set = response.headers.get('set-cookie') ?? ''
    const match = /dsh_access=([^;]+)/.exec(set)
    if (response.status !== 204 || !match) throw new Error(`login to dsh web failed: HTTP ${response.status}`)
    cookie = `dsh_access=${match[1]}`
  }

  const post = async (path: string, body: unknown): Promise<unknown> => {
    await login()
    const response = await fetch(`${base()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}: ${text.slice(0, 500)}`)
    return JSON.parse(text) as unknown
  }

  const call = async <T>(method: string, payload: unknown): Promise<T> => {
    const reply = (await post(`/api/${method}`, { type: 'client-request', rpcId: randomUUID(), method, payload })) as { result?: { ok: boolean; value?: unknown; error?: unknown } }
    if (!reply.result?.ok) throw new Error(`${method} failed: ${JSON.stringify(reply).slice(0, 500)}`)
    return reply.result.value as T
  }

  return {
    get url() {
      return base()
    },
    get port() {
      return port
    },
    accessSecret: options.accessSecret,
    logs: () => output,
    call,
    async createSession() {
      const value = await call<{ sessionId: string }>('session.create', { cwd: workdir })
      return value.sessionId
    },
    async prompt(sessionId, text) {
      await call('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
    },
    async planMode(sessionId) {
      // A prompt of "/plan" would reach the model as text: commands have their
      // own endpoint, whose method is spelt with a slash, its payload under `args`.
      const value = await call<{ result?: { kind?: string; text?: string } }>('commands/execute', { args: { agentId: sessionId, line: '/plan', images: [] } })
      if (value.result?.kind !== 'success') throw new Error(`/plan failed: ${JSON.stringify(value)}`)
    },
    async nextRequest(method, timeoutMs = 15_000) {
      await login()
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/events.mux`, { headers: cookie ? { cookie } : {} })
      try {
        return await new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no ${method} from dsh web within ${timeoutMs} ms`)), timeoutMs)
          socket.on('error', reject)
          socket.on('message', (data) => {
            const frame = JSON.parse(String(data)) as { rpcId: string; payload: Record<string, unknown> & { type: string } }
            if (frame.payload.type !== method) return
            clearTimeout(timer)
            resolve({ rpcId: frame.rpcId, payload: frame.payload })
          })
        })
      } finally {
        socket.terminate()
      }
    },
    async respond(body) {
      return (await post('/api/respond', body)) as { accepted: boolean; reason?: string }
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    async restart() {
      await stopProcess()
      await boot()
    },
    stop: stopProcess,
    async close() {
      await stopProcess()
      removeQuietly(home)
      removeQuietly(workdir)
    },
  }
}
