import fc from 'fast-check'
import { onTestFailed } from 'vitest'

/**
 * One seed for the whole run: random unless `FC_SEED` is set, so a failure
 * found once can be replayed with `FC_SEED=<seed> npm test`.
 */
export const PROPERTY_SEED = process.env.FC_SEED === undefined ? Math.floor(Math.random() * 0x7fffffff) : Number(process.env.FC_SEED)

/**
 * Checks a property with the run's seed, up to `runs` times or until
 * `timeLimitMs` has passed (whichever comes first: more exploration on a
 * fast machine, a bounded suite on a slow one), and prints the seed when the
 * test fails.
 */
export function checkProperty<T>(property: fc.IProperty<T>, { runs, timeLimitMs }: { runs: number; timeLimitMs: number }): void {
  onTestFailed(() => {
    console.error(`property failed with seed ${PROPERTY_SEED}: replay with FC_SEED=${PROPERTY_SEED}`)
  })
  fc.assert(property, { seed: PROPERTY_SEED, numRuns: runs, interruptAfterTimeLimit: timeLimitMs, markInterruptAsFailure: false })
}
