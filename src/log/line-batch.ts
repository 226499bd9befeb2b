/** How long an info or debug line may wait to be written with the next ones. */
export const LOG_BATCH_MS = 25

/** A batch this long is written at once, whatever its age. */
export const LOG_BATCH_CHARS = 8_192

export interface LineBatchOptions {
  /** Writes the text of one or more whole lines, synchronously. */
  write: (text: string) => void
  batchMs?: number
  batchChars?: number
  /** Where the last lines go at exit (default: process's `exit` event); returns the unsubscribe. */
  onExit?: (flush: () => void) => () => void
}

/**
 * Log lines written a few together rather than one write each: a service
 * writes two info lines per ask (posted, answered), each a system call
 * that also wakes whoever reads the log, on the event loop an agent and a
 * person wait on. Info and debug lines wait at most `batchMs`; a warning
 * or an error is written at once, after the lines before it, so the order
 * of the log never changes. What is waiting is written when the process
 * exits (a `process.exit`, a signal handled, a crash); only a SIGKILL can
 * lose it, at most `batchMs` of info lines. Decision 0103.
 */
export class LineBatch {
  readonly #write: (text: string) => void
  readonly #batchMs: number
  readonly #batchChars: number
  #lines: string[] = []
  #chars = 0
  #timer: NodeJS.Timeout | undefined
  readonly #unsubscribe: () => void

  constructor(options: LineBatchOptions) {
    this.#write = options.write
    this.#batchMs = options.batchMs ?? LOG_BATCH_MS
    this.#batchChars = options.batchChars ?? LOG_BATCH_CHARS
    this.#unsubscribe = (options.onExit ?? onProcessExit)(() => this.flush())
  }

  /** A line that may wait (info, debug). */
  later(line: string): void {
    this.#lines.push(line)
    this.#chars += line.length
    if (this.#chars >= this.#batchChars) this.flush()
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#batchMs)
      this.#timer.unref()
    }
  }

  /** A line written now (warn, error), after whatever waits. */
  now(line: string): void {
    this.#lines.push(line)
    this.flush()
  }

  /** Writes what waits, in order. */
  flush(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#lines.length === 0) return
    const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('')
    this.#lines = []
    this.#chars = 0
    this.#write(text)
  }

  /** Writes what waits and stops listening for the exit (tests; a logger replaced). */
  close(): void {
    this.flush()
    this.#unsubscribe()
  }
}

function onProcessExit(flush: () => void): () => void {
  process.on('exit', flush)
  return () => process.off('exit', flush)
}
