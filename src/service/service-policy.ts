import { realpathSync, statSync } from 'node:fs'
import { ConfigError } from '../config/config-error.js'
import { isLoopbackHost, type Config } from '../config/config.js'
import type { Logger } from '../log/logger.js'
import { policyFromEnvironment } from '../policy/environment-policy.js'
import { EVERY_ASK, type ApiKeyEntry, type OperatorPolicy } from '../policy/operator-policy.js'
import { keyEntry, loadPolicyFile, PolicyFileError } from '../policy/policy-file.js'
import { PolicyHolder } from '../policy/policy-holder.js'
import { loadPolicyOffLoop } from '../policy/load-policy-off-loop.js'
import { policyLoosenings } from '../policy/policy-loosenings.js'
import { policyWarnings } from '../policy/policy-warnings.js'
import { watchPolicyPath } from './watch-policy-path.js'

/** The short-form variables a policy file replaces: named at start when both are set. */
const SHORT_FORM: [string, (config: Config) => boolean][] = [
  ['SLACK_ALLOWED_USERS', (config) => config.allowedUsers.length > 0],
  ['SLACK_ALLOWED_USERGROUPS', (config) => config.allowedUserGroups.length > 0],
  ['DSH_SLACK_APPROVALS', (config) => config.approvals !== 1],
  ['DSH_SLACK_APPROVERS', (config) => config.approvers.length > 0],
  ['DSH_SLACK_MENTION', (config) => config.mention !== undefined],
  ['DSH_SLACK_REMIND_AFTER', (config) => config.remindAfterMs !== undefined],
  ['DSH_SLACK_ESCALATE_TO', (config) => config.escalateTo !== undefined],
]

/** The keys of the environment, hashed: `DSH_SLACK_API_KEY` (named `default`, and seeing every ask as it always has) and `DSH_SLACK_API_KEYS` (each its own asks). */
export function environmentKeys(config: Config): ApiKeyEntry[] {
  return [...(config.apiKey ? [keyEntry('default', config.apiKey, EVERY_ASK)] : []), ...config.apiKeys.map((key) => keyEntry(key.name, key.secret))]
}

/** Reads `DSH_SLACK_POLICY`; a mistake stops start-up with one line naming the file, line and field. */
function readPolicyFile(path: string, keys: ApiKeyEntry[]): OperatorPolicy {
  try {
    return loadPolicyFile(path, keys)
  } catch (error) {
    if (error instanceof PolicyFileError) throw new ConfigError('DSH_SLACK_POLICY', `is not a usable policy: ${error.message}`)
    throw error
  }
}

/**
 * The operator's policy for the service: the file when `DSH_SLACK_POLICY`
 * is set (it wins, and the short-form variables it replaces are named in
 * the log), else the one-rule policy the variables make.
 */
export function servicePolicy(config: Config, channel: string | undefined, logger: Logger): PolicyHolder {
  const policy = operatorPolicyOf(config, channel, logger)
  checkKeysFor(config, policy)
  logWarnings(policy, logger)
  return new PolicyHolder(policy)
}

/** The operator's policy the configuration gives (`policy explain` reads it too). */
export function operatorPolicyOf(config: Config, channel: string | undefined, logger?: Logger): OperatorPolicy {
  const keys = environmentKeys(config)
  let policy: OperatorPolicy
  if (config.policyPath) {
    policy = readPolicyFile(config.policyPath, keys)
    const ignored = SHORT_FORM.filter(([, isSet]) => isSet(config)).map(([name]) => name)
    if (ignored.length > 0) logger?.warn(`DSH_SLACK_POLICY (${config.policyPath}) wins over ${ignored.join(', ')}: they are ignored while a policy file is set; move them into the file`)
  } else {
    policy = policyFromEnvironment({
      ...(channel ? { channel } : {}),
      allowedUsers: config.allowedUsers,
      allowedUserGroups: config.allowedUserGroups,
      approvals: config.approvals,
      approvers: config.approvers,
      ...(config.mention ? { mention: config.mention } : {}),
      ...(config.remindAfterMs !== undefined ? { remindAfterMs: config.remindAfterMs } : {}),
      ...(config.escalateTo !== undefined && config.escalateAfterMs !== undefined ? { escalateTo: config.escalateTo, escalateAfterMs: config.escalateAfterMs } : {}),
      keys,
    })
  }
  return policy
}

/** What `policy check` warns about, in the service's log too. */
function logWarnings(policy: OperatorPolicy, logger: Logger): void {
  for (const warning of policyWarnings(policy)) logger.warn(`policy ${policy.source}: ${warning}`)
}

