import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { auditCommand } from '../../src/cli/audit.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { startService } from '../../src/service/start-service.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { createApiServer, type ApiServer } from '../../src/http/api-server.js'
import { silentLogger } from '../../src/log/logger.js'
import { eventually, startRig } from '../support/e2e.js'
import { postedMessage } from '../support/messages.js'
import { memoryIo } from '../support/memory-io.js'

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'
const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-audit-'))
const servers: ApiServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the audit trail', () => {
  it('lists asks and gives each ask’s events over the HTTP API, and exports them with dsh-slack audit', async () => {
    const state = join(dir, 'audit.sqlite')
    const { slack, bridge, channel } = await startRig('socket', { state, owner: 'service' })
    const plan = await bridge.open({ questions: [planReviewQuestion('# Plan\n\nDrop the table.')] }, { policy: { approvals: 2 } })
    const card = await postedMessage(slack, channel)
    await slack.user(ALICE).click(card, 'Approve')
    await eventually(async () => (await bridge.store.approvals(plan.id)).length === 1)
    await slack.user(BOB).click(card, 'Approve')
    await bridge.waitForSettlement(plan.id, 10_000)
    const open = await bridge.open({ questions: [{ id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }] })
    const api = createApiServer({ bridge, logger: silentLogger })
    servers.push(api)
    const { url } = await api.listen('127.0.0.1', 0)

    const all = (await (await fetch(`${url}/v1/asks`)).json()) as { asks: { id: string; status: string }[] }
    const pending = (await (await fetch(`${url}/v1/asks?status=pending&since=1h`)).json()) as { asks: { id: string }[] }
    const firstPage = (await (await fetch(`${url}/v1/asks?limit=1`)).json()) as { asks: { id: string }[]; nextCursor: string }
    const secondPage = (await (await fetch(`${url}/v1/asks?limit=1&cursor=${firstPage.nextCursor}`)).json()) as { asks: { id: string }[]; nextCursor?: string }
    const events = (await (await fetch(`${url}/v1/asks/${plan.id}/events`)).json()) as { events: { type: string; by?: { id: string }; detail?: Record<string, unknown> }[] }
    const badStatus = await fetch(`${url}/v1/asks?status=done`)
    const unknown = await fetch(`${url}/v1/asks/no-such-ask/events`)

    expect(all.asks.map((ask) => [ask.id, ask.status])).toEqual([
      [open.id, 'pending'],
      [plan.id, 'answered'],
    ])
    expect(pending.asks.map((ask) => ask.id)).toEqual([open.id])
    expect([...firstPage.asks, ...secondPage.asks].map((ask) => ask.id)).toEqual([open.id, plan.id])
    expect(secondPage.nextCursor).toBeUndefined()
    expect(events.events.map((event) => [event.type, event.by?.id])).toEqual([
      ['posted', undefined],
      ['approved', ALICE],
      ['approved', BOB],
      ['answered', BOB],
    ])
    expect(events.events[0]!.detail).toMatchObject({ channel, ts: card.ts })
    expect(events.events[3]!.detail).toMatchObject({ answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] }, approvedBy: [{ id: ALICE }, { id: BOB }] })
    expect(badStatus.status).toBe(400)
    expect(unknown.status).toBe(404)

    // With a bot token, audit reads DSH_SLACK_STATE itself, as serve would.
    const jsonl = memoryIo({ DSH_SLACK_STATE: state, SLACK_BOT_TOKEN: slack.botToken })
    const csv = memoryIo({ DSH_SLACK_STATE: state, SLACK_BOT_TOKEN: slack.botToken })
    expect(await auditCommand(['--since', '7d'], jsonl.io)).toBe(0)
    expect(await auditCommand(['--format', 'csv'], csv.io)).toBe(0)

    const lines = jsonl.output().trim().split('\n').map((line) => JSON.parse(line) as { askId: string; type: string })
    expect(lines.map((line) => line.type)).toEqual(['posted', 'approved', 'approved', 'answered', 'posted'])
    expect(lines.at(-1)!.askId).toBe(open.id)
    const rows = csv.output().trim().split('\n')
    expect(rows[0]).toBe('seq,at,askId,type,byId,byName,detail,rule,key')
    expect(rows).toHaveLength(6)
    expect(rows[4]).toContain(`,answered,${BOB},`)
  })

  it('exports a cell a spreadsheet would run as text: a Slack name beginning with = or @ gets a leading quote in the CSV', async () => {
    const state = join(dir, 'formula.sqlite')
    const users = [{ id: ALICE, name: '=HYPERLINK("https://evil.example","pay")' }, { id: BOB, name: '@bob' }]
    const { slack, bridge, channel } = await startRig('socket', { state, owner: 'service' }, { users })
    const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'npm' }, { label: 'pnpm' }] }
    const first = await bridge.open({ questions: [pm] })
    await slack.user(ALICE).click(await postedMessage(slack, channel), 'npm')
    await bridge.waitForSettlement(first.id, 10_000)
    const second = await bridge.open({ questions: [pm] })
    await slack.user(BOB).click(await postedMessage(slack, channel), 'pnpm')
    await bridge.waitForSettlement(second.id, 10_000)
    const csv = memoryIo({ DSH_SLACK_STATE: state, SLACK_BOT_TOKEN: slack.botToken })

    expect(await auditCommand(['--format', 'csv'], csv.io)).toBe(0)

    const answered = csv.output().trim().split('\n').filter((row) => row.includes(',answered,'))
    expect(answered[0]).toContain(`,${ALICE},"'=HYPERLINK(""https://evil.example"",""pay"")",`)
    expect(answered[1]).toContain(`,${BOB},'@bob,`)
  })

  it('finds a stand-in session’s asks the way serve does, without a token: the stand-in’s own file', async () => {
    const folder = mkdtempSync(join(dir, 'stand-in-'))
    const env = { DSH_SLACK_STATE: join(folder, 'state.sqlite'), DSH_SLACK_SANDBOX_PORT: '0', PORT: '0' }
    const service = await startService(configFromEnv(env), await serviceDeps(), silentLogger)
    const created = await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ questions: [{ id: 'go', question: 'Deploy now?' }] }) })
    await service.stop()
    const audit = memoryIo(env)

    expect(await auditCommand([], audit.io)).toBe(0)

    expect(created.status).toBe(201)
    expect(audit.output()).toContain('"type":"posted"')
    expect(audit.errors()).toContain(`reading ${join(folder, 'sandbox-0.sqlite')} (the local stand-in's asks, as SLACK_BOT_TOKEN is not set)`)
  })

  it('says where it looked when there is no state, and creates none', async () => {
    const folder = mkdtempSync(join(dir, 'empty-'))
    const audit = memoryIo({ DSH_SLACK_STATE: join(folder, 'state.sqlite') })

    expect(await auditCommand([], audit.io)).toBe(0)

    expect(audit.output()).toBe('')
    expect(audit.errors()).toContain(`no state at ${join(folder, 'sandbox-4100.sqlite')} (the local stand-in's asks, as SLACK_BOT_TOKEN is not set), so nothing to export`)
    expect(readdirSync(folder)).toEqual([])
  })
})
