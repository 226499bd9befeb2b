import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/** How often the checkpoint thread copies committed WAL pages into each database file. */
export const WAL_CHECKPOINT_INTERVAL_MS = 1000

/**
 * How long after the first file is opened the thread starts: a short command
 * (`dsh-slack audit`) has closed its file by then and never pays for a thread.
 */
export const WAL_CHECKPOINT_START_AFTER_MS = 1000

/** SQLite's default automatic checkpoint (pages), given back to a file the thread cannot serve. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000

/** Where the compiled thread is; absent when running from TypeScript sources (tests), where SQLite checkpoints on commit. */
const THREAD_FILE = new URL('./wal-checkpoint-thread.js', import.meta.url)

export type CheckpointRequest = { kind: 'adopt'; id: number; path: string } | { kind: 'release'; id: number }
export type CheckpointReply = { kind: 'adopted' | 'released'; id: number } | { kind: 'failed'; id: number; reason: string }

/** Who copies a file's WAL into the database: the checkpoint thread, or SQLite inside commits on the event loop. */
export type CheckpointMode = 'thread' | 'commit'

/** A state file's main connection, as the checkpointer sees it. */
export interface CheckpointedFile {
  path: string
  /** Sets the main connection's automatic checkpoint, in pages (0: off). */
  setAutoCheckpoint(pages: number): void
  /** Says why the file went back to checkpointing on commit. */
  warn(message: string): void
}

/** One file's place with the checkpointer. */
export interface CheckpointTicket {
  readonly mode: CheckpointMode
  /**
   * Call before closing the main connection: the thread lets go of the file
   * first, so the main connection closes last, and closing last is what
   * folds the WAL into the database and deletes it.
   */
  release(): Promise<void>
}

export interface WalCheckpointerOptions {
  intervalMs?: number
  startAfterMs?: number
}

type Stage = 'waiting' | 'adopting' | 'thread' | 'commit'

interface Entry {
  file: CheckpointedFile
  stage: Stage
  /** Set while a release waits for the thread to let go. */
  released?: () => void
  releasing?: Promise<void>
}

/**
 * Takes SQLite's WAL checkpoints off the event loop. With the automatic
 * checkpoint, one commit in every few hundred (every 1,000 WAL pages) copies
 * the pages into the database and syncs it, stalling everything on the
 * event loop for 7–11 ms (measured on the store's schema). Here each file's
 * main connection has the automatic checkpoint off, and one thread per
 * process checkpoints every file on a connection of its own, which SQLite's
 * WAL mode runs beside the main connection's reads and commits.
 *
 * Whenever the thread cannot do it (it is missing, fails to start, dies, or
 * fails on one file), the file's main connection gets its automatic
 * checkpoint back: a WAL with nobody checkpointing would grow without bound.
 * Several processes on one file each checkpoint it; SQLite lets one at a time.
 */
export class WalCheckpointer {
  readonly #intervalMs: number
  readonly #startAfterMs: number
  readonly #entries = new Map<number, Entry>()
  #usable = existsSync(fileURLToPath(THREAD_FILE))
  #worker: Worker | undefined
  #startTimer: NodeJS.Timeout | undefined
  #stopping = false
  #nextId = 0

  constructor(options: WalCheckpointerOptions = {}) {
    this.#intervalMs = options.intervalMs ?? WAL_CHECKPOINT_INTERVAL_MS
    this.#startAfterMs = options.startAfterMs ?? WAL_CHECKPOINT_START_AFTER_MS
  }

  /** Whether the thread is running (for tests and leak checks). */
  get running(): boolean {
    return this.#worker !== undefined
  }

