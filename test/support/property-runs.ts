import fc from 'fast-check'
import { onTestFailed } from 'vitest'

/**
 * The seed CI checks with. CI decides whether work lands, so it checks the
 * same cases every time; finding new ones is what local runs are for.
 */
export const CI_PROPERTY_SEED = 20261202

/**
 * One seed for each test file's run: `FC_SEED` when set (to replay a
 * failure: `FC_SEED=<seed> npm test`), the fixed CI seed under `CI`, and a
 * random one otherwise.
 */
export const PROPERTY_SEED = propertySeed(process.env)

export function propertySeed(env: NodeJS.ProcessEnv): number {
  const given = env.FC_SEED?.trim()
  if (given !== undefined && given !== '') {
    if (!/^-?\d+$/.test(given)) throw new Error(`FC_SEED must be a whole number (the seed a failed property printed), not ${JSON.stringify(env.FC_SEED)}`)
    return Number(given)
  }
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false') return CI_PROPERTY_SEED
  return Math.floor(Math.random() * 0x7fffffff)
}

/**
 * Checks a property with the run's seed, up to `runs` times or until
 * `timeLimitMs` has passed (whichever comes first: more exploration on a
 * fast machine, a bounded suite on a slow one), and prints the seed when the
 * test fails. A time limit only cuts a seed's sequence short, so the CI seed
 * never meets a case it did not meet before.
 */
export function checkProperty<T>(property: fc.IProperty<T>, { runs, timeLimitMs }: { runs: number; timeLimitMs: number }): void {
  onTestFailed(() => {
    console.error(`property failed with seed ${PROPERTY_SEED}: replay with FC_SEED=${PROPERTY_SEED}`)
  })
  fc.assert(property, { seed: PROPERTY_SEED, numRuns: runs, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false })
}
