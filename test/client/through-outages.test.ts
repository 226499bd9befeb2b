import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { connectToService } from '../../src/index.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { recordingLogger } from '../support/e2e.js'
import { postedMessage, settledMessage } from '../support/messages.js'
import { freshDatabase, type FreshDatabase } from '../support/postgres.js'
import { sandboxEnv } from '../support/sandbox-env.js'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js'

/**
 * A thin client (connectToService) asking through a real service whose
 * PostgreSQL, or whose own connection to the client, goes away mid-ask.
 * Both are cut with TCP proxies the test owns; the shared server is never
 * stopped.
 */

const ALICE = 'U0SANDBOX01'
const pm = { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] }
const cleanups: (() => Promise<void> | void)[] = []
let db: FreshDatabase

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db?.drop()
})

afterEach(async () => {
  while (cleanups.length > 0) await Promise.resolve(cleanups.pop()!()).catch(() => undefined)
})

/** A service on PostgreSQL through `database`, reached by the client through `front`. */
async function rig() {
  const slack: Sandbox = await startSandbox()
  cleanups.push(() => slack.close())
  const pgUrl = new URL(db.url)
  const database = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) })
  cleanups.push(() => database.close())
  const config = configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: database.through(db.url), PORT: '0' })
  const logger = recordingLogger()
  const service: RunningService = await startService(config, await serviceDeps(), logger)
  cleanups.push(() => service.stop())
  const serviceUrl = new URL(service.url)
  const front: TcpProxy = await startTcpProxy({ host: serviceUrl.hostname, port: Number(serviceUrl.port) })
  cleanups.push(() => front.close())
  const connection = connectToService({ url: front.through(service.url).replace(/\/$/, '') })
  cleanups.push(() => connection.stop())
  return { slack, service, logger, database, front, connection, channel: slack.defaultChannel }
}

describe('a thin client through outages', () => {
  it('keeps waiting through a PostgreSQL outage and gets the answer given once it is back', async () => {
    const { slack, logger, database, front, connection, channel } = await rig()
    const answer = connection.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    await vi.waitFor(() => expect(logger.lines.some((line) => line.includes(`(ts ${message.ts})`))).toBe(true))

    // The database goes away and the long-poll's connection breaks: the client asks again, and the service answers 503 until PostgreSQL is back.
    await database.cut()
    front.resetConnections()
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const refusedPolls = logger.lines.filter((line) => /GET \/v1\/asks\/\S+: the postgres store is unreachable .*answered 503/.test(line))
    await database.restore()
    await slack.user(ALICE).click(message, 'npm')

    await expect(answer).resolves.toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
    expect(refusedPolls.length).toBeGreaterThan(0)
  })

  it('retries a POST refused while PostgreSQL is down, and posts it once when the database is back', async () => {
    const { slack, database, connection, channel } = await rig()
    await database.cut()

    const answer = connection.provider.ask({ questions: [pm] })
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(slack.messages(channel)).toHaveLength(0)
    await database.restore()
    const message = await postedMessage(slack, channel)
    await slack.user(ALICE).click(message, 'pnpm')

    await expect(answer).resolves.toEqual({ answers: [{ id: 'pm', selected: ['pnpm'] }] })
    expect(slack.messages(channel)).toHaveLength(1)
  })

  it('does not post twice a POST that reached the service before the connection broke', async () => {
    const { slack, front, connection, channel } = await rig()
    front.breakNextAnswer()

    const answer = connection.provider.ask({ questions: [pm] })
    const message = await postedMessage(slack, channel)
    await slack.user(ALICE).click(message, 'npm')

    await expect(answer).resolves.toEqual({ answers: [{ id: 'pm', selected: ['npm'] }] })
    await settledMessage(slack, channel, message.ts)
    expect(slack.messages(channel)).toHaveLength(1)
  })
})
