/**
 * A command started through npm (`npm start`, `npx dsh-slack …`) runs under
 * npm and a shell: `npx dsh-slack serve &` then `kill %1` (or a process
 * manager stopping npm) ends npm, which passes the signal to its shell, and
 * the shell dies without passing it on. The command would go on running on
 * its port with nobody to stop it. So under npm (it sets
 * `npm_lifecycle_event`), the command watches its parent and stops as on
 * SIGTERM when the parent is gone: cleanly, open questions handled as at any
 * stop. Started any other way (`nohup dsh-slack serve &`, a service
 * manager), it is left alone: outliving its parent is then the point.
 */
import { TIMING } from '../slack/timing.js'

/** Starts the watch when `env` says npm started this process; returns a function that ends it. */
export function stopWhenNpmGoes(env: NodeJS.ProcessEnv, stop: () => void = () => process.kill(process.pid, 'SIGTERM')): () => void {
  if (!env.npm_lifecycle_event) return () => undefined
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    stop()
  }, TIMING.parentWatchMs)
  timer.unref()
  return () => clearInterval(timer)
}
