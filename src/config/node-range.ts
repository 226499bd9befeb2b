import { ConfigError } from './config-error.js'

/**
 * The Node versions dsh-slack runs on: the harness's own range, so one
 * checkout serves the harness, the service and the relay alike
 * (package.json `engines` says the same; a test holds them together).
 * node:sqlite is there without a flag from 22.13; 22.19 is the harness's floor.
 */
export const SUPPORTED_NODE = '^22.19.0 || >=24'

/** Whether `version` (`process.versions.node`, `22.19.0`) is in SUPPORTED_NODE. */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  return major >= 24 || (major === 22 && minor >= 19)
}

/** What is wrong with running on `version`, in one sentence naming the range; undefined when it is in the range. */
export function unsupportedNode(version: string = process.versions.node): string | undefined {
  if (isSupportedNode(version)) return undefined
  return `dsh-slack runs on Node ${SUPPORTED_NODE} (the agent harness's range), not ${version.replace(/^v/, '')}: install Node 22.19+ or 24+ (in a clone of dsh-slack, npm install brings one for npm start, npm test and npx dsh-slack)`
}

/**
 * Refuses a Node outside SUPPORTED_NODE in one line that names the range,
 * before anything deeper (node:sqlite, the shell parser) fails in its own
 * words. Called where each way in starts: the CLI, createSlackBridge and
 * connectToService; the harness plugin turns off with the same sentence.
 */
export function assertSupportedNode(version: string = process.versions.node): void {
  const problem = unsupportedNode(version)
  if (problem !== undefined) throw new ConfigError('Node', problem)
}
