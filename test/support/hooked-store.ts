import type { AskStore } from '../../src/store/ask-store.js'

/** Code run before a store method, given its arguments; awaited before the real call. */
export type StoreHooks = { [K in keyof AskStore]?: AskStore[K] extends (...args: infer A) => unknown ? (...args: A) => Promise<void> | void : never }

/**
 * A real store with hooks run before chosen methods, so a test can hold one
 * step (a settle, saving the message) and make a race or an ordering happen
 * for certain instead of by luck. Every other method is the store's own,
 * including ones added to the interface later.
 */
export function hookedStore(inner: AskStore, hooks: StoreHooks): AskStore {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function') return value
      const hook = (hooks as Record<PropertyKey, ((...args: unknown[]) => Promise<void> | void) | undefined>)[property]
      if (!hook) return value.bind(target)
      return async (...args: unknown[]) => {
        await hook(...args)
        return value.apply(target, args)
      }
    },
  })
}

/**
 * A gate that holds every caller until `count` have arrived (or `maxWaitMs`
 * has passed), then lets them all through together; `arrived` says how many
 * came.
 */
export function barrier(count: number, maxWaitMs = 2000): { wait(): Promise<void>; readonly arrived: number } {
  let arrived = 0
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  const timer = setTimeout(() => open(), maxWaitMs)
  return {
    async wait() {
      arrived += 1
      if (arrived >= count) {
        clearTimeout(timer)
        open()
      }
      await opened
    },
    get arrived() {
      return arrived
    },
  }
}
