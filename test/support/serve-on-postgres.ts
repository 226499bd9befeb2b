import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { cleanEnv, cliSuite, runCli, type CliRun } from '../cli/cli-process.js'
import { freshDatabase, type FreshDatabase } from './postgres.js'

/** One `serve` process of a suite, and the URL its API answers on. */
export interface ServeInstance {
  run: CliRun
  url: string
}

/** What a suite of `serve` processes on one PostgreSQL database and one stand-in holds. */
export interface ServeSuite {
  readonly slack: Sandbox
  /** Starts a `serve` in Socket Mode on the suite's database and stand-in, in its own folder. */
  serve(name: string): Promise<ServeInstance>
}

/**
 * Registers a suite's hooks: the CLI built once, a fresh database and a
 * stand-in for the suite, and every `serve` it started stopped at the end
 * (thawed first, if a test froze it).
 */
export function servesOnPostgres(prefix: string): ServeSuite {
  const suite = cliSuite(prefix)
  const instances: ServeInstance[] = []
  let db: FreshDatabase
  let slack: Sandbox

  beforeAll(async () => {
    db = await freshDatabase()
    slack = await startSandbox()
  }, 60_000)

  afterAll(async () => {
    for (const { run } of instances) {
      if (run.child.signalCode === 'SIGSTOP') run.child.kill('SIGCONT')
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM')
    }
    await Promise.all(instances.map(({ run }) => run.exited))
    await slack?.close()
    await db?.drop()
  }, 60_000)

  return {
    get slack() {
      return slack
    },
    async serve(name) {
      const cwd = join(suite.cwd, name)
      mkdirSync(cwd, { recursive: true })
      const env = { SLACK_BOT_TOKEN: slack.botToken, SLACK_APP_TOKEN: slack.appToken, SLACK_API_URL: slack.apiUrl, SLACK_CHANNEL: slack.defaultChannel, DSH_SLACK_STATE: db.url, PORT: '0' }
      const run = runCli(suite.main, ['serve'], { env: cleanEnv(env), cwd })
      const output = await run.waitForOutput(/API: (http:\/\/\S+)\/v1\/asks/)
      const instance = { run, url: /API: (http:\/\/\S+)\/v1\/asks/.exec(output)![1]! }
      instances.push(instance)
      return instance
    },
  }
}