/** The rules about keys that need the policy file's keys too (config.ts checks the variables alone). */
function checkKeysFor(config: Config, policy: OperatorPolicy): void {
  if (policy.keys.length > 0) return
  if (!isLoopbackHost(config.host)) {
    throw new ConfigError('DSH_SLACK_API_KEY', `is required when HOST (${config.host}) is not a loopback address, and neither DSH_SLACK_API_KEYS nor the policy file names a key: anyone on the network could ask and answer otherwise`)
  }
  if (config.allowedHosts?.includes('*')) {
    throw new ConfigError('DSH_SLACK_ALLOWED_HOSTS', 'is "*" (any Host name) without an API key: any web page could then reach the API through DNS rebinding. Set DSH_SLACK_API_KEY (or name keys), or list your proxy\'s names instead of "*"')
  }
}

/** How long a burst of file events (an editor's save) settles before the file is read. */
const RELOAD_SETTLE_MS = 150

/**
 * How long the file must have gone unmodified before a change is applied: a
 * writer that pauses mid-file (a slow copy, `cat a > policy.yml` in steps)
 * leaves a half-written file that may parse; its modification time is
 * recent, so it is not read until the writer has been still this long. A
 * longer pause still gets its half read: the tighten-only check is what
 * keeps that half out (a half file drops rules, which loosens).
 */
export const RELOAD_STABLE_MS = 1000

/**
 * How long one reload may take to read and check the file before it is
 * abandoned and the next can start: a read stuck on a stalled network mount
 * must not hold reloads up for good, and a file at the 4 MiB cap must still
 * land on a busy host (3 s on an idle core, 21 s on this project's two
 * cores under a load of 19).
 */
export const RELOAD_DEADLINE_MS = 60_000

/** Why a reload kept the old policy: the `reason` of `dsh_slack_policy_reloads_refused_total`. */
export type ReloadRefusal = 'invalid' | 'timed-out' | 'looser' | 'drops-every-key' | 'opens-service'

/**
 * What asked for a reload. A change picked up from the file may only
 * tighten; SIGHUP is the operator applying the file on purpose, and may
 * loosen (decision 0088).
 */
export type ReloadTrigger = 'the file changed' | 'SIGHUP'

/** Reads and checks the policy file for a reload; `signal` says when to give up (loadPolicyOffLoop). */
export type PolicyLoader = (path: string, envKeys: ApiKeyEntry[], signal: AbortSignal) => Promise<OperatorPolicy>

export interface PolicyReloader {
  /** Reads the file again (off the event loop): true when it is in force now (changed or not), false when the old policy stays. */
  reload(trigger: ReloadTrigger): Promise<boolean>
  stop(): void
}

/** A reload the checks refused: the old policy stays. */
class RefusedReload extends Error {
  constructor(
    readonly reason: ReloadRefusal,
    message: string,
  ) {
    super(message)
  }
}

/**
 * What a reload must not do even when the file is valid: leave a service
 * that had keys with none (every bearer check gone at once), or leave a
 * service that is not loopback-only without a key (checkKeysFor); and,
 * when the change was only picked up from the file, give more than the
 * policy in force anywhere (policyLoosenings).
 */
function checkReload(config: Config, current: OperatorPolicy, next: OperatorPolicy, trigger: ReloadTrigger): void {
  try {
    checkKeysFor(config, next)
  } catch (error) {
    throw new RefusedReload('opens-service', error instanceof Error ? error.message : String(error))
  }
  if (current.keys.length > 0 && next.keys.length === 0) {
    throw new RefusedReload('drops-every-key', `the new file names no API key while ${current.keys.length} are in force: the API would take requests without a key. Name at least one key (or restart the service to run without keys)`)
  }
  if (trigger !== 'the file changed') return
  const looser = policyLoosenings(current, next)
  if (looser.length > 0) {
    throw new RefusedReload('looser', `the new file is looser than the policy in force (${summary(looser)}); a change picked up from the file may only tighten. To apply it on purpose, send SIGHUP (docs/policy.md, "Reloading")`)
  }
}

/** The first few loosenings, and how many more: one log line, not a page. */
function summary(loosenings: string[]): string {
  const shown = loosenings.slice(0, 3).join('; ')
  return loosenings.length > 3 ? `${shown}; and ${loosenings.length - 3} more` : shown
}

/** What identifies the file's content without reading it: a change of any part means the file may have changed. */
function fingerprintOf(path: string): { key: string; modifiedAt: number } {
  try {
    const stat = statSync(path)
    return { key: `${realpathSync(path)}:${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`, modifiedAt: stat.mtimeMs }
  } catch {
    // Gone for now (deleted, or a link to nothing): reading it says so, once, and keeps the old policy.
    return { key: 'gone', modifiedAt: 0 }
  }
}

/**
 * Reloads the policy file on SIGHUP and when it (or, for a symbolic link,
 * its target) changes. Open asks keep the rules they were opened under.
 * The policy never fails open: an invalid file, one that defines nothing,
 * one that is not a regular file or is too large, one whose read takes
 * longer than RELOAD_DEADLINE_MS, one that would drop every key or open a
 * non-loopback service, and a change from the file that loosens all keep
 * the policy in force, with one error line and `onRefused` (the metric).
 * Reloads run one at a time, in the order they were asked for, each
 * reading the file when its turn comes: a newer file always lands after an
 * older one, however slowly the older parsed, and no read holds up the
 * next longer than the deadline.
 */
