import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRig } from '../support/e2e.js'
import { postedMessage, visibleText } from '../support/messages.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'

let db: FreshDatabase

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db?.drop()
})

describe('the Home tab with instances sharing PostgreSQL', () => {
  it('refreshes a tab opened on one instance when another opens the ask, and again when the first settles it', async () => {
    // HTTP mode, so each delivery goes to the instance the test names.
    const { slack, bridge: first, channel, restartBridge } = await startRig('http', { state: db.url })
    const homeText = () => visibleText({ text: '', blocks: slack.user(ALICE).home()?.blocks ?? [] })
    await slack.user(ALICE).openHome()
    await slack.waitFor(() => homeText().includes('Nothing is waiting'))

    const second = await restartBridge()
    const record = await second.open({ questions: [{ id: 'pm', question: 'Asked on the second instance?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] })
    await slack.waitFor(() => homeText().includes('Asked on the second instance?'))
    slack.deliverInteractionsTo({ kind: 'http', url: first.slackEventsUrl!, signingSecret: slack.signingSecret })
    await slack.user(BOB).click(await postedMessage(slack, channel), 'pnpm')

    await slack.waitFor(() => homeText().includes('Nothing is waiting'))
    expect((await second.waitForSettlement(record.id, 10_000))?.status).toBe('answered')
  })
})
