import type { AskUserQuestionAnswer, AskUserQuestionRequest, UserInteractionProvider } from '../contract/index.js'
import { validateRequest } from '../contract/index.js'
import type { AskRecord } from '../store/ask-record.js'
import type { AskStore } from '../store/ask-store.js'
import type { AskLifecycle } from './ask-lifecycle.js'
import { answerOrError } from './outcome-error.js'
import type { PolicyInput } from './ask-policy.js'

/** Per-ask options of the library's `ask()`, beyond the seam's request. */
export interface AskOptions {
  /** Quorum, approvers, reminder and escalation for this ask, over the bridge's defaults. */
  policy?: PolicyInput
}

/** The seam's provider; its `ask()` also takes a team policy as a second argument. */
export interface PolicyAwareProvider extends UserInteractionProvider {
  ask(request: AskUserQuestionRequest, options?: AskOptions): Promise<AskUserQuestionAnswer>
}

/** How a wait reads the ask (both optional: a plain wait watches, then reads it once). */
export interface WaitOptions {
  /**
   * The caller only reads what it gets (it answers the long-poll with it):
   * the settled record may be the settler's own, not a copy (WatchOptions).
   */
  readOnly?: boolean
  /**
   * The ask as this process knows it right now, taken after the watch is in
   * place: open (posted here, decision 0049) or settled here (final). Either
   * saves the read. An open one only counts on a store no other instance
   * settles in unheard (not shared): a settlement by another process on the
   * same file is heard from its poll; a settled one counts everywhere.
   */
  knownHere?: (id: string) => AskRecord | undefined
}

/**
 * Resolves with the record once settled, or the pending record after
 * `timeoutMs`, or when `signal` fires. Every listener and timer it sets is
 * gone when it resolves.
 */
export function waitForSettlement(store: AskStore, id: string, timeoutMs: number, signal?: AbortSignal, options: WaitOptions = {}): Promise<AskRecord | undefined> {
  return new Promise<AskRecord | undefined>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    /** The pending ask as first read: what a wait that ends without news answers if a re-read fails. */
    let initial: AskRecord | undefined
    let unwatch = () => {}
    const finish = (record: AskRecord | undefined) => {
      clearTimeout(timer)
      unwatch()
      signal?.removeEventListener('abort', onAbort)
      resolve(record)
    }
    const onAbort = () => void store.get(id).then(finish, () => finish(initial))
    const waitOn = (record: AskRecord | undefined) => {
      if (!record || record.status !== 'pending' || timeoutMs <= 0 || signal?.aborted) return finish(record)
      initial = record
      timer = setTimeout(onAbort, timeoutMs)
      timer.unref()
      signal?.addEventListener('abort', onAbort, { once: true })
    }
    // Watching before the one read: a settlement in between is heard, not missed.
    unwatch = store.watch(id, finish, options.readOnly ? { readOnly: true } : {})
    const known = options.knownHere?.(id)
    if (known && (known.status !== 'pending' || !store.shared)) return waitOn(known)
    store.get(id).then(waitOn, (error: unknown) => {
      unwatch()
      reject(error)
    })
  })
}

/**
 * The seam's provider: `ask()` validates (in the seam's order), posts, and
 * waits until the ask settles, however long that takes. The request's
 * signal withdraws it. It always settles: answered, or a UserInteractionError.
 */
export function createProvider(lifecycle: AskLifecycle): PolicyAwareProvider {
  return {
    async ask(request: AskUserQuestionRequest, options: AskOptions = {}): Promise<AskUserQuestionAnswer> {
      const valid = validateRequest(request)
      const record = await lifecycle.openValid(valid, options.policy === undefined ? {} : { policy: options.policy })
      const settled = await untilSettled(lifecycle, record, valid.signal)
      const result = answerOrError(settled)
      if (result instanceof Error) throw result
      return result
    },
  }
}

function untilSettled(lifecycle: AskLifecycle, record: AskRecord, signal?: AbortSignal): Promise<AskRecord> {
  if (record.status !== 'pending') return Promise.resolve(record)
  return new Promise<AskRecord>((resolve, reject) => {
    const onAbort = () => void lifecycle.abort(record.id).catch(reject)
    const unwatch = lifecycle.store.watch(record.id, (settled) => {
      signal?.removeEventListener('abort', onAbort)
      resolve(settled)
    })
    signal?.addEventListener('abort', onAbort, { once: true })
    void lifecycle.store.get(record.id).then((current) => {
      if (current && current.status !== 'pending') {
        unwatch()
        signal?.removeEventListener('abort', onAbort)
        resolve(current)
      }
    }, reject)
  })
}
