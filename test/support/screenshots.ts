/**
 * Takes the README's screenshots of the stand-in's web page: starts the
 * stand-in with the real bridge (as `dsh-slack serve` does without a token),
 * drives the page in Chromium like a person would, and saves PNGs under
 * docs/. Run by `npm run screenshots` (built first, so this runs from dist/
 * and writes into the source tree). Needs Chromium at /usr/bin/chromium or
 * at CHROMIUM_PATH.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Page } from 'playwright-core'

import { createSlackBridge } from '../../src/bridge/create-slack-bridge.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { sampleAskHook } from '../../src/service/sample-asks.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const DESKTOP = { width: 1280, height: 860 }
const PHONE = { width: 390, height: 844 }

/** The package root: the nearest folder above this file holding package.json (works from test/ and dist/test/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('package.json not found above test/support')
    dir = up
  }
  return dir
}

async function shoot(page: Page, file: string): Promise<void> {
  // No hover highlight on whatever the last click left the pointer over.
  await page.mouse.move(0, 0)
  await page.evaluate(() => document.fonts.ready)
  await page.screenshot({ path: file })
  console.log(`wrote ${file} (${Math.round(statSync(file).size / 1024)} KB)`)
}

/** Sends a sample through the page's panel and waits until its message is on the page. */
async function sendSample(page: Page, label: string, shows: string): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).click()
  await page.locator('.msg', { hasText: shows }).last().waitFor()
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`)
  const docs = join(packageRoot(), 'docs')
  mkdirSync(docs, { recursive: true })

  const samples = sampleAskHook()
  const slack = await startSandbox({ samples: samples.samples })
  const bridge = samples.attach(
    await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger }),
  )
  // Playwright gives each launch a fresh, temporary profile.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
  try {
    const page = await browser.newPage({ viewport: DESKTOP, deviceScaleFactor: 1, timezoneId: 'UTC', locale: 'en-US' })
    await page.goto(slack.webUrl)
    await page.locator('body[data-live="on"][data-ready="true"]').waitFor()

    await sendSample(page, 'Question', 'Which package manager')
    await shoot(page, join(docs, 'sandbox-question.png'))

    await sendSample(page, 'Plan review', 'Approve this plan')
    await shoot(page, join(docs, 'sandbox-plan-review.png'))

    await sendSample(page, 'Batch', 'Anything else the agent should know')
    await page.locator('.msg', { hasText: 'Anything else the agent should know' }).getByRole('button', { name: 'Answer…' }).click()
    const modal = page.getByRole('dialog')
    await modal.waitFor()
    // An option and an Other text for one question: the bridge answers with an inline error.
    await modal.getByText('22 LTS', { exact: true }).click()
    await modal.locator('.input-block', { hasText: 'your own answer' }).first().locator('textarea').fill('whatever CI already uses')
    await modal.getByRole('button', { name: 'Submit' }).click()
    await modal.locator('.input-error').first().waitFor()
    await shoot(page, join(docs, 'sandbox-batch-modal.png'))
    // Fixed: only the option, plus a second answer; the batch settles.
    await modal.locator('.input-block', { hasText: 'your own answer' }).first().locator('textarea').fill('')
    await modal.getByText('eu-west-1', { exact: true }).click()
    await page.locator('body:not([data-busy])').waitFor()
    await modal.getByRole('button', { name: 'Submit' }).click()
    await modal.waitFor({ state: 'detached' })

    await page.locator('.msg', { hasText: 'Which package manager' }).getByRole('button', { name: 'pnpm (Recommended)' }).click()
    await page.locator('.msg', { hasText: 'Approve this plan' }).getByRole('button', { name: 'Approve', exact: true }).click()
    await page.locator('.msg', { hasText: 'Approve this plan' }).getByText(/Approved by/).waitFor()
    await page.locator('.msg', { hasText: 'Anything else the agent should know' }).getByText(/Answered by/).waitFor()
    await page.locator('#messages').evaluate((box) => box.scrollTo(0, box.scrollHeight))
    await shoot(page, join(docs, 'sandbox-answered.png'))

    await page.setViewportSize(PHONE)
    await sendSample(page, 'Multi select', 'Which checks must pass before a pull request')
    await page.locator('.msg', { hasText: 'Which checks must pass before a pull request' }).locator('.choice', { hasText: 'typecheck' }).click()
    await page.locator('body:not([data-busy])').waitFor()
    await shoot(page, join(docs, 'sandbox-phone.png'))
  } finally {
    await browser.close()
    await bridge.stop()
    await slack.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
