import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach } from 'vitest'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import type { SandboxOptions } from '../../src/sandbox/options.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { recordingLogger } from './e2e.js'
import { freshDatabase } from './postgres.js'
import { sandboxEnv } from './sandbox-env.js'

/** A service on its own stand-in with a policy file, as an operator runs one. */
export interface PolicyService {
  slack: Sandbox
  service: RunningService
  logger: ReturnType<typeof recordingLogger>
  /** The policy file, to rewrite for a reload. */
  path: string
}

/**
 * Services with a policy file for one suite: each in its own folder, state
 * in memory, a SQLite file or a fresh PostgreSQL database, all stopped and
 * removed after each test. Call at the top of a test file.
 */
export function policyServices(prefix: string): { serve(policy: string, options?: { store?: 'memory' | 'sqlite' | 'postgres'; env?: Record<string, string>; sandbox?: SandboxOptions }): Promise<PolicyService>; file(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), `dsh-slack-${prefix}-`))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
  })
  let files = 0
  const file = (name: string, text: string) => {
    const path = join(dir, `${++files}-${name}`)
    writeFileSync(path, text)
    return path
  }
  return {
    file,
    async serve(policy, { store = 'memory', env = {}, sandbox } = {}) {
      const path = file('policy.yml', policy)
      let state = store === 'sqlite' ? join(dir, `${files}-state.db`) : ':memory:'
      if (store === 'postgres') {
        const database = await freshDatabase()
        cleanups.push(() => database.drop())
        state = database.url
      }
      const slack = await startSandbox(sandbox)
      cleanups.push(() => slack.close())
      const logger = recordingLogger()
      const service = await startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: state, DSH_SLACK_POLICY: path, PORT: '0', ...env }), await serviceDeps(), logger)
      cleanups.push(() => service.stop())
      return { slack, service, logger, path }
    },
  }
}
