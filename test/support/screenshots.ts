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
import { chromium, type Browser, type Locator, type Page } from 'playwright-core'

import { createSlackBridge } from '../../src/slack-app/create-slack-bridge.js'
import type { SlackBridge } from '../../src/bridge/types.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { silentLogger } from '../../src/log/logger.js'
import { startSandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { SAMPLE_ASKS, sampleAskHook } from '../../src/service/sample-asks.js'
import { codeChannelOfSession } from './code-channels.js'

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

/** Sends a sample through the page's panel and waits until its new message is on the page (an earlier one may show the same text). */
async function sendSample(page: Page, label: string, shows: string): Promise<void> {
  const messages = page.locator('.msg', { hasText: shows })
  const before = await messages.count()
  await page.getByRole('button', { name: label, exact: true }).click()
  await messages.nth(before).waitFor()
}

/** The page, the bridge behind it, and where the pictures go: what every shot below takes. */
interface Studio {
  page: Page
  bridge: SlackBridge
  docs: string
}

/** The newest message on the page that shows `text`. */
function newest(page: Page, text: string): Locator {
  return page.locator('.msg', { hasText: text }).last()
}

/** Scrolls the channel to its end, where the newest message is. */
async function scrollToEnd(page: Page): Promise<void> {
  await page.locator('#messages').evaluate((box) => box.scrollTo(0, box.scrollHeight))
}

/** A question with buttons, as it arrives. */
async function questionShot({ page, docs }: Studio): Promise<void> {
  await sendSample(page, 'Question', 'Which package manager')
  await shoot(page, join(docs, 'sandbox-question.png'))
}

/** A multi-select question at phone width, one box ticked: the options are listed once, in the checkboxes. */
async function multiSelectShot({ page, docs }: Studio): Promise<void> {
  await page.setViewportSize(PHONE)
  try {
    await sendSample(page, 'Multi select', 'Which checks must pass before a pull request')
    await newest(page, 'Which checks must pass before a pull request').locator('.choice', { hasText: 'typecheck' }).click()
    await page.locator('body:not([data-busy])').waitFor()
    await scrollToEnd(page)
    await shoot(page, join(docs, 'sandbox-multi-select.png'))
  } finally {
    await page.setViewportSize(DESKTOP)
  }
}

/** The sample plan review on a desktop: headings, lists, code, its risk table as a table block, the controls. */
async function planReviewShot({ page, docs }: Studio): Promise<void> {
  await sendSample(page, 'Plan review', 'Approve this plan')
  await scrollToEnd(page)
  await shoot(page, join(docs, 'sandbox-plan-review.png'))
}

/** The sample plan at phone width, scrolled to its table: it scrolls sideways in its own box, its long column wrapped. */
async function planPhoneShot({ page, docs }: Studio): Promise<void> {
  await page.setViewportSize(PHONE)
  try {
    await sendSample(page, 'Plan review', 'Approve this plan')
    await scrollToEnd(page)
    await newest(page, 'Approve this plan').locator('.b-table-wrap').evaluate((table) => table.scrollIntoView({ block: 'center' }))
    await shoot(page, join(docs, 'sandbox-plan-phone.png'))
  } finally {
    await page.setViewportSize(DESKTOP)
  }
}

/** A tool call long enough to fold: the migrations the agent would run, as a relay posts it. */
const FOLDED_COMMAND = ['set -euo pipefail', ...Array.from({ length: 24 }, (_, i) => `psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f migrations/${String(i + 1).padStart(4, '0')}.sql`), 'systemctl restart shop-api'].join('\n')

/**
 * A folded tool approval at desktop and phone width: the command's first
 * line and its line count on the fold, Allow once and Reject right under it;
 * then at desktop width opened, the whole command in view.
 */
async function foldedApprovalShot({ page, bridge, docs }: Studio): Promise<void> {
  await bridge.openApproval({ toolName: 'bash', reason: 'apply the 24 pending migrations and restart the API', arguments: JSON.stringify({ command: FOLDED_COMMAND, cwd: '/srv/shop' }), agent: { id: 'sess-7f3a', title: 'migrate-bot' } })
  const card = newest(page, 'apply the 24 pending migrations')
  await card.waitFor()
  await scrollToEnd(page)
  await shoot(page, join(docs, 'sandbox-approval-folded.png'))
  await page.setViewportSize(PHONE)
  try {
    await scrollToEnd(page)
    await shoot(page, join(docs, 'sandbox-approval-folded-phone.png'))
  } finally {
    await page.setViewportSize(DESKTOP)
  }
  await card.locator('details.b-container > summary').click()
  await card.getByRole('button', { name: 'Allow once' }).scrollIntoViewIfNeeded()
  await shoot(page, join(docs, 'sandbox-approval-open.png'))
}

/** A question answered by a reply typed in its thread: the reply, and the private note saying what it was recorded as. */
async function threadReplyShot({ page, docs }: Studio): Promise<void> {
  await sendSample(page, 'Question', 'Which package manager')
  await newest(page, 'Which package manager').getByRole('button', { name: 'Reply in thread' }).click()
  await page.locator('#thread-reply-text').fill('yarn berry: the monorepo already uses its workspaces')
  await page.locator('#thread-reply-text').press('Enter')
  await page.locator('#thread-messages .msg.ephemeral', { hasText: 'Recorded your reply' }).waitFor()
  // The ephemeral names the question too: the card is the channel's own message.
  await page.locator('#messages .msg', { hasText: 'Which package manager' }).last().getByText(/Answered by/).waitFor()
  await page.locator('body:not([data-busy])').waitFor()
  await scrollToEnd(page)
  await shoot(page, join(docs, 'sandbox-thread-reply.png'))
  await page.locator('#thread-back').click()
}

/** A plan review that needs two approvals, after the first: "1 of 2 approvals: @alice — waiting for one more". */
async function quorumShot({ page, bridge, docs }: Studio): Promise<void> {
  const plan = { ...SAMPLE_ASKS['plan-review'], questions: [planReviewQuestion(QUORUM_PLAN)] }
  await bridge.open(plan, { policy: { approvals: 2 } })
  const card = newest(page, 'Drop the legacy orders table')
  await card.getByText('Needs 2 approvals').waitFor()
  await card.getByRole('button', { name: 'Approve', exact: true }).click()
  await card.getByText('1 of 2 approvals').waitFor()
  await page.locator('body:not([data-busy])').waitFor()
  await scrollToEnd(page)
  await shoot(page, join(docs, 'sandbox-quorum.png'))
}

const QUORUM_PLAN = `# Drop the legacy orders table

Nothing has read \`orders_v1\` since the March migration; it holds 40 GB.

1. Take a snapshot of \`orders_v1\` (kept 30 days).
2. Revoke the app's grants on it and watch the errors for a day.
3. Drop it.

| step | reversible | owner |
|:-----|:----------:|:------|
| snapshot | yes | ops |
| revoke grants | yes, re-grant | ops |
| drop | from the snapshot only | db team |
`

/** The batch form with the inline error a person gets for an option and an Other text; then fixed and sent. */
async function batchFormShot({ page, docs }: Studio): Promise<void> {
  await sendSample(page, 'Batch', 'Anything else the agent should know')
  await newest(page, 'Anything else the agent should know').getByRole('button', { name: 'Answer…' }).click()
  const modal = page.getByRole('dialog')
  await modal.waitFor()
  // An option and an Other text for one question: the bridge answers with an inline error.
  await modal.getByText('22 LTS', { exact: true }).click()
  await page.locator('body:not([data-busy])').waitFor()
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
  await newest(page, 'Anything else the agent should know').getByText(/Answered by/).waitFor()
}

/** A short batch (decision 0077): every question single-select with at most three short options, so it shows as cards. */
const SHORT_BATCH = {
  questions: [
    { id: 'pm', header: 'Tooling', question: 'Which package manager?', options: [{ label: 'pnpm', description: 'fast installs, strict' }, { label: 'npm' }, { label: 'yarn' }] },
    { id: 'node', header: 'Runtime', question: 'Which Node version?', options: [{ label: '22 LTS' }, { label: '24' }] },
    { id: 'license', header: 'Licence', question: 'Which licence for the new package?', detail: 'The rest of the repository is MIT.', options: [{ label: 'MIT' }, { label: 'Apache-2.0' }] },
  ],
  agent: { id: 'sess-sample-7f3a', title: 'sample-agent' },
}

/**
 * A short batch as a carousel: at desktop width as it arrives; at phone
 * width after alice chose on the first card, with the private note saying
 * what was kept and how many cards are left.
 */
async function carouselShot({ page, bridge, docs }: Studio): Promise<void> {
  await bridge.open(SHORT_BATCH)
  const card = newest(page, 'Which licence for the new package?')
  await card.locator('.b-carousel').waitFor()
  await scrollToEnd(page)
  await shoot(page, join(docs, 'sandbox-carousel.png'))
  await page.setViewportSize(PHONE)
  try {
    await card.locator('.b-card', { hasText: 'Which package manager?' }).getByRole('button', { name: 'pnpm', exact: true }).click()
    await page.locator('.msg.ephemeral', { hasText: 'Noted for' }).last().waitFor()
    await page.locator('body:not([data-busy])').waitFor()
    await scrollToEnd(page)
    await shoot(page, join(docs, 'sandbox-carousel-phone.png'))
  } finally {
    await page.setViewportSize(DESKTOP)
  }
}

/** A question answered with one tap: the controls replaced by who answered what, and when. */
async function answeredShot({ page, docs }: Studio): Promise<void> {
  await sendSample(page, 'Question', 'Which package manager')
  await newest(page, 'Which package manager').getByRole('button', { name: 'pnpm (Recommended)' }).click()
  await newest(page, 'Which package manager').getByText(/Answered by/).waitFor()
  await page.locator('body:not([data-busy])').waitFor()
  await scrollToEnd(page)
  await shoot(page, join(docs, 'sandbox-answered.png'))
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
    const studio: Studio = { page, bridge, docs }
    // Each shot sends what it shows, so they stand alone; the order only decides what is above.
    for (const shot of [questionShot, planReviewShot, planPhoneShot, quorumShot, batchFormShot, answeredShot, multiSelectShot, foldedApprovalShot, threadReplyShot, carouselShot]) await shot(studio)
    await shootHome(browser, docs)
    await shootCodeChannel(browser, docs)
  } finally {
    await browser.close()
    await bridge.stop()
    await slack.close()
  }
}

