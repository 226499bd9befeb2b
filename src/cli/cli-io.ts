import type { Readable } from 'node:stream'

/** A process signal a command reacts to. */
export type StopSignal = 'SIGINT' | 'SIGTERM'

/**
 * What a command may touch of its process, passed in so tests run commands
 * in-process with their own streams, environment and signals.
 */
export interface CliIo {
  /** The environment: process.env merged with `.env` (process.env wins). */
  env: Record<string, string | undefined>
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  stdin: Readable & { isTTY?: boolean }
  /** Subscribes to SIGINT/SIGTERM; returns the unsubscribe function. */
  onSignal(listener: (signal: StopSignal) => void): () => void
}

/** A subcommand: its arguments (after the command name) in, the exit code out. */
export type Command = (argv: string[], io: CliIo) => Promise<number>