  /** Takes a file on: the thread checkpoints it once started and the file is open there; until then, SQLite does on commit. */
  adopt(file: CheckpointedFile): CheckpointTicket {
    const id = this.#nextId++
    const entry: Entry = { file, stage: 'commit' }
    if (this.#usable) {
      entry.stage = 'waiting'
      this.#entries.set(id, entry)
      if (this.#worker) this.#send(id, entry)
      else this.#startTimer ??= setTimeout(() => this.#start(), this.#startAfterMs).unref()
    }
    return {
      get mode() {
        return entry.stage === 'thread' ? 'thread' : 'commit'
      },
      release: () => this.#release(id, entry),
    }
  }

  /** Stops the thread; every file it served goes back to checkpointing on commit. */
  async stop(): Promise<void> {
    this.#stopping = true
    this.#usable = false
    clearTimeout(this.#startTimer)
    const worker = this.#worker
    if (worker) await worker.terminate()
  }

  #start(): void {
    this.#startTimer = undefined
    if (!this.#usable || this.#worker || this.#entries.size === 0) return
    let worker: Worker
    try {
      worker = new Worker(THREAD_FILE, { workerData: { intervalMs: this.#intervalMs } })
    } catch (error) {
      // No thread (out of resources, say): the files never left SQLite's checkpoint on commit.
      this.#abandon(`the WAL checkpoint thread did not start (${error instanceof Error ? error.message : String(error)})`)
      return
    }
    worker.unref()
    worker.on('message', (reply: CheckpointReply) => this.#onReply(reply))
    worker.on('error', (error) => this.#onGone(`the WAL checkpoint thread failed (${error.message})`))
    worker.on('exit', (code) => this.#onGone(`the WAL checkpoint thread stopped (exit code ${code})`))
    this.#worker = worker
    for (const [id, entry] of this.#entries) this.#send(id, entry)
  }

  #send(id: number, entry: Entry): void {
    entry.stage = 'adopting'
    this.#post({ kind: 'adopt', id, path: entry.file.path })
  }

  #post(request: CheckpointRequest): void {
    this.#worker?.postMessage(request)
  }

  #onReply(reply: CheckpointReply): void {
    const entry = this.#entries.get(reply.id)
    if (!entry) return
    if (reply.kind === 'adopted') {
      if (entry.stage !== 'adopting') return
      entry.stage = 'thread'
      entry.file.setAutoCheckpoint(0)
    } else if (reply.kind === 'failed') {
      this.#backToCommit(entry, `the WAL checkpoint thread cannot checkpoint ${entry.file.path} (${reply.reason}); SQLite checkpoints it on commit from now on`)
    } else {
      this.#entries.delete(reply.id)
      entry.released?.()
      this.#holdOpenWhileReleasing()
    }
  }

  /** The thread is gone: every file it served or was about to serve is checkpointed on commit again. */
  #onGone(why: string): void {
    if (!this.#worker) return
    this.#worker = undefined
    this.#abandon(this.#stopping ? undefined : why)
  }

  /** No thread from now on: every file goes back to SQLite's checkpoint on commit, and every release waiting is over. */
  #abandon(why: string | undefined): void {
    this.#usable = false
    for (const [id, entry] of this.#entries) {
      this.#entries.delete(id)
      this.#backToCommit(entry, why === undefined ? undefined : `${why}; SQLite checkpoints ${entry.file.path} on commit from now on`)
      entry.released?.()
    }
  }

  /** A file already back on commit (failed before, or being released) is left as it is. */
  #backToCommit(entry: Entry, warning: string | undefined): void {
    if (entry.stage === 'commit') return
    if (entry.stage === 'thread') entry.file.setAutoCheckpoint(SQLITE_AUTOCHECKPOINT_PAGES)
    entry.stage = 'commit'
    if (warning) entry.file.warn(warning)
  }

  #release(id: number, entry: Entry): Promise<void> {
    if (entry.releasing) return entry.releasing
    if (!this.#entries.has(id)) return Promise.resolve()
    if (entry.stage === 'waiting' || entry.stage === 'commit' || !this.#worker) {
      this.#entries.delete(id)
      return Promise.resolve()
    }
    // Checkpointed on commit from here on, like any file the thread does not hold.
    this.#backToCommit(entry, undefined)
    entry.releasing = new Promise<void>((resolve) => {
      entry.released = resolve
      this.#holdOpenWhileReleasing()
      this.#post({ kind: 'release', id })
    })
    return entry.releasing
  }

  /** A process must not exit while a close waits for the thread's answer; otherwise the thread never keeps it alive. */
  #holdOpenWhileReleasing(): void {
    const waiting = [...this.#entries.values()].some((entry) => entry.released !== undefined)
    if (waiting) this.#worker?.ref()
    else this.#worker?.unref()
  }
}

let shared: WalCheckpointer | undefined

/** The process's checkpointer: one thread for every state file the process opens. */
export function sharedWalCheckpointer(): WalCheckpointer {
  return (shared ??= new WalCheckpointer())
}
