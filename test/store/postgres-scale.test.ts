import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PostgresAskStore } from '../../src/store/postgres/postgres-ask-store.js'
import { TEAM_SQL } from '../../src/store/postgres/team-queries.js'
import { decodeAskCursor } from '../../src/store/team-records.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { pendingRecord } from './ask-store-conformance.js'

/**
 * What a statement costs as the pending asks grow (issue 43): read from
 * PostgreSQL's own account of the plan it ran (EXPLAIN ANALYZE), so the
 * check does not depend on the machine's speed.
 */

interface PlanNode {
  'Node Type': string
  'Actual Rows': number
  'Rows Removed by Filter'?: number
  Plans?: PlanNode[]
}

/** Rows the plan's scans read: those returned and those read only to be filtered out. */
function rowsRead(node: PlanNode): number {
  const own = node['Node Type'].includes('Scan') ? node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) : 0
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0)
}

let db: FreshDatabase
let store: PostgresAskStore
const ASKS = 1_000

beforeAll(async () => {
  db = await freshDatabase()
  store = await PostgresAskStore.open(db.url)
  for (let start = 0; start < ASKS; start += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, j) => store.insert(pendingRecord({ id: `page-${String(start + j).padStart(4, '0')}`, createdAt: 1_700_000_000_000 + start + j }))))
  }
  await explain('ANALYZE')
}, 60_000)

afterAll(async () => {
  await store?.close()
  await db?.drop()
})

async function explain(text: string, values: unknown[] = []): Promise<PlanNode> {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  try {
    const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(text, values)
    return result.rows[0]?.['QUERY PLAN']?.[0]?.Plan as PlanNode
  } finally {
    await client.end()
  }
}

describe('GET /v1/asks paged on PostgreSQL', () => {
  it('reads a page deep in the list from its cursor on, not every ask newer than the cursor again', async () => {
    let page = await store.listAsks({ status: 'pending', limit: 50 })
    for (let i = 1; i < 12; i++) page = await store.listAsks({ status: 'pending', limit: 50, cursor: page.nextCursor! })
    const after = decodeAskCursor(page.nextCursor!)!

    const plan = await explain(`EXPLAIN (ANALYZE, FORMAT JSON) ${TEAM_SQL.listAsks}`, ['pending', 0, after.createdAt, after.id, 51, null, null])

    expect(page.asks).toHaveLength(50)
    // 600 asks are newer than the cursor: a page that reads them all again makes paging through N asks cost N²/2 rows.
    expect(rowsRead(plan)).toBeLessThanOrEqual(60)
  })
})
