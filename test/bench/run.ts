/**
 * `npm run bench`: speed figures as percentiles and ratios. Timing lives
 * here, never in test assertions. `--quick` runs smaller rounds.
 */
import { benchCardUpdates } from './card-updates.js'
import { benchInstances } from './instances.js'
import { benchProvider } from './provider.js'
import { benchRender } from './render.js'

const quick = process.argv.includes('--quick')

async function section(title: string, run: () => Promise<string[]>): Promise<void> {
  process.stdout.write(`\n${title}\n`)
  for (const line of await run()) process.stdout.write(`  ${line}\n`)
}

async function main(): Promise<void> {
  process.stdout.write(`dsh-slack benchmark (node ${process.version}, ${quick ? 'quick' : 'full'} run)\n`)
  // A missing section is a broken benchmark, not a shorter one: no dynamic import that could be skipped.
  await section('Rendering (blocks/ and the bridge\'s kept bodies)', () => benchRender({ runs: quick ? 10 : 40 }))
  await section('Provider on the local Slack stand-in (Socket Mode)', () =>
    benchProvider(quick ? { sets: 2, rounds: 10, burst: 10, openAsks: 1000, plans: 2, trials: 3 } : { sets: 5, rounds: 30, burst: 100, openAsks: 10_000, plans: 5, trials: 10 }),
  )
  await section('Several instances sharing PostgreSQL (one stand-in app)', () => benchInstances({ rounds: quick ? 30 : 200 }))
  await section('Card updates under load (Tier 3; before: the documented 50 a minute, after: learned)', () =>
    benchCardUpdates(quick ? { asks: 100, spreadMs: 30_000, morePerMinute: 120 } : { asks: 200, spreadMs: 60_000, morePerMinute: 120 }),
  )
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  },
)
