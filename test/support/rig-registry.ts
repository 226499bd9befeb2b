import type { Sandbox } from '../../src/sandbox/index.js'
import type { AskStore } from '../../src/store/ask-store.js'

// Which bridges run on which stand-in, so message helpers can wait until a
// bridge has saved the message it posted without every test passing it in.
const storesBySandbox = new WeakMap<Sandbox, AskStore[]>()

export function registerBridgeStore(slack: Sandbox, store: AskStore): void {
  const stores = storesBySandbox.get(slack) ?? []
  stores.push(store)
  storesBySandbox.set(slack, stores)
}

/** The stores of every bridge `startRig` started on this stand-in. */
export function storesOn(slack: Sandbox): AskStore[] {
  return storesBySandbox.get(slack) ?? []
}
