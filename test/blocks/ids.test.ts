import { describe, expect, it } from 'vitest'
import {
  ACTION_ID_PATTERN,
  CALLBACK_ID_PATTERN,
  decodeActionId,
  decodeCallbackId,
  decodeInputBlockId,
  encodeActionId,
  encodeCallbackId,
  encodeInputBlockId,
  type ActionRef,
  type ViewRef,
} from '../../blocks/ids.js'
import { LIMIT } from '../../blocks/limits.js'

const askId = 'Zx_9-abcDEF0123456789'
const longestAskId = 'a'.repeat(64)

const actions: ActionRef[] = [
  { kind: 'option', askId, question: 0, option: 99 },
  { kind: 'select', askId, question: 3 },
  { kind: 'external-select', askId, question: 1 },
  { kind: 'checkboxes', askId, question: 0 },
  { kind: 'multi-select', askId, question: 2 },
  { kind: 'multi-external-select', askId, question: 4 },
  { kind: 'submit', askId, question: 0 },
  { kind: 'other', askId, question: 7 },
  { kind: 'dismiss', askId },
  { kind: 'skip', askId },
  { kind: 'answer', askId },
  { kind: 'request-changes', askId },
  { kind: 'allow', askId },
  { kind: 'reject', askId },
  { kind: 'link', askId },
]

describe('the id codec', () => {
  it.each(actions)('round-trips a $kind action id', (ref) => {
    const id = encodeActionId(ref)

    expect(decodeActionId(id)).toEqual(ref)
    expect(ACTION_ID_PATTERN.test(id)).toBe(true)
  })

  it.each<ViewRef>([
    { kind: 'other-modal', askId, question: 5 },
    { kind: 'batch-modal', askId, page: 2 },
    { kind: 'feedback-modal', askId },
  ])('round-trips a $kind callback id', (ref) => {
    const id = encodeCallbackId(ref)

    expect(decodeCallbackId(id)).toEqual(ref)
    expect(CALLBACK_ID_PATTERN.test(id)).toBe(true)
  })

  it('round-trips input block ids of the batch form and the text modals', () => {
    for (const ref of [{ kind: 'choice', question: 12 }, { kind: 'other-text', question: 0 }, { kind: 'text' }] as const) {
      expect(decodeInputBlockId(encodeInputBlockId(ref))).toEqual(ref)
    }
  })

  it('stays within Slack\'s 255 characters for the longest ask id and largest indices', () => {
    const id = encodeActionId({ kind: 'multi-external-select', askId: longestAskId, question: 999_999_999 })
    const option = encodeActionId({ kind: 'option', askId: longestAskId, question: 999_999_999, option: 999_999_999 })

    expect(option.length).toBeLessThanOrEqual(LIMIT.blockIdLength)
    expect(id.length).toBeLessThanOrEqual(LIMIT.blockIdLength)
  })

  it('refuses ask ids that would break the format', () => {
    expect(() => encodeActionId({ kind: 'dismiss', askId: 'has:colon' })).toThrow(RangeError)
    expect(() => encodeActionId({ kind: 'dismiss', askId: 'a'.repeat(65) })).toThrow(RangeError)
  })

  it('decodes ids that are not ours, or are malformed, as null', () => {
    for (const id of ['approve_btn', 'dsh2:opt:abc:0:1', 'dsh1:opt:abc:0', 'dsh1:opt:abc:0:1:2', 'dsh1:nope:abc', 'dsh1:opt:abc:x:1', 'dsh1:opt:abc:01:1', 'dsh1:dismiss:abc:3', 'dsh1:dismiss:a b']) {
      expect(decodeActionId(id)).toBeNull()
    }
    expect(decodeCallbackId('dsh1:v-other:abc')).toBeNull()
    expect(decodeCallbackId('dsh1:v-feedback:abc:1')).toBeNull()
    expect(decodeInputBlockId('dsh1:in')).toBeNull()
    expect(decodeInputBlockId('dsh1:in-text:3')).toBeNull()
  })
})
