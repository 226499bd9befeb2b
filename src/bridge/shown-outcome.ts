import type { Outcome, Person } from '../../blocks/view.js'
import type { AskRecord } from '../store/ask-record.js'
import type { CloseHow } from './types.js'

// What an ask's card shows for how it ended, and the one thing that changes
// it: a relayed request's answer still to be delivered to its host.

/**
 * A relayed request settled in Slack by a person: the relay still has to
 * deliver the answer, and only the host's receipt makes it "answered" (the
 * relay calls `delivered`). An ask with only an idempotency key has nothing
 * to deliver: its agent reads the settlement from the service.
 */
export function awaitsDelivery(record: AskRecord, outcome: Outcome): boolean {
  return record.relayDelivery !== undefined && personOfOutcome(outcome) !== undefined
}

/** What the message shows for a settlement: "being delivered" while the relay has not delivered it. */
export function shownOutcome(record: AskRecord, outcome: Outcome): Outcome {
  if (!awaitsDelivery(record, outcome)) return outcome
  return outcome.kind === 'answered' || outcome.kind === 'dismissed' || outcome.kind === 'decided' ? { ...outcome, delivering: true } : outcome
}

/** Who settled an ask in Slack, when a person did. */
export function personOfOutcome(outcome: Outcome | undefined): Person | undefined {
  return outcome?.kind === 'answered' || outcome?.kind === 'dismissed' || outcome?.kind === 'decided' ? outcome.by : undefined
}

/** The outcome a relay's closing shows; `undelivered` names whose answer was lost. */
export function elsewhereOutcome(record: AskRecord, how: CloseHow, at: number): Outcome {
  if (typeof how === 'object') return { kind: 'failed', at, reason: how.failed }
  const by = how === 'undelivered' ? personOfOutcome(record.settlement?.outcome) : undefined
  return { kind: 'settled-elsewhere', at, how, ...(by ? { by } : {}) }
}
