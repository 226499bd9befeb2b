import type { AskRecord } from '../store/ask-record.js'

/**
 * The service's one log line per ask event. Only ids, names and statuses:
 * never tokens, never the question or answer text (they may be private).
 */
export function postedLine(record: AskRecord): string {
  const where = record.message ? `${record.message.channel} ts=${record.message.ts}` : record.target
  const agent = record.agent?.id ? ` for agent ${record.agent.id}` : ''
  const count = record.kind === 'approval' ? 'an approval' : `${record.questions.length} question${record.questions.length === 1 ? '' : 's'}`
  return `ask ${record.id} posted in ${where}${agent} (${count})`
}

export function settledLine(record: AskRecord): string {
  const outcome = record.settlement?.outcome
  const head = `ask ${record.id}`
  if (!outcome) return `${head} ${record.status}`
  const who = 'by' in outcome ? `${outcome.by.name ? `${outcome.by.name} ` : ''}(${outcome.by.id})` : ''
  switch (outcome.kind) {
    case 'answered':
      return `${head} answered by ${who}`
    case 'dismissed':
      return `${head} cancelled: dismissed by ${who}`
    case 'decided':
      return `${head} ${outcome.decision === 'allowed-once' ? 'allowed' : 'rejected'} by ${who}`
    case 'aborted':
      return `${head} withdrawn by the agent`
    case 'expired':
      return `${head} expired`
    case 'stopped':
      return `${head} withdrawn: the service stopped`
    case 'settled-elsewhere':
      return `${head} closed: ${outcome.how} outside Slack`
    case 'failed':
      return `${head} failed: ${outcome.reason}`
    default: {
      const unknown: never = outcome
      return `${head} ${(unknown as { kind: string }).kind}`
    }
  }
}
