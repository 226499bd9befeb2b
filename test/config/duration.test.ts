import { describe, expect, it } from 'vitest'
import { formatDuration, parseDuration } from '../../src/config/index.js'

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['500ms', 500],
    ['1h30m', 5_400_000],
    ['1d2h3m4s', 93_784_000],
    ['1.5h', 5_400_000],
    ['90', 90_000],
    [' 30m ', 1_800_000],
  ])('reads %j as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  it.each(['', ' ', 'soon', '30x', '-5m', '30 m', 'm', '1m30', 'h1', '30mm', '1h 30m', '1e3s', 'Infinity'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeNull()
  })

  it('reads 0s as zero, which configuration then refuses', () => {
    expect(parseDuration('0s')).toBe(0)
  })

  it('gives the same answer when called twice, despite its sticky pattern', () => {
    expect(parseDuration('1h30m')).toBe(parseDuration('1h30m'))
    expect(parseDuration('bad')).toBeNull()
    expect(parseDuration('2m')).toBe(120_000)
  })
})

describe('formatDuration', () => {
  it.each([
    [500, '500ms'],
    [90_000, '1m30s'],
    [7_200_000, '2h'],
    [93_784_000, '1d2h3m4s'],
  ])('writes %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })

  it('round-trips through parseDuration', () => {
    for (const ms of [1000, 61_000, 5_400_000, 90_061_000]) expect(parseDuration(formatDuration(ms))).toBe(ms)
  })
})
