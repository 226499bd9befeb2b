/**
 * The stand-in's web page in a real browser: the service as `npm start` runs
 * it without a token (local stand-in, real bridge, HTTP API), and a person
 * clicking in Chromium. Answers are checked through the service's API.
 * Skipped, with the reason printed, where Chromium is not installed (a
 * failure under CI instead).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { serviceDeps } from '../../src/cli/service-deps.js'
import { configFromEnv } from '../../src/config/config.js'
import { silentLogger } from '../../src/log/logger.js'
import { SAMPLE_ASKS } from '../../src/service/sample-asks.js'
import { startService, type RunningService } from '../../src/service/start-service.js'
import { chromiumAvailable, launchChromium } from '../support/browser.js'
import { planReviewQuestion } from '../../src/contract/plan-review.js'
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js'
import { DEFAULT_SCOPES } from '../../src/sandbox/options.js'
import { sandboxEnv } from '../support/sandbox-env.js'
import { codeChannelOfSession } from '../support/code-channels.js'

const hasChromium = chromiumAvailable('web-page.test.ts')

const ALICE = 'U0SANDBOX01'
const BOB = 'U0SANDBOX02'

let browser: Browser
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined)
})

async function startLocalService(env: Record<string, string> = {}): Promise<RunningService & { webUrl: string }> {
  const service = await startService(configFromEnv({ PORT: '0', DSH_SLACK_SANDBOX_PORT: '0', DSH_SLACK_STATE: ':memory:', ...env }), await serviceDeps(), silentLogger)
  cleanups.push(() => service.stop())
  return { ...service, webUrl: service.local!.webUrl! }
}

/** A port nobody listens on now (the stand-in's port must be the same across a restart). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function postAsk(service: RunningService, request: unknown): Promise<string> {
  const response = await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })
  const body = (await response.json()) as { id: string }
  expect(response.status).toBe(201)
  return body.id
}

async function settled(service: RunningService, id: string): Promise<Record<string, any>> {
  return (await (await fetch(`${service.url}/v1/asks/${id}?wait=10`)).json()) as Record<string, any>
}

/** A plan review of session `ses-page` over HTTP, on a stand-in with the code-channel scopes, once its code channel is in place. */
async function planInCodeChannel(plan: string): Promise<{ slack: Sandbox; polling: Promise<Record<string, any>> }> {
  const slack = await startSandbox({ scopes: [...DEFAULT_SCOPES, 'code_channels:manage', 'canvases:write'] })
  cleanups.push(() => slack.close())
  const service = await startService(configFromEnv({ ...sandboxEnv(slack), DSH_SLACK_STATE: ':memory:', PORT: '0' }), await serviceDeps(), silentLogger)
  cleanups.push(() => service.stop())
  const id = await postAsk(service, { questions: [planReviewQuestion(plan)], agent: { id: 'ses-page', title: 'migration-agent' } })
  await slack.waitFor(() => codeChannelOfSession(slack, 'ses-page'))
  return { slack, polling: settled(service, id) }
}

/** A page on the stand-in, live (its event stream open); any alert() fails the test. */
/** `user: null` opens the page as a newcomer would, without `?user=` (it then acts as the first person, alice). */
async function openPage(url: string, user: string | null = ALICE, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  cleanups.push(() => context.close())
  const page = await context.newPage()
  page.on('dialog', (dialog) => {
    throw new Error(`the page opened a dialog: ${dialog.message()}`)
  })
  await page.goto(user === null ? url : `${url}?user=${user}`)
  await page.locator('body[data-live="on"][data-ready="true"]').waitFor()
  // Set once; still there afterwards proves the page updated without a reload.
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'loaded once'))
  return page
}

async function notReloaded(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (window as unknown as { marker?: string }).marker)
}

