/**
 * What each user has typed, picked and ticked, per message or view: Slack
 * keeps this client-side and reports it in every payload's `state.values`, so
 * two people looking at one message each have their own.
 */
import { elementsOf, initialState } from './elements.js'

type Obj = Record<string, unknown>

/** A message (`msg:<channel>:<ts>`) or a view (`view:<id>`). */
export type ContainerKey = string

export function messageContainer(channel: string, ts: string): ContainerKey {
  return `msg:${channel}:${ts}`
}

export function viewContainer(viewId: string): ContainerKey {
  return `view:${viewId}`
}

export class ClientState {
  private readonly entries = new Map<string, Map<string, Obj>>()

  private slot(user: string, container: ContainerKey): Map<string, Obj> {
    const key = `${user}|${container}`
    let slot = this.entries.get(key)
    if (!slot) this.entries.set(key, (slot = new Map()))
    return slot
  }

  set(user: string, container: ContainerKey, blockId: string, actionId: string, entry: Obj): void {
    this.slot(user, container).set(`${blockId}\u0000${actionId}`, entry)
  }

  /**
   * `state.values` for `blocks` as `user` sees them: their own entries where
   * the element is still there (by block_id and action_id), initial values elsewhere.
   */
  values(user: string, container: ContainerKey, blocks: readonly Obj[] | undefined): Record<string, Record<string, Obj>> {
    const slot = this.slot(user, container)
    const values: Record<string, Record<string, Obj>> = {}
    for (const found of elementsOf(blocks)) {
      const entry = slot.get(`${found.blockId}\u0000${found.actionId}`) ?? initialState(found.element)
      if (entry === undefined) continue
      values[found.blockId] = { ...(values[found.blockId] ?? {}), [found.actionId]: entry }
    }
    return values
  }

  entry(user: string, container: ContainerKey, blockId: string, actionId: string): Obj | undefined {
    return this.slot(user, container).get(`${blockId}\u0000${actionId}`)
  }
}