export function watchPolicy(options: { path: string; holder: PolicyHolder; config: Config; logger: Logger; signals?: boolean; onRefused?: (reason: ReloadRefusal) => void; now?: () => number; load?: PolicyLoader; deadlineMs?: number }): PolicyReloader {
  const { path, holder, config, logger } = options
  const now = options.now ?? Date.now
  const load: PolicyLoader = options.load ?? ((file, keys, signal) => loadPolicyOffLoop(file, keys, { signal }))
  const deadlineMs = options.deadlineMs ?? RELOAD_DEADLINE_MS
  /**
   * The file as it was when last read (at start, or by the last reload), and
   * what that read came to: a change picked up from the file that changed
   * nothing of it (an event for another file in a watched folder, a second
   * event queued behind a slow read) reads nothing and says nothing again.
   * A file read while it was still changing (SIGHUP reads at once) is not
   * remembered: a coarse clock could give its next write the same times.
   */
  const settledFingerprint = (): string | undefined => {
    const seen = fingerprintOf(path)
    return now() - seen.modifiedAt >= RELOAD_STABLE_MS ? seen.key : undefined
  }
  let lastRead = settledFingerprint()
  let lastOutcome = true
  // One read at a time, in order: a slow parse of an old version never lands after a newer one.
  let reading: Promise<boolean> = Promise.resolve(true)
  const reload = (trigger: ReloadTrigger): Promise<boolean> => (reading = reading.then(() => readAndApply(trigger)))
  const readAndApply = async (trigger: ReloadTrigger): Promise<boolean> => {
    const fingerprint = settledFingerprint()
    if (trigger === 'the file changed' && fingerprint !== undefined && fingerprint === lastRead) return lastOutcome
    lastRead = fingerprint
    return (lastOutcome = await readAndCheck(trigger))
  }
  const readAndCheck = async (trigger: ReloadTrigger): Promise<boolean> => {
    let next: OperatorPolicy
    try {
      next = await withinDeadline(load, path, environmentKeys(config), deadlineMs)
      checkReload(config, holder.current, next, trigger)
    } catch (error) {
      // A file that cannot be read or used at all is `invalid`; the deadline and checkReload name their own reasons.
      const reason = error instanceof RefusedReload ? error.reason : 'invalid'
      logger.error(`policy not reloaded (${trigger}); version ${holder.current.version} stays in force: ${error instanceof Error ? error.message : String(error)}`)
      options.onRefused?.(reason)
      return false
    }
    if (next.version === holder.current.version) return true
    const before = holder.current
    const loosened = trigger === 'SIGHUP' ? policyLoosenings(before, next) : []
    holder.replace(next)
    logger.info(`policy reloaded (${trigger}): version ${before.version} → ${next.version}${loosened.length > 0 ? `, loosened on purpose (${summary(loosened)})` : ''}; open asks keep the rules they were opened under`)
    logWarnings(next, logger)
    return true
  }
  /** Reloads once the file has been still for RELOAD_STABLE_MS, waiting out a writer that is not done. */
  const reloadWhenStill = (): void => {
    const stillFor = now() - fingerprintOf(path).modifiedAt
    if (stillFor < RELOAD_STABLE_MS) {
      schedule(RELOAD_STABLE_MS - stillFor)
      return
    }
    void reload('the file changed')
  }
  const schedule = (delayMs: number): void => {
    clearTimeout(timer)
    timer = setTimeout(reloadWhenStill, delayMs)
    timer.unref()
  }
  let timer: NodeJS.Timeout | undefined
  const unwatch = watchPolicyPath(path, () => schedule(RELOAD_SETTLE_MS), logger)
  const onHangUp = () => void reload('SIGHUP')
  if (options.signals !== false) process.on('SIGHUP', onHangUp)
  return {
    reload,
    stop: () => {
      clearTimeout(timer)
      unwatch()
      process.off('SIGHUP', onHangUp)
    },
  }
}

/** The loader's policy, or a `timed-out` refusal once the deadline passes (the loader is told to stop, and never waited on again). */
async function withinDeadline(load: PolicyLoader, path: string, envKeys: ApiKeyEntry[], deadlineMs: number): Promise<OperatorPolicy> {
  const controller = new AbortController()
  const late = new RefusedReload('timed-out', `${path}: reading and checking it took longer than ${deadlineMs / 1000} s; it was abandoned (a file on a stalled network mount?), and the next change is read as usual`)
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(late)
      reject(late)
    }, deadlineMs)
    timer.unref()
  })
  try {
    return await Promise.race([load(path, envKeys, controller.signal), deadline])
  } finally {
    clearTimeout(timer)
  }
}