// A real browser and a real service per test on two shared cores: more than the default 20 s at times.
describe.skipIf(!hasChromium)('the stand-in web page in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
  })

  it('approves a plan review with a click, and the API returns the approval', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    const id = await postAsk(service, SAMPLE_ASKS['plan-review'])
    const card = page.locator('.msg', { hasText: 'Approve this plan and leave plan mode?' })

    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = await settled(service, id)

    expect(result).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] }, answeredBy: { id: ALICE } })
  })

  it('shows the settled message live, without a reload, and without its buttons', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    const id = await postAsk(service, SAMPLE_ASKS['plan-review'])
    const card = page.locator('.msg', { hasText: 'Approve this plan and leave plan mode?' })
    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    await settled(service, id)

    await card.getByText(/Approved by/).waitFor()

    expect(await card.getByText('@alice').count()).toBeGreaterThan(0)
    expect(await card.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0)
    expect(await notReloaded(page)).toBe('loaded once')
  })

  it('answers a question with Other… through the modal, and the API returns it as custom', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    const id = await postAsk(service, SAMPLE_ASKS.question)
    const card = page.locator('.msg', { hasText: 'Which package manager should the project use?' })

    await card.getByRole('button', { name: 'Other…' }).click()
    const modal = page.getByRole('dialog')
    await modal.getByLabel('Your answer').fill('bun, if CI supports it')
    await modal.getByRole('button', { name: 'Send' }).click()
    const result = await settled(service, id)

    expect(result).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'package-manager', selected: [], custom: 'bun, if CI supports it' }] } })
    await modal.waitFor({ state: 'detached' })
    await card.getByText('bun, if CI supports it').waitFor()
    expect(await notReloaded(page)).toBe('loaded once')
  })

  it('shows the bridge\'s inline error under a modal input and keeps what was typed', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    const id = await postAsk(service, SAMPLE_ASKS.batch)
    await page.locator('.msg', { hasText: '4 questions' }).getByRole('button', { name: 'Answer…' }).click()
    const modal = page.getByRole('dialog')
    const runtime = modal.locator('.input-block').filter({ hasText: 'Choose one' }).first()
    const runtimeOther = modal.locator('.input-block').filter({ hasText: 'your own answer' }).first()

    await runtime.getByText('22 LTS').click()
    // The choice reaches the stand-in as its own request: a Submit sent alongside could overtake it.
    await page.locator('body:not([data-busy])').waitFor()
    await runtimeOther.locator('textarea').fill('whatever CI uses')
    await modal.getByRole('button', { name: 'Submit' }).click()
    await runtimeOther.locator('.input-error').waitFor()

    expect(await runtimeOther.locator('textarea').inputValue()).toBe('whatever CI uses')

    await runtimeOther.locator('textarea').fill('')
    await modal.getByRole('button', { name: 'Submit' }).click()
    const result = await settled(service, id)

    expect(result.answer.answers[0]).toEqual({ id: 'runtime', selected: ['22 LTS'] })
  })

  it('ticks checkboxes and submits a multi-select', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    const id = await postAsk(service, SAMPLE_ASKS['multi-select'])
    const card = page.locator('.msg', { hasText: 'Which checks must pass' })

    await card.getByRole('checkbox', { name: /^lint/ }).check()
    await page.locator('body:not([data-busy])').waitFor()
    await card.getByRole('checkbox', { name: /^unit tests/ }).check()
    await page.locator('body:not([data-busy])').waitFor()
    await card.getByRole('button', { name: 'Submit' }).click()
    const result = await settled(service, id)

    expect(result.answer.answers[0]).toEqual({ id: 'checks', selected: ['lint', 'unit tests'] })
  })

  it('acts as the user picked, who sees a refusal only they can see', async () => {
    const service = await startLocalService({ SLACK_ALLOWED_USERS: ALICE })
    const page = await openPage(service.webUrl, BOB)
    await postAsk(service, SAMPLE_ASKS.question)

    await page.locator('.msg', { hasText: 'Which package manager' }).getByRole('button', { name: 'npm', exact: true }).click()
    const ephemeral = page.locator('.msg[data-ephemeral="true"]')
    await ephemeral.waitFor()

    expect(await page.locator('#user-select').inputValue()).toBe(BOB)
    expect(await ephemeral.textContent()).toContain('Only visible to you')
    const alice = await openPage(service.webUrl, ALICE)
    expect(await alice.locator('.msg[data-ephemeral="true"]').count()).toBe(0)
  })

  it('sends a sample ask from the panel', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)

    await page.getByRole('button', { name: 'Plan review', exact: true }).click()

    await page.locator('.msg', { hasText: 'Approve this plan and leave plan mode?' }).getByRole('button', { name: 'Request changes…' }).waitFor()
    expect(await page.locator('.msg pre.code').count()).toBeGreaterThan(0)
  })

  it('shows untrusted text as text: no HTML, no live @channel, no script links', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    const hostile = '<img src=x onerror=alert(1)> <!channel> <script>alert(2)</script>'

    await postAsk(service, {
      questions: [{ id: 'q', header: '<b>header</b>', question: `Is ${hostile} safe?`, detail: `${hostile}\n\n[click me](javascript:alert(3)) and <https://example.com|fine>`, options: [{ label: '<i>yes</i>' }, { label: '<!here>' }] }],
    })
    const card = page.locator('.msg', { hasText: 'onerror' })
    await card.waitFor()

    expect(await card.textContent()).toContain('<img src=x onerror=alert(1)> <!channel>')
    expect(await page.locator('#messages img, #messages script, #messages b, #messages i').count()).toBe(0)
    expect(await page.locator('.mention.broadcast').count()).toBe(0)
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)
    expect(await card.getByRole('button', { name: '<!here>' }).count()).toBe(1)
  })

  it('keeps an open question across a restart of serve: the same page, without a reload, answers it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-web-restart-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    // One stand-in port for both runs, as npm start keeps it: the stand-in's files are named after it.
    const env = { DSH_SLACK_STATE: join(dir, 'state.sqlite'), DSH_SLACK_SANDBOX_PORT: String(await freePort()) }
    const first = await startLocalService(env)
    const page = await openPage(first.webUrl)
    const id = await postAsk(first, SAMPLE_ASKS['plan-review'])
    const card = page.locator('.msg', { hasText: 'Approve this plan and leave plan mode?' })
    await card.getByRole('button', { name: 'Approve', exact: true }).waitFor()

    await first.stop()
    await page.locator('body[data-live="off"]').waitFor()
    const second = await startLocalService(env)
    await page.locator('body[data-live="on"]').waitFor()
    await card.getByRole('button', { name: 'Approve', exact: true }).click()
    const result = await settled(second, id)

    expect(second.webUrl).toBe(first.webUrl)
    expect(result).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'plan-review', selected: ['Approve'] }] }, answeredBy: { id: ALICE } })
    await card.getByText(/Approved by/).waitFor()
    expect(await notReloaded(page)).toBe('loaded once')
  })

  it('starts clean on a fresh load: a form left open in an earlier session is closed and no longer blocks clicks', async () => {
    const service = await startLocalService()
    const first = await openPage(service.webUrl)
    const id = await postAsk(service, SAMPLE_ASKS.question)
    await first.locator('.msg', { hasText: 'Which package manager' }).getByRole('button', { name: 'Other…' }).click()
    await first.getByRole('dialog').waitFor()

    const page = await openPage(service.webUrl, null)
    await page.locator('.msg', { hasText: 'Which package manager' }).getByRole('button', { name: 'npm', exact: true }).click()
    const result = await settled(service, id)

    expect(await page.getByRole('dialog').count()).toBe(0)
    expect(result).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'package-manager', selected: ['npm'] }] } })
  })

  it('says a click made while the service is down was not sent, instead of "Failed to fetch"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-web-offline-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    // Kept in a file, so stopping leaves the question open (with :memory: it would be withdrawn, its buttons gone).
    const service = await startLocalService({ DSH_SLACK_STATE: join(dir, 'state.sqlite') })
    const page = await openPage(service.webUrl)
    await postAsk(service, SAMPLE_ASKS.question)
    const npm = page.locator('.msg', { hasText: 'Which package manager' }).getByRole('button', { name: 'npm', exact: true })
    await npm.waitFor()

    await service.stop()
    await page.locator('body[data-live="off"]').waitFor()
    await npm.click()
    const toast = page.locator('#toast')
    await toast.waitFor()

    expect(await toast.textContent()).toBe('The service is offline, so this was not sent (nothing changed). Start it again (npm start): this page reconnects by itself.')
  })

  it('keeps the offline notice off the question’s Other…, Skip and Dismiss at phone width, and a tap dismisses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-slack-web-offline-phone-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const service = await startLocalService({ DSH_SLACK_STATE: join(dir, 'state.sqlite') })
    const page = await openPage(service.webUrl, ALICE, { width: 390, height: 844 })
    await postAsk(service, SAMPLE_ASKS.question)
    const card = page.locator('.msg', { hasText: 'Which package manager' })
    await card.getByRole('button', { name: 'npm', exact: true }).waitFor()

    await service.stop()
    await page.locator('body[data-live="off"]').waitFor()
    await card.getByRole('button', { name: 'npm', exact: true }).click()
    const toast = page.locator('#toast')
    await toast.waitFor()
    const notice = (await toast.boundingBox())!
    const covered: string[] = []
    for (const name of ['Other…', 'Skip', 'Dismiss']) {
      const box = (await card.getByRole('button', { name, exact: true }).boundingBox())!
      const apart = box.y >= notice.y + notice.height || box.y + box.height <= notice.y || box.x >= notice.x + notice.width || box.x + box.width <= notice.x
      if (!apart) covered.push(name)
    }
    await toast.click()

    expect(covered).toEqual([])
    expect(await toast.isHidden()).toBe(true)
  })

  it('fits a phone-width screen: the question and its buttons without sideways scrolling', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl, ALICE, { width: 390, height: 844 })
    await postAsk(service, SAMPLE_ASKS['plan-review'])
    const approve = page.getByRole('button', { name: 'Approve', exact: true })
    await approve.waitFor()

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    const box = await approve.boundingBox()

    expect(overflow).toBe(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(390)
  })

  it('reaches the Home tab at phone width, where the sidebar is hidden, through the channel picker', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl, ALICE, { width: 390, height: 844 })
    await postAsk(service, SAMPLE_ASKS['plan-review'])
    await page.getByRole('button', { name: 'Approve', exact: true }).first().waitFor()

    expect(await page.locator('#sidebar, .sidebar').first().isVisible()).toBe(false)
    await page.locator('#channel-select').selectOption({ label: 'dsh-slack · Home' })
    const home = page.locator('#home')
    await home.getByRole('button', { name: 'Approve', exact: true }).waitFor()

    expect(await home.isVisible()).toBe(true)
    expect(await home.textContent()).toContain('Waiting for you')
  })

  it("opens a message's permalink at that message, and a thread reply's in its thread", async () => {
    const service = await startLocalService()
    const posted = await fetch(`${service.url}/v1/asks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SAMPLE_ASKS.question) })
    const record = (await posted.json()) as { channel: string; ts: string; permalink: string }
    const api = async (method: string, args: Record<string, string>): Promise<Record<string, any>> =>
      (await (await fetch(`${service.local!.apiUrl}${method}`, { method: 'POST', headers: { authorization: `Bearer ${service.local!.botToken}`, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(args) })).json()) as Record<string, any>
    const reply = await api('chat.postMessage', { channel: record.channel, thread_ts: record.ts, text: 'A reply in the thread' })
    const replyLink = (await api('chat.getPermalink', { channel: record.channel, message_ts: reply.ts as string })).permalink as string

    const direct = await fetch(record.permalink)
    const page = await openPage(record.permalink, null)
    const focused = page.locator('#messages .msg.focused')
    const threadPage = await openPage(replyLink, null)
    const inThread = threadPage.locator('#thread-messages .msg.focused')

    expect(direct.status).toBe(200)
    expect(direct.headers.get('content-type')).toContain('text/html')
    expect(record.permalink).toMatch(new RegExp(`^${service.webUrl.replace(/\/$/, '')}/archives/${record.channel}/p\\d+$`))
    expect(await focused.textContent()).toContain('Which package manager')
    expect(await threadPage.locator('#thread').isVisible()).toBe(true)
    expect(await inThread.textContent()).toContain('A reply in the thread')
  })

  it("draws a plan's table block as a grid at phone width: a header row, narrow columns on one line, wide ones wrapped between words, in its own box", async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl, ALICE, { width: 390, height: 844 })
    await postAsk(service, SAMPLE_ASKS['plan-review'])
    const table = page.locator('.b-table')
    await table.waitFor()

    const headers = await table.locator('th').allTextContents()
    // Lines a cell's text takes on screen: the distinct tops of its text's boxes.
    const lines = (text: string) => table.locator('td', { hasText: text }).first().evaluate((td) => {
      const tops = new Set<number>()
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const rect of range.getClientRects()) tops.add(Math.round(rect.top))
      }
      return tops.size
    })
    const wrap = await table.locator('xpath=..').evaluate((box) => ({ box: box.getBoundingClientRect().right, page: document.documentElement.scrollWidth - document.documentElement.clientWidth }))

    expect(headers).toEqual(['risk', 'likelihood', 'mitigation'])
    expect(await lines('medium')).toBe(1)
    expect(await lines('Docker builds copy the wrong folder')).toBeGreaterThan(1)
    expect(wrap.box).toBeLessThanOrEqual(390)
    expect(wrap.page).toBe(0)
  })
  it('folds a long tool call at phone width: Allow once on the first screen, the first line in view, the whole command one tap away', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl, ALICE, { width: 390, height: 844 })
    const command = ['set -euo pipefail', ...Array.from({ length: 60 }, (_, i) => `psql "$DATABASE_URL" -f migrations/${i}.sql`)].join('\n')
    await service.bridge.openApproval({ toolName: 'bash', reason: 'apply the migrations', arguments: JSON.stringify({ command }) })
    const allow = page.getByRole('button', { name: 'Allow once', exact: true })
    await allow.waitFor()
    const fold = page.locator('details.b-container')
    const code = fold.locator('pre.code')

    const folded = { open: await fold.evaluate((d) => (d as HTMLDetailsElement).open), codeShown: await code.isVisible(), summary: await fold.locator('summary').textContent() }
    const button = await allow.boundingBox()
    await fold.locator('summary').click()

    expect(folded).toEqual({ open: false, codeShown: false, summary: 'Commandset -euo pipefail (+60 more lines)' })
    expect(button!.y + button!.height).toBeLessThanOrEqual(844)
    expect(await code.isVisible()).toBe(true)
    expect(await code.textContent()).toContain('migrations/0.sql')
  })
  it('answers a question by a reply typed in its thread: the app hears the message event, the API returns the reply as the Other answer', async () => {
    const service = await startLocalService()
    const page = await openPage(service.webUrl)
    const id = await postAsk(service, SAMPLE_ASKS.question)
    const card = page.locator('#messages .msg', { hasText: 'Which package manager' })
    await card.getByRole('button', { name: 'Reply in thread' }).click()
    await page.locator('#thread-reply-text').fill('yarn <berry> & PnP')
    await page.locator('#thread-reply-text').press('Enter')

    const answer = await settled(service, id)
    const reply = page.locator('#thread-messages .msg', { hasText: 'yarn <berry> & PnP' })
    await page.locator('#thread-messages .msg.ephemeral', { hasText: 'Recorded your reply' }).waitFor()

    expect(answer).toMatchObject({ status: 'answered', answer: { answers: [{ id: 'package-manager', selected: [], custom: 'yarn <berry> & PnP' }] } })
    expect(await reply.count()).toBe(1)
    expect(await page.locator('#thread-reply-text').inputValue()).toBe('')
  })

  it('shows a plan review’s code channel with its canvas; alice comments on step 3 there, and Request changes sends her comment to the agent', async () => {
    const { slack, polling } = await planInCodeChannel('# Drop the legacy column\n\n1. Add the new column\n2. Backfill\n3. Drop the old column once the deploy is done')
    const page = await openPage(slack.webUrl)
    await page.locator('#channel-list').getByRole('button', { name: /agent-plan-migration-agent/ }).click()
    const step3 = page.locator('#code-channel .canvas-section', { hasText: '3. Drop the old column' })

    await step3.getByRole('textbox').fill('Which deploy? Say which.')
    await step3.getByRole('button', { name: 'Comment' }).click()
    await step3.locator('.canvas-comment', { hasText: 'Which deploy? Say which.' }).waitFor()
    const alice = slack.user(ALICE)
    await alice.click(slack.latestMessage(slack.defaultChannel)!, /Request changes/)
    await slack.waitFor(() => alice.modal())
    alice.fill(/.*/, 'See step 3.')
    await alice.submit()

    expect(await page.locator('#code-channel .context-item').allTextContents()).toEqual(['ses-page'])
    expect((await polling).answer.answers[0].custom).toBe('See step 3.\n\nComment on the plan canvas:\n\n> 3. Drop the old column once the deploy is done\n- alice (U0SANDBOX01): Which deploy? Say which.')
  })
})
