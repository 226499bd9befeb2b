import type { OperatorPolicy } from './operator-policy.js'

/**
 * The policy in force. A reload swaps it whole: an ask opened before keeps
 * the rules it was opened under (they are stored with it), a new one gets
 * the new ones.
 */
export class PolicyHolder {
  #policy: OperatorPolicy
  readonly #listeners = new Set<(policy: OperatorPolicy) => void>()

  constructor(policy: OperatorPolicy) {
    this.#policy = policy
  }

  get current(): OperatorPolicy {
    return this.#policy
  }

  replace(policy: OperatorPolicy): void {
    this.#policy = policy
    for (const listener of this.#listeners) listener(policy)
  }

  /** Told of every replacement; returns the unsubscribe function. */
  onReplace(listener: (policy: OperatorPolicy) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
