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
