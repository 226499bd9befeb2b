/**
 * vitest global setup: bundles the stand-in page's browser code
 * (scripts/build-page.mjs) once before the suites run, so the page the
 * tests open runs the TypeScript as it is now, not an older build.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export default function buildPage(): void {
  const script = fileURLToPath(new URL('../../scripts/build-page.mjs', import.meta.url))
  const result = spawnSync(process.execPath, [script], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`bundling the stand-in page failed:\n${result.stdout}${result.stderr}`)
}
