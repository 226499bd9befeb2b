import type { Outcome } from '../../blocks/view.js'

function who(person: { id: string; name?: string }): string {
  return person.name ? `${person.name} (${person.id})` : person.id
}

/** How an outcome reads in a log line, naming the person by name and id. */
export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'answered':
      return `answered by ${who(outcome.by)}`
    case 'dismissed':
      return `dismissed by ${who(outcome.by)}`
    case 'decided':
      return `${outcome.decision} by ${who(outcome.by)}`
    case 'aborted':
      return 'withdrawn'
    case 'expired':
      return 'expired'
    case 'stopped':
      return 'withdrawn (bridge stopped)'
    case 'settled-elsewhere':
      return `settled outside Slack (${outcome.how})`
    case 'failed':
      return `failed: ${outcome.reason}`
    default: {
      const unreachable: never = outcome
      return unreachable
    }
  }
}
