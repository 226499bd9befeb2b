/**
 * The stand-in's page draws a carousel's cards and a data table as Slack
 * does, in Chromium: a tap on a card's button is a click like any other, and
 * a data table pages its rows.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { LIMIT } from '../../blocks/limits.js'
import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { silentLogger } from '../../src/log/logger.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { chromiumAvailable, launchChromium } from '../support/browser.js'

const hasChromium = chromiumAvailable('web-page-cards.test.ts')

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

async function openPage(url: string, viewport = { width: 390, height: 844 }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  cleanups.push(() => context.close())
  const page = await context.newPage()
  await page.goto(`${url}?user=U0SANDBOX01`)
  await page.locator('body[data-live="on"][data-ready="true"]').waitFor()
  return page
}

const SHORT_BATCH = {
  questions: [
    { id: 'pm', question: 'Which package manager?', options: [{ label: 'pnpm' }, { label: 'npm' }] },
    { id: 'node', question: 'Which Node version?', options: [{ label: '22' }, { label: '24' }] },
  ],
}

describe.skipIf(!hasChromium)('cards and data tables on the stand-in page in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
  })

  it('answers a short batch with a tap on each card at phone width, and the API returns both choices', async () => {
    const service = await startLocalService()
    const id = await postAsk(service, SHORT_BATCH)
    const page = await openPage(service.webUrl)
    const cards = page.locator('.msg .b-carousel .b-card')
    await cards.first().waitFor()

    await cards.filter({ hasText: 'Which package manager?' }).getByRole('button', { name: 'npm', exact: true }).click()
    await page.locator('.msg.ephemeral', { hasText: '1 of 2 chosen' }).waitFor()
    await cards.filter({ hasText: 'Which Node version?' }).getByRole('button', { name: '24', exact: true }).click()
    const answered = (await (await fetch(`${service.url}/v1/asks/${id}?wait=10`)).json()) as Record<string, unknown>

    expect(answered).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'pm', selected: ['npm'] }, { id: 'node', selected: ['24'] }] } })
    await page.locator('.msg', { hasText: 'Answered by' }).waitFor()
    expect(await page.locator('.msg .b-carousel').count()).toBe(0)
  })

  it('pages a data table twenty rows at a time', async () => {
    const service = await startLocalService()
    const rows = Array.from({ length: LIMIT.dataTableRows - 1 }, (_, i) => `| shard-${i + 1} | low |`).join('\n')
    await postAsk(service, { questions: [planReviewQuestion(`# Migrate\n\n| shard | risk |\n| --- | --- |\n${rows}\n`)] })
    const page = await openPage(service.webUrl, { width: 1280, height: 900 })
    const table = page.locator('.b-data-table').first()
    await table.waitFor()

    await expect.poll(() => table.locator('.b-data-table-page').textContent()).toBe('1–20 of 100')
    expect(await table.locator('caption').textContent()).toBe('shard · risk')
    expect(await table.locator('td', { hasText: /^shard-21$/ }).count()).toBe(0)

    await table.getByRole('button', { name: '›' }).click()

    expect(await table.locator('.b-data-table-page').textContent()).toBe('21–40 of 100')
    expect(await table.locator('td', { hasText: /^shard-21$/ }).count()).toBe(1)
  })
})
