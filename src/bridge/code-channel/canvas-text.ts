/**
 * The text dsh-slack writes into and reads out of a plan canvas (pure):
 * the plan made safe to show (canvas-markdown.ts), and the open comment
 * threads made into the Request changes feedback the agent reads.
 */
export { canvasMarkdown } from './canvas-markdown.js'
import type { CanvasThread } from '../../slack/code-channel-port.js'

/** The comments of the people who may answer the ask, and who was left out (decision 0091). */
export interface AnswerersComments {
  /** The open threads with only the comments of people who may answer; a thread with none of theirs is gone. */
  threads: CanvasThread[]
  /** Whose comments are kept, in the order they first wrote. */
  from: string[]
  /** Everyone else who commented, with how many comments of theirs were left out. */
  leftOut: { userId: string; comments: number }[]
}

/**
 * Keeps the comments of the people who may answer the ask: a canvas is
 * open to anyone in its code channel, so anyone else's words would reach
 * the agent as if a reviewer had sent them. `mayAnswer` holds each
 * commenter's answer, looked up once per person.
 */
export function answerersComments(threads: readonly CanvasThread[], mayAnswer: ReadonlyMap<string, boolean>): AnswerersComments {
  const from: string[] = []
  const leftOut = new Map<string, number>()
  const kept: CanvasThread[] = []
  for (const thread of threads) {
    const comments = thread.comments.filter((comment) => {
      if (mayAnswer.get(comment.userId) === true) {
        if (!from.includes(comment.userId)) from.push(comment.userId)
        return true
      }
      leftOut.set(comment.userId, (leftOut.get(comment.userId) ?? 0) + 1)
      return false
    })
    if (comments.length > 0) kept.push({ ...thread, comments })
  }
  return { threads: kept, from, leftOut: [...leftOut].map(([userId, comments]) => ({ userId, comments })) }
}

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
