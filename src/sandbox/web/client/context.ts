/** Where a block is drawn: a message or the modal, with this user's selections and the modal's errors. */
import type { PageTarget } from '../wire.js'
import type { Obj } from './dom.js'

export interface RenderContext {
  target: PageTarget
  /** This user's `state.values`, by block_id then action_id. */
  state: Record<string, Record<string, Obj>> | undefined
  /** Errors under inputs, by block_id (modals only). */
  errors: Record<string, string> | null
  /** The modal's view id; null in messages. */
  viewId: string | null
}

export function stateOf(ctx: RenderContext, blockId: string, actionId: string): Obj | undefined {
  return ctx.state?.[blockId]?.[actionId]
}
