import { describe, expect, it } from 'vitest'
import { CI_PROPERTY_SEED, propertySeed } from './property-runs.js'

describe('the seed property tests run with', () => {
  it('is the one FC_SEED gives, to replay a failure', () => {
    expect(propertySeed({ FC_SEED: '1179159489', CI: 'true' })).toBe(1179159489)
    expect(propertySeed({ FC_SEED: ' -7 ' })).toBe(-7)
  })

  it('is the same every time under CI, so the gate checks the cases it checked before', () => {
    expect(propertySeed({ CI: 'true' })).toBe(CI_PROPERTY_SEED)
    expect(propertySeed({ CI: '1', FC_SEED: '' })).toBe(CI_PROPERTY_SEED)
  })

  it('is random elsewhere, so local runs find new cases', () => {
    const seeds = new Set(Array.from({ length: 20 }, () => propertySeed({ CI: 'false' })))
    expect(seeds.size).toBeGreaterThan(1)
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 0).toBe(true)
  })

  it('refuses an FC_SEED that is not a whole number, rather than checking with NaN', () => {
    expect(() => propertySeed({ FC_SEED: 'abc' })).toThrow(/FC_SEED must be a whole number/)
    expect(() => propertySeed({ FC_SEED: '1.5' })).toThrow(/not "1.5"/)
  })
})
