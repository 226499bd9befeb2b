import { decodeActionId } from '../../../blocks/ids.js'
import { externalSelectOptions } from '../../../blocks/index.js'
import { askViewOf } from '../../bridge/ask-view.js'
import type { BlockSuggestionPayload } from '../../slack/payloads.js'
import type { InteractionDeps } from './context.js'

/** An options-load menu asks what to show for what the person typed. */
export async function handleSuggestion(deps: InteractionDeps, payload: BlockSuggestionPayload): Promise<{ options: unknown[] }> {
  const ref = decodeActionId(payload.action_id)
  if (!ref || !('question' in ref)) return { options: [] }
  const record = await deps.lifecycle.store.get(ref.askId)
  const question = record && record.status === 'pending' ? askViewOf(record, deps.settings).questions[ref.question] : undefined
  if (!question) return { options: [] }
  return externalSelectOptions(question, payload.value, deps.settings.locale)
}