const CODE_CHANNEL_PLAN = `# Drop the legacy orders column

1. Add \`orders.total_cents\` next to \`orders.total\`.
2. Backfill it in batches of 10,000 rows, watching replication lag.
3. Drop \`orders.total\` once the deploy is done.
4. Remove the fallback read from the API.`

/**
 * A plan review's code channel at desktop and phone width: the context bar,
 * the plan canvas, alice's comment on step 3. Its own stand-in, with the
 * code-channel scopes the default stand-in does not have.
 */
async function shootCodeChannel(browser: Browser, docs: string): Promise<void> {
  const slack = await startSandbox({ scopes: [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write'] })
  const bridge = await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger })
  try {
    await bridge.open({ questions: [planReviewQuestion(CODE_CHANNEL_PLAN)], agent: { id: 'sess-7f3a', title: 'migrate-bot' } })
    const channel = await slack.waitFor(() => {
      return codeChannelOfSession(slack, 'sess-7f3a')?.id
    })
    const canvas = slack.codeChannels.channels.get(channel)!.views[0]!.canvasId!
    slack.user('U0SANDBOX01').commentOnCanvas(canvas, 'once the deploy is done', 'Which deploy: the API or the workers? The workers still read orders.total.')
    const page = await browser.newPage({ viewport: DESKTOP, deviceScaleFactor: 1, timezoneId: 'UTC', locale: 'en-US' })
    await page.goto(`${slack.webUrl}?user=U0SANDBOX01&channel=${channel}`)
    await page.locator('#code-channel .canvas-comment').waitFor()
    await shoot(page, join(docs, 'sandbox-code-channel.png'))
    await page.setViewportSize(PHONE)
    await shoot(page, join(docs, 'sandbox-code-channel-phone.png'))
    await page.close()
  } finally {
    await bridge.stop()
    await slack.close()
  }
}

/**
 * The app's Home tab, "Waiting for you", with asks of every kind open: its
 * own stand-in and bridge, so it depends on nothing the other shots leave.
 */
async function shootHome(browser: Browser, docs: string): Promise<void> {
  const slack = await startSandbox()
  const bridge = await createSlackBridge({ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl, channel: slack.defaultChannel, state: ':memory:', logger: silentLogger })
  try {
    const agent = { id: 'sess-sample-7f3a', title: 'sample-agent' }
    await bridge.open(SAMPLE_ASKS['multi-select'])
    const plan = await bridge.open(SAMPLE_ASKS['plan-review'], { policy: { approvals: 2 } })
    await slack.user('U0SANDBOX02').click(plan.message!, 'Approve')
    await slack.waitFor(() => slack.messages(slack.defaultChannel).find((m) => m.ts === plan.message!.ts && JSON.stringify(m.blocks).includes('1 of 2 approvals')))
    await bridge.openApproval({ toolName: 'bash', reason: 'pnpm install --frozen-lockfile', agent: { ...agent, title: 'refactor-bot' } })
    await bridge.open(SAMPLE_ASKS.question)
    const page = await browser.newPage({ viewport: DESKTOP, deviceScaleFactor: 1, timezoneId: 'UTC', locale: 'en-US' })
    await page.goto(`${slack.webUrl}?user=U0SANDBOX01`)
    await page.locator('body[data-live="on"][data-ready="true"]').waitFor()
    await page.locator('#open-home').click()
    await page.locator('#home').getByText('4 asks wait').waitFor()
    await shoot(page, join(docs, 'sandbox-home.png'))
    await page.close()
  } finally {
    await bridge.stop()
    await slack.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
