/**
 * The text dsh-slack writes into and reads out of a plan canvas (pure):
 * the plan made safe to show (canvas-markdown.ts), and the open comment
 * threads made into the Request changes feedback the agent reads.
 */
export { canvasMarkdown } from './canvas-markdown.js'
import type { CanvasThread } from '../../slack/code-channel-port.js'

/** A person as the agent reads them: their name when known, and their id. */
export type NameOf = (userId: string) => string

/**
 * Request changes as the agent receives it: what the person typed, then
 * every open thread with its quoted passage and each comment with who wrote
 * it, verbatim. No threads: the typed text alone, as before code channels.
 */
export function feedbackWithThreads(typed: string, threads: readonly CanvasThread[], nameOf: NameOf): string {
  if (threads.length === 0) return typed
  const parts = threads.map((thread) => {
    const quoted = thread.quotedText.split('\n').map((line) => `> ${line}`).join('\n')
    const comments = thread.comments.map((comment) => `- ${nameOf(comment.userId)}: ${comment.text}`).join('\n')
    return `${quoted}\n${comments}`
  })
  const heading = threads.length === 1 ? 'Comment on the plan canvas:' : `Comments on the plan canvas (${threads.length} threads):`
  return [typed.trim(), `${heading}\n\n${parts.join('\n\n')}`].filter((part) => part !== '').join('\n\n')
}
