import type { AskUserQuestionRequest, UserInteractionProvider } from '../contract/index.js'

/**
 * The parts of the harness that the plugin touches, typed structurally so
 * dsh-slack has no runtime dependency on the harness's packages: a harness
 * brings its own `@deepseek-ai/cordis` 4 and seam services, and those are
 * the ones that must be used (SEAM.md).
 */

/** `ctx.userQuestions` (`@deepseek-ai/dsh-user-questions`). */
export interface UserQuestionsSeam {
  /** Returns a disposer; throws `DUPLICATE_PROVIDER` synchronously when a provider is already registered. */
  registerProvider(provider: UserInteractionProvider): () => void
  /** The harness's own entry point: its checks, then the provider. */
  ask(request: AskUserQuestionRequest): Promise<unknown>
}

/** Tool approval outcomes (`@deepseek-ai/dsh-user-approval`). */
export type ApprovalOutcome = 'allowed-once' | 'rejected' | 'cancelled' | 'unavailable'

/** A session event as the harness keeps it (`agent.session.events`). */
export interface HarnessSessionEvent {
  type: string
  data?: unknown
}

/** A harness session as `session/disposed` hands it over: read defensively. */
export interface HarnessSession {
  readonly id?: unknown
}

/** The agent an approval is for: read defensively, every field may be missing. */
export interface HarnessAgent {
  id?: string
  session?: { id?: string; events?: readonly HarnessSessionEvent[]; header?: { cwd?: string } }
}

/** The `approval/request` event's request (read-only: the harness lends it). */
export interface HarnessApprovalRequest {
  readonly agent: HarnessAgent
  readonly toolName: string
  readonly callId?: string
  readonly reason?: string
  readonly signal?: AbortSignal
}

/** An `approval/request` listener: claim the request with an outcome, or pass it on with `next()`. */
export type ApprovalAnswerer = (request: HarnessApprovalRequest, next: () => Promise<ApprovalOutcome>) => Promise<ApprovalOutcome>

/** cordis 4's named logger (`ctx.logger(name)`): printf-style. */
export interface HarnessLogger {
  info(format: string, ...args: unknown[]): void
  debug(format: string, ...args: unknown[]): void
}

/** The plugin's cordis 4 context. */
export interface PluginContext {
  readonly userQuestions: UserQuestionsSeam
  /** A lifetime: the returned function runs when the plugin is unloaded (there is no `dispose` event in cordis 4). */
  effect(execute: () => () => unknown, label?: string): unknown
  /** Runs `callback` while the named services exist (the approval service is optional, so it is not in `inject`). */
  inject(deps: string[], callback: (ctx: PluginContext) => void): unknown
  on(name: 'approval/request', listener: ApprovalAnswerer): unknown
  /**
   * A session left the harness's store (`@deepseek-ai/dsh-session`): emitted
   * once per announced session, listener failures contained. An unscoped
   * (plugin-level) listener hears every session's.
   */
  on(name: 'session/disposed', listener: (session: HarnessSession) => void): unknown
  readonly logger?: (name: string) => HarnessLogger
}
