import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkProperty } from '../support/property-runs.js'
import { chunkText, ELLIPSIS, escapeMrkdwn, fitText } from '../../blocks/text.js'

/*
 * fitText and chunkText segment only a window near each cut. The oracles here
 * are the straightforward versions they replaced: segment the whole text and
 * take clusters from the start while they fit. Both must agree on any text.
 */

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

function oracleFit(text: string, max: number, map: (s: string) => string = (s) => s): string {
  if (text.length <= max) {
    const whole = map(text)
    if (whole.length <= max) return whole
  }
  const budget = max - ELLIPSIS.length
  let out = ''
  for (const { segment } of graphemes.segment(text)) {
    const mapped = map(segment)
    if (out.length + mapped.length > budget) break
    out += mapped
  }
  if (out === '') {
    for (const ch of text) {
      const mapped = map(ch)
      if (out.length + mapped.length > budget) break
      out += mapped
    }
  }
  return out + ELLIPSIS
}

function oracleChunks(text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const chunks: string[] = []
  let rest = text
  while (rest.length > max) {
    let taken = ''
    for (const { segment } of graphemes.segment(rest)) {
      if (taken.length + segment.length > max) break
      taken += segment
    }
    if (taken === '') for (const ch of rest) {
      if (taken.length + ch.length > max) break
      taken += ch
    }
    if (taken === '') taken = rest.slice(0, 1)
    chunks.push(taken)
    rest = rest.slice(taken.length)
  }
  if (rest !== '') chunks.push(rest)
  return chunks
}

/** Pieces that UAX #29 joins or splits in unusual ways, and plain text around them. */
const PIECES = [
  'a', 'Z', ' ', '&', '<', '>', '\r', '\n', '\r\n', '\t',
  'e\u0301', '\u0301', '\u0308\u0308', '\u20DD', '\u200D', '\uFE0F', '\u00A9', '\u00AE\uFE0F',
  '👩‍👩‍👧‍👦', '👨🏽‍💻', '🏳️‍🌈', '🏴‍☠️', '\u{1F3FB}', '1\uFE0F\u20E3', '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
  '🇫', '🇷', '🇺', '🇸', '🇫🇷',
  '𝕏', '𠀀', '😀', '\uD800', '\uDC00', '\uDBFF',
  '中', '文', 'か', '\u3099', 'カ', '\uFF76\uFF9E', '한', '\u1100', '\u1161', '\u11A8', '\uAC00\u11A8',
  'क', '\u094D', 'ष', 'ि', '\u0E33', '\u0600', '\u0D4E', 'ب', 'Ж',
]

const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  // Runs longer than any window: a flag run's pairing and a long extend run depend on where they began.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('🇫', '🇸', '\u0301', '👩‍', '😀', 'क\u094D', '\u200D'), fc.integer({ min: 10, max: 120 })).map(([s, n]) => s.repeat(n)) },
)

const text = fc.array(piece, { maxLength: 120, size: 'max' }).map((parts) => parts.join(''))

/** A text and a length that usually cuts it somewhere inside. */
const textAndMax = (min: number) => text.chain((s) => fc.tuple(fc.constant(s), fc.integer({ min, max: Math.max(min, s.length + 2) })))

describe('fitText and chunkText segment only near the cut', () => {
  it('cut where whole-text segmentation cuts, for any text and length', () => {
    checkProperty(
      fc.property(textAndMax(0), ([s, max]) => {
        expect(fitText(s, max)).toBe(oracleFit(s, max))
      }),
      { runs: 3000, timeLimitMs: 3000 },
    )
  })

  it('cut escaped mrkdwn where whole-text segmentation cuts', () => {
    checkProperty(
      fc.property(textAndMax(0), ([s, max]) => {
        expect(fitText(s, max, escapeMrkdwn)).toBe(oracleFit(s, max, escapeMrkdwn))
      }),
      { runs: 2000, timeLimitMs: 3000 },
    )
  })

  it('split into the chunks whole-text segmentation gives', () => {
    checkProperty(
      fc.property(textAndMax(2), ([s, max]) => {
        expect(chunkText(s, max)).toEqual(oracleChunks(s, max))
      }),
      { runs: 1500, timeLimitMs: 3000 },
    )
  })

  it('keeps a cluster whole when the text is one unit longer than a chunk', () => {
    expect(chunkText('abcde\u0301', 5)).toEqual(['abcd', 'e\u0301'])
  })
})
