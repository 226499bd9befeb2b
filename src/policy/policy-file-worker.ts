/**
 * The policy file's thread: reads and checks one file off the event loop
 * (a 20,000-key YAML file takes seconds to parse) and posts the policy, or
 * the PolicyFileError's parts, back. One file per thread; the thread ends.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { ApiKeyEntry } from './operator-policy.js'
import { loadPolicyFile, PolicyFileError } from './policy-file.js'

const { path, envKeys } = workerData as { path: string; envKeys: ApiKeyEntry[] }
try {
  parentPort!.postMessage({ policy: loadPolicyFile(path, envKeys) })
} catch (error) {
  if (!(error instanceof PolicyFileError)) throw error
  parentPort!.postMessage({ error: { file: error.file, line: error.line, field: error.field, problem: error.problem } })
}
