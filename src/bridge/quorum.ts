import type { Person } from '../../blocks/view.js'
import type { AskRecord, Settlement } from '../store/ask-record.js'
import type { Approval } from '../store/team-records.js'

/** Approvals an ask needs before it is approved (1 unless a quorum was set). */
export function requiredApprovals(record: AskRecord): number {
  return record.policy?.approvals ?? 1
}

/** The label that approves a plan review, or undefined for anything else. */
export function approveLabel(record: AskRecord): string | undefined {
  const question = record.kind === 'question' && record.questions.length === 1 ? record.questions[0] : undefined
  if (question?.intent?.kind !== 'plan-review') return undefined
  const label = question.intent.approve
  return question.options.some((option) => option.label === label) ? label : undefined
}

/** Whether approving this ask counts towards a quorum rather than settling it at once. */
export function hasQuorum(record: AskRecord): boolean {
  return requiredApprovals(record) > 1 && (record.kind === 'approval' || approveLabel(record) !== undefined)
}

/**
 * The settlement once the last needed approval arrives: the seam's ordinary
 * answer (`['Approve']` for a plan, `allowed-once` for a tool), by the
 * person who completed the quorum, with every approver on the record.
 */
export function quorumSettlement(record: AskRecord, approvals: Approval[], at: number): Settlement {
  const approvedBy: Person[] = approvals.map((approval) => approval.by)
  const by = approvedBy.at(-1)!
  if (record.kind === 'approval') {
    return { status: 'answered', decision: 'allowed-once', outcome: { kind: 'decided', by, at, decision: 'allowed-once', approvedBy }, approvals }
  }
  const question = record.questions[0]!
  const answers = [{ id: question.id, selected: [approveLabel(record)!] }]
  return { status: 'answered', outcome: { kind: 'answered', by, at, answers, approvedBy }, answer: { answers }, approvals }
}
