/**
 * Waiting for the app to catch up: a predicate over the workspace, checked on
 * every change and on a short poll, failing with a message that says what
 * was awaited (and the predicate's last error, if it threw).
 */
import { SandboxError } from './errors.js'
import type { Workspace } from './workspace.js'

export interface WaitOptions {
  /** Give up after this long (default 2000 ms). */
  timeoutMs?: number
  /** What is awaited, for the failure message. */
  message?: string
}

/** Stand-in knob: how often a wait re-checks besides on workspace changes. */
const POLL_MS = 20
const DEFAULT_TIMEOUT_MS = 2000

export function waitFor<T>(workspace: Workspace, predicate: () => T | undefined | null | false, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return new Promise<T>((resolve, reject) => {
    let lastError: unknown
    const check = (): void => {
      try {
        const value = predicate()
        if (value !== undefined && value !== null && value !== false) {
          finish()
          resolve(value)
        }
      } catch (error) {
        lastError = error
      }
    }
    const poll = setInterval(check, POLL_MS)
    const timer = setTimeout(() => {
      finish()
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : ''
      reject(new SandboxError('TIMEOUT', `waited ${timeoutMs} ms for ${options.message ?? 'the condition'}${cause}`))
    }, timeoutMs)
    const finish = (): void => {
      clearInterval(poll)
      clearTimeout(timer)
      workspace.off('change', check)
    }
    workspace.on('change', check)
    check()
  })
}
