import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ApiKeyEntry, OperatorPolicy } from './operator-policy.js'
import { loadPolicyFile, PolicyFileError } from './policy-file.js'

/** Where the compiled policy thread is; absent when running from TypeScript sources (tests), which read in place. */
const WORKER_FILE = new URL('./policy-file-worker.js', import.meta.url)

type Reply = { policy: OperatorPolicy } | { error: { file: string; line: number | undefined; field: string | undefined; problem: string } }

/**
 * `loadPolicyFile` on a thread of its own, for reloads: the service keeps
 * answering clicks and requests while a large file (thousands of keys) is
 * parsed. Throws `PolicyFileError` as loadPolicyFile does. Where the
 * thread cannot run (from sources), the file is read in place.
 */
export async function loadPolicyOffLoop(path: string, envKeys: ApiKeyEntry[] = []): Promise<OperatorPolicy> {
  if (!existsSync(fileURLToPath(WORKER_FILE))) return loadPolicyFile(path, envKeys)
  const reply = await new Promise<Reply>((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, { workerData: { path, envKeys } })
    worker.unref()
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the policy thread ended (${code}) without an answer`)))
  })
  if ('error' in reply) throw new PolicyFileError(reply.error.file, reply.error.line, reply.error.field, reply.error.problem)
  return reply.policy
}
