import { PassThrough } from 'node:stream'
import type { CliIo } from '../../src/cli/cli-io.js'

/** A command's process as memory: the given environment, and what it wrote to stdout and stderr. */
export function memoryIo(env: Record<string, string> = {}): { io: CliIo; output(): string; errors(): string } {
  let out = ''
  let err = ''
  return {
    io: { env, stdout: { write: (text: string) => (out += text) }, stderr: { write: (text: string) => (err += text) }, stdin: new PassThrough(), onSignal: () => () => undefined },
    output: () => out,
    errors: () => err,
  }
}
