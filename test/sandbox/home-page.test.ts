/**
 * The app's Home tab on the stand-in's web page, in a real browser: the
 * service as `npm start` runs it without a token, a person opening Home from
 * the sidebar (the app is sent app_home_opened and publishes the tab) and
 * answering from there. Skipped where Chromium is not installed (a failure
 * under CI instead).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { silentLogger } from '../../src/log/logger.js'
import { SAMPLE_ASKS } from '../../src/service/sample-asks.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { chromiumAvailable, launchChromium } from '../support/browser.js'

const hasChromium = chromiumAvailable('home-page.test.ts')

let browser: Browser
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function startLocalService(): Promise<RunningService & { webUrl: string }> {
  const service = await startService(configFromEnv({ PORT: '0', DSH_SLACK_SANDBOX_PORT: '0', DSH_SLACK_STATE: ':memory:' }), await serviceDeps(), silentLogger)
  cleanups.push(() => service.stop())
  return { ...service, webUrl: service.local!.webUrl! }
}

async function postAsk(service: RunningService, request: unknown): Promise<string> {
  const response = await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })
  expect(response.status).toBe(201)
  return ((await response.json()) as { id: string }).id
}

async function openPage(url: string, query = '?user=U0SANDBOX01'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  cleanups.push(() => context.close())
  const page = await context.newPage()
  page.on('dialog', (dialog) => {
    throw new Error(`the page opened a dialog: ${dialog.message()}`)
  })
  await page.goto(`${url}${query}`)
  await page.locator('body[data-live="on"][data-ready="true"]').waitFor()
  return page
}

describe.skipIf(!hasChromium)('the Home tab on the stand-in web page', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
  })

  it('opens Home from the sidebar and approves a plan review there; the API returns the approval', async () => {
    const service = await startLocalService()
    const id = await postAsk(service, SAMPLE_ASKS['plan-review'])
    const page = await openPage(service.webUrl)

    await page.locator('#open-home').click()
    const home = page.locator('#home')
    await home.getByText('Waiting for you').waitFor()
    await home.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = (await (await fetch(`${service.url}/v1/asks/${id}?wait=10`)).json()) as Record<string, unknown>

    expect(result).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] }, answeredBy: { id: 'U0SANDBOX01' } })
    await home.getByText(/Nothing is waiting for you/).waitFor()
    expect(page.url()).toContain('view=home')
  })

  it('opens Home again when the page is loaded on it, as a Slack client does', async () => {
    const service = await startLocalService()
    await postAsk(service, SAMPLE_ASKS.question)

    const page = await openPage(service.webUrl, '?user=U0SANDBOX01&view=home')

    await page.locator('#home').getByText('Which package manager should the project use?').waitFor()
    expect(await page.locator('#open-home').getAttribute('aria-current')).toBe('true')
  })

  it('shows a new ask on an open Home tab without a reload, and goes back to the channel', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    await page.locator('#open-home').click()
    await page.locator('#home').getByText(/Nothing is waiting for you/).waitFor()

    await postAsk(service, SAMPLE_ASKS.question)

    await page.locator('#home').getByText('Which package manager should the project use?').waitFor()
    await page.locator('#channel-list button', { hasText: 'agents' }).click()
    await page.locator('#messages').getByText('Which package manager should the project use?').waitFor()
    expect(await page.locator('#home').isHidden()).toBe(true)
  })
})
