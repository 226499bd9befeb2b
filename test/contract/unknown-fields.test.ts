import { describe, expect, it } from 'vitest'
import { formatPath, nearestKey } from '../../src/contract/unknown-fields.js'

describe('nearestKey', () => {
  const question = ['id', 'question', 'detail', 'header', 'options', 'multiSelect', 'intent']

  it.each([
    ['multiselect', 'multiSelect'],
    ['MULTISELECT', 'multiSelect'],
    ['questoin', 'question'],
    ['detial', 'detail'],
    ['headr', 'header'],
    ['option', 'options'],
    ['intnet', 'intent'],
  ])('takes %s for %s', (typed, meant) => {
    expect(nearestKey(typed, question)).toBe(meant)
  })

  it.each(['colour', 'choices', 'x', 'multiple'])('suggests nothing for %s, which is close to no known key', (typed) => {
    expect(nearestKey(typed, question)).toBeUndefined()
  })
})

describe('formatPath', () => {
  it('writes indices in brackets and keys with dots, as in JavaScript', () => {
    expect(formatPath(['questions', 0, 'options', 12, 'lable'])).toBe('questions[0].options[12].lable')
  })
})
