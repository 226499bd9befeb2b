/**
 * A code channel on the stand-in's page, in Chromium (decision 0073): the
 * plan canvas a plan review opens, a person commenting on step 3, and the
 * agent receiving the comment with Request changes through the service.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { startService } from '../../src/service/start-service.js'
import { chromiumAvailable, launchChromium } from '../support/browser.js'
import { sandboxEnv } from '../support/sandbox-env.js'

const hasChromium = chromiumAvailable('code-channel-page.test.ts')
const ALICE = 'U0SANDBOX01'
const PLAN = '# Drop the legacy column\n\n1. Add the new column\n2. Backfill\n3. Drop the old column once the deploy is done'

let browser: Browser
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function planInCodeChannel(): Promise<{ slack: Sandbox; polling: Promise<Record<string, any>>; channel: string }> {
  const slack = await startSandbox({ scopes: [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write'] })
  cleanups.push(() => slack.close())
  const service = await startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', PORT: '0' }), await serviceDeps(), silentLogger)
  cleanups.push(() => service.stop())
  const body = { questions: [planReviewQuestion(PLAN)], agent: { id: 'ses-page', title: 'migration-agent' } }
  const created = (await (await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { id: string }
  const polling = fetch(`${service.url}/v1/asks/${created.id}?wait=30`).then((response) => response.json() as Promise<Record<string, any>>)
  const channel = await slack.waitFor(() => {
    const id = slack.codeChannels.bySession.get('ses-page')
    return id && slack.codeChannels.channels.get(id)?.contextBar.length ? id : undefined
  })
  return { slack, polling, channel }
}

async function openPage(url: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  cleanups.push(() => context.close())
  const page = await context.newPage()
  await page.goto(url)
  await page.locator('body[data-live="on"][data-ready="true"]').waitFor()
  return page
}

describe.skipIf(!hasChromium)('a code channel on the stand-in page', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('shows the plan canvas; alice comments on step 3 there, and Request changes on the card sends her comment to the agent', async () => {
    const { slack, polling, channel } = await planInCodeChannel()
    const page = await openPage(`${slack.webUrl}?user=${ALICE}&channel=${channel}`)
    const step3 = page.locator('#code-channel .canvas-section', { hasText: '3. Drop the old column' })

    await step3.getByRole('textbox').fill('Which deploy? Say which.')
    await step3.getByRole('button', { name: 'Comment' }).click()
    await step3.locator('.canvas-comment', { hasText: 'Which deploy? Say which.' }).waitFor()
    expect(await page.locator('#code-channel .context-item').allTextContents()).toEqual(['ses-page'])

    const alice = slack.user(ALICE)
    const card = slack.latestMessage(slack.defaultChannel)!
    await alice.click(card, /Request changes/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'See step 3.')
    await alice.submit()

    expect((await polling).answer.answers[0].custom).toBe('See step 3.\n\nComment on the plan canvas:\n\n> 3. Drop the old column once the deploy is done\n- alice (U0SANDBOX01): Which deploy? Say which.')
  })
})
