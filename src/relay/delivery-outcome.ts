import type { SlackBridge } from '../bridge/types.js'
import type { LogLevel } from '../log/logger.js'
import type { RespondResult } from './host-client.js'
import type { Delivery, OutboxEntry } from './outbox.js'
import { describeResponse } from './responses.js'

/** How a message is closed when the host did not take our answer. */
export type Closing = Parameters<SlackBridge['closeElsewhere']>[1]

/** How the host reported a request settled (`question/resolved`, `approval/resolved`). */
export type ResolvedHow = 'answered' | 'cancelled' | 'allowed' | 'rejected'

/** What to do after one respond attempt: keep or drop the entry, what to log, and how to close the message. */
export interface DeliveryOutcome {
  delivery: Delivery
  log: { level: LogLevel; message: string }
  close?: Closing
}

/**
 * Decides what a respond attempt means (DSH-HOST.md receipts):
 * - accepted → delivered;
 * - `not-pending` after the host reported the request settled → someone
 *   else was first: the message says so, as the host reported it;
 * - `not-pending` with no such report → the host no longer holds it (it
 *   restarted, or it ended while we could not hear): the message says the
 *   answer was not delivered, never "answered outside Slack" — unless an
 *   earlier attempt may have gone through, in which case it probably was ours;
 * - `bad-response` (or any other refusal) → the message shows a failure and
 *   the request stays open on the host for its web UI;
 * - no receipt → kept for the next attempt.
 */
export function deliveryOutcome(rpcId: string, entry: OutboxEntry, result: RespondResult, resolvedHow: ResolvedHow | undefined): DeliveryOutcome {
  const what = describeResponse(entry.response)
  const ask = `ask ${entry.askId}`
  switch (result.kind) {
    case 'unreachable':
      return { delivery: 'keep', log: { level: 'warn', message: `could not send ${what} for request ${rpcId} (${result.error.message}); kept for when the host is back` } }
    case 'refused':
      return {
        delivery: 'dropped',
        log: { level: 'error', message: `the host refused the response for request ${rpcId} (${ask}): ${result.error.message}` },
        close: { failed: `the host refused the answer: ${result.error.message}` },
      }
    case 'receipt': {
      const { receipt } = result
      if (receipt.accepted) return { delivery: 'delivered', log: { level: 'info', message: `sent ${what} for request ${rpcId} (${ask})` } }
      if (receipt.reason === 'not-pending' && entry.maybeDelivered) {
        return { delivery: 'delivered', log: { level: 'warn', message: `request ${rpcId} is no longer pending; an earlier attempt probably delivered ${ask}'s answer` } }
      }
      if (receipt.reason === 'not-pending' && resolvedHow !== undefined) {
        return {
          delivery: 'dropped',
          log: { level: 'info', message: `request ${rpcId} was settled on the host (${resolvedHow}) before ${ask}'s answer arrived; the message says so` },
          close: resolvedHow,
        }
      }
      if (receipt.reason === 'not-pending') {
        return {
          delivery: 'dropped',
          log: { level: 'warn', message: `request ${rpcId} is no longer open on the host (restarted, or ended while unreachable); ${ask}'s answer was not delivered and the person is told` },
          close: 'undelivered',
        }
      }
      return {
        delivery: 'dropped',
        log: { level: 'error', message: `the host refused the response for request ${rpcId} (${ask}): ${receipt.reason}; the request stays open on the host` },
        close: { failed: `the host refused the answer (${receipt.reason})` },
      }
    }
    default: {
      const unknown: never = result
      return unknown
    }
  }
}
