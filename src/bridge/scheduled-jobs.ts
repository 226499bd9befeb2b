import type { AskRecord } from '../store/ask-record.js'
import type { ScheduledJob } from '../store/team-records.js'

/** The reminder and escalation an ask's policy asks for, due relative to when it was asked. */
export function jobsOf(record: AskRecord): ScheduledJob[] {
  const jobs: ScheduledJob[] = []
  const policy = record.policy
  if (policy?.remindAfterMs !== undefined) jobs.push({ askId: record.id, kind: 'remind', dueAt: record.createdAt + policy.remindAfterMs })
  if (policy?.escalateAfterMs !== undefined && policy.escalateTo !== undefined) jobs.push({ askId: record.id, kind: 'escalate', dueAt: record.createdAt + policy.escalateAfterMs })
  return jobs
}
