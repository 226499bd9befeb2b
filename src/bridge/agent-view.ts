import type { AgentView } from '../../blocks/view.js'
import type { AgentLike } from '../contract/index.js'

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/**
 * What the message shows about the asking agent, read defensively from a
 * harness `Agent` (SEAM.md: only `id` is certain; the model and the session's
 * working directory may be there) or from the HTTP API's `{ id, title }`.
 */
export function agentView(agent: AgentLike | undefined): AgentView | undefined {
  if (!agent) return undefined
  const view: AgentView = {}
  const id = text(agent.id)
  const title = text(agent.title)
  const cwd = text(agent.session?.header?.cwd)
  const model = agent.options?.model
  const modelName = text(model) ?? (typeof model === 'object' && model !== null ? text((model as { id?: unknown }).id) ?? text((model as { name?: unknown }).name) : undefined)
  if (id) view.id = id
  if (title) view.title = title
  if (cwd) view.cwd = cwd
  if (modelName) view.model = modelName
  return Object.keys(view).length > 0 ? view : undefined
}
