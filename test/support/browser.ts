import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (no browser download at install time), or `CHROMIUM_PATH`. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Headless as root, and no calls home: this machine's network refuses them. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking']

/**
 * Whether a browser suite can run. Locally, a missing Chromium skips the
 * suite with the reason printed; under CI (`CI=true`) it fails the file,
 * so a run can never pass without the browser tests.
 */
export function chromiumAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM)) return true
  if (process.env.CI === 'true') throw new Error(`${suite}: no Chromium at ${CHROMIUM}, and CI must run the browser tests (.ci/run installs Debian's chromium)`)
  console.warn(`${suite}: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`)
  return false
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
}
