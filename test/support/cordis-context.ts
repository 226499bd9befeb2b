import { Context, Service } from '@deepseek-ai/cordis'
import { ApprovalService } from '@deepseek-ai/dsh-user-approval'
import UserQuestionService from '@deepseek-ai/dsh-user-questions'
import { vi } from 'vitest'

/**
 * The plugin in a real cordis 4 context with the harness's own seam
 * services from the registry (`@deepseek-ai/dsh-user-questions`,
 * `@deepseek-ai/dsh-user-approval`). The harness's loader is the one piece
 * stood in: a `loader` service that exists, as it does once every entry of
 * a profile has loaded. test/harness runs the plugin in the real harness.
 */
class LoaderStandIn extends Service {
  constructor(ctx: Context) {
    super(ctx, 'loader')
  }
}

export type Seam = { ask(request: unknown): Promise<unknown>; provider: unknown }
export const seamOf = (ctx: Context) => (ctx as unknown as { userQuestions: Seam }).userQuestions
export const approvalOf = (ctx: Context) => (ctx as unknown as { approval: ApprovalService }).approval

export async function harnessContext(services: 'questions' | 'questions+approvals' = 'questions') {
  const ctx = new Context()
  await ctx.plugin(UserQuestionService)
  if (services === 'questions+approvals') await ctx.plugin(ApprovalService, {})
  await ctx.plugin(LoaderStandIn)
  return ctx
}

/**
 * Loads the plugin with a raw config, as the harness's loader does: cordis
 * types `ctx.plugin`'s config as what `apply` receives (the parsed settings),
 * while the loader hands over what the profile says.
 */
export function load(ctx: Context, plugin: unknown, raw?: unknown) {
  return ctx.plugin(plugin as never, raw as never)
}

/** What the plugin said on stderr (its warnings go there: a headless run prints no plugin log). */
export function stderrLines() {
  const lines: string[] = []
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk))
    return true
  })
  return lines
}

/** A harness agent in an open turn, as the approval service wants one (it writes the audit pair to the session). */
export function agentInTurn(events: { type: string; data?: unknown }[] = []) {
  const log = [{ type: 'turn/start' }, ...events]
  return { id: 'session-1', session: { id: 'session-1', header: { cwd: '/work/app' }, events: log, append: (type: string, data: unknown) => void log.push({ type, data }) } }
}
