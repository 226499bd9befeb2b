/**
 * The parent's side of an app child (app-child.ts): starts one against a
 * stand-in and speaks its IPC (`measure`, `report`, `stop`).
 */
import { fork } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Sandbox } from '../../src/sandbox/index.js'
import type { ChildCommand, ChildKind, ChildReport, ChildWaiting, MeasureExtras } from './app-child.js'

type ChildMessage = { type: 'ready'; url: string } | ChildReport

/** A running app child: where it takes asks, and its own CPU and event-loop figures between `measure` and `report`. */
export interface AppProcess {
  url: string
  /** Starts the figures; with `profile`, a CPU profile of the same span is written to `profile.file` by `report`; with `footprint`, the code run is counted. */
  measure(extras?: MeasureExtras): void
  report(): Promise<ChildReport>
  /** Resolves once the app has a long-poll for ask `id` in hand (the child tells, see app-child.ts). */
  whenWaiting(id: string): Promise<void>
  stop(): Promise<void>
}

/** Another build's app child: its `app-child.js` (same IPC), and what to call it in errors. */
export interface OtherBuild {
  childFile: string
  name: string
}

/**
 * Starts an app in a child process against the stand-in; with `logFile`,
 * its stderr (a service's log) goes there; with `from`, the child is
 * another build's (`--base`).
 */
export async function startApp(kind: ChildKind, slack: Sandbox, extraEnv: Record<string, string> = {}, logFile?: string, from?: OtherBuild): Promise<AppProcess> {
  const log = logFile ? openSync(logFile, 'a') : 'inherit'
  const name = from?.name ?? kind
  const child = fork(from?.childFile ?? fileURLToPath(new URL('./app-child.js', import.meta.url)), [kind], {
    env: { ...process.env, BENCH_BOT_TOKEN: slack.botToken, BENCH_APP_TOKEN: slack.appToken, BENCH_API_URL: slack.apiUrl, BENCH_CHANNEL: slack.defaultChannel, ...extraEnv },
    stdio: ['ignore', 'inherit', log, 'ipc'],
  })
  if (typeof log === 'number') closeSync(log)
  const send = (command: ChildCommand) => child.send(command)
  const inbox: ChildMessage[] = []
  const waiters: { resolve: (message: ChildMessage) => void; reject: (error: Error) => void }[] = []
  let exited: Error | undefined
  const longPolls = longPollsOf(name)
  child.on('message', (message: ChildMessage | ChildWaiting) => {
    if (message.type === 'waiting') return longPolls.arrived(message.id)
    const waiter = waiters.shift()
    if (waiter) waiter.resolve(message)
    else inbox.push(message)
  })
  // A child that dies would otherwise leave the bench waiting for its answer for ever.
  child.once('exit', (code, signal) => {
    exited = new Error(`the ${name} app exited (${signal ?? `code ${code}`})${logFile ? `; its log: ${logFile}` : ''}`)
    for (const waiter of waiters.splice(0)) waiter.reject(exited)
    longPolls.fail(exited)
  })
  const next = () =>
    new Promise<ChildMessage>((resolve, reject) => {
      if (inbox.length > 0) resolve(inbox.shift()!)
      else if (exited) reject(exited)
      else waiters.push({ resolve, reject })
    })
  const ready = (await next()) as Extract<ChildMessage, { type: 'ready' }>
  return {
    url: ready.url,
    whenWaiting: (id) => longPolls.when(id),
    measure: (extras) => send({ type: 'measure', ...extras }),
    report: async () => {
      send({ type: 'report' })
      return (await next()) as ChildReport
    },
    stop: async () => {
      if (exited) return
      const gone = new Promise((resolve) => child.once('exit', resolve))
      send({ type: 'stop' })
      await gone
    },
  }
}

/** The long-polls a child has announced, each awaited once by the round trip that made it. */
function longPollsOf(name: string) {
  const arrived = new Set<string>()
  const waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>()
  let failed: Error | undefined
  return {
    arrived(id: string): void {
      const waiter = waiting.get(id)
      waiting.delete(id)
      if (waiter) waiter.resolve()
      else arrived.add(id)
    },
    when(id: string): Promise<void> {
      if (arrived.delete(id)) return Promise.resolve()
      if (failed) return Promise.reject(failed)
      if (waiting.has(id)) return Promise.reject(new Error(`the ${name} app's long-poll for ${id} is awaited twice`))
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }))
    },
    fail(error: Error): void {
      failed = error
      for (const waiter of waiting.values()) waiter.reject(error)
      waiting.clear()
    },
  }
}
