import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ApiKeyEntry, OperatorPolicy } from './operator-policy.js'
import { loadPolicyFile, PolicyFileError } from './policy-file.js'

/** Where the compiled policy thread is; absent when running from TypeScript sources (tests), which read in place. */
const WORKER_FILE = new URL('./policy-file-worker.js', import.meta.url)

type Reply = { policy: OperatorPolicy } | { error: { file: string; line: number | undefined; field: string | undefined; problem: string } }

export interface OffLoopOptions {
  /** Ends the read: the thread is terminated and the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** The thread's script (tests give one of their own). */
  workerFile?: URL
}

/**
 * `loadPolicyFile` on a thread of its own, for reloads: the service keeps
 * answering clicks and requests while a large file (thousands of keys) is
 * parsed. Throws `PolicyFileError` as loadPolicyFile does. Where the
 * thread cannot run (from sources), the file is read in place; the read is
 * bounded either way (read-policy-text.ts), and `signal` is how a caller
 * stops waiting for a read that takes too long.
 */
export async function loadPolicyOffLoop(path: string, envKeys: ApiKeyEntry[] = [], options: OffLoopOptions = {}): Promise<OperatorPolicy> {
  const workerFile = options.workerFile ?? WORKER_FILE
  const { signal } = options
  signal?.throwIfAborted()
  if (!existsSync(fileURLToPath(workerFile))) return loadPolicyFile(path, envKeys)
  const reply = await new Promise<Reply>((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: { path, envKeys } })
    worker.unref()
    const abandon = () => {
      reject(signal!.reason)
      // A thread stuck in a system call ends when the call returns; it holds nothing up meanwhile (unref'd).
      void worker.terminate()
    }
    signal?.addEventListener('abort', abandon, { once: true })
    const settle = () => signal?.removeEventListener('abort', abandon)
    worker.once('message', (reply: Reply) => {
      settle()
      resolve(reply)
    })
    worker.once('error', (error) => {
      settle()
      reject(error)
    })
    worker.once('exit', (code) => {
      settle()
      reject(new Error(`the policy thread ended (${code}) without an answer`))
    })
  })
  if ('error' in reply) throw new PolicyFileError(reply.error.file, reply.error.line, reply.error.field, reply.error.problem)
  return reply.policy
}
