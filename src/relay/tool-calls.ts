import type { ToolCall } from './frames.js'

/**
 * Ours: how many tool calls the relay remembers. An approval follows its
 * call within the same turn, so the last few hundred calls of every session
 * together are plenty; the oldest are forgotten first.
 */
const REMEMBERED_CALLS = 500

/**
 * The tool calls seen on a host's event stream, so an approval can show what
 * it would run: the host's `approval/requested` names the `callId`, not the
 * arguments. Keyed by session and call id (call ids repeat across sessions).
 */
export class ToolCallMemory {
  readonly #calls = new Map<string, ToolCall>()

  remember(sessionId: string, call: ToolCall): void {
    const key = keyOf(sessionId, call.callId)
    this.#calls.delete(key)
    this.#calls.set(key, call)
    if (this.#calls.size > REMEMBERED_CALLS) this.#calls.delete(this.#calls.keys().next().value!)
  }

  /** The call an approval is about, when it was seen and is for the same tool (anything else would show the wrong command). */
  find(sessionId: string, callId: string | undefined, toolName: string): ToolCall | undefined {
    if (callId === undefined) return undefined
    const call = this.#calls.get(keyOf(sessionId, callId))
    return call?.toolName === toolName ? call : undefined
  }
}

function keyOf(sessionId: string, callId: string): string {
  return `${sessionId}\u0000${callId}`
}
