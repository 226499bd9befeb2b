/**
 * The one codec for every action_id, block_id and callback_id dsh-slack puts
 * in Slack. Renderers encode here, handlers decode here and register with the
 * patterns exported here, so an id typed twice cannot drift.
 *
 * Format: `dsh1:<kind>:<askId>[:<question>[:<option>]]`. Option values on the
 * wire are indices; the exact labels stay in the ask record (Slack may show a
 * label shortened, the answer never is).
 */
import { LIMIT } from './limits.js'

/** The version prefix: a future format change gets `dsh2:` and both decode side by side. */
export const ID_PREFIX = 'dsh1'

/** Ask ids are chosen by the store; this is what fits in an id segment. */
export const ASK_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** Interactive elements of a message, and what each one means. */
export type ActionRef =
  /** A button for one option (one tap answers single-select; Approve on a plan card). */
  | { kind: 'option'; askId: string; question: number; option: number }
  /** A static select (single) of one question: `selected_option.value` is the option index. */
  | { kind: 'select'; askId: string; question: number }
  /** An options-load select (beyond 100 options): values are option indices. */
  | { kind: 'external-select'; askId: string; question: number }
  /** Checkboxes of a multi-select question (read at Submit from state.values). */
  | { kind: 'checkboxes'; askId: string; question: number }
  /** A multi static select of a multi-select question. */
  | { kind: 'multi-select'; askId: string; question: number }
  /** A multi external select (beyond 100 options). */
  | { kind: 'multi-external-select'; askId: string; question: number }
  /** Submit of a multi-select question: the choice is read from state.values. */
  | { kind: 'submit'; askId: string; question: number }
  /** Other…: opens the free-text modal for one question. */
  | { kind: 'other'; askId: string; question: number }
  /** Dismiss: the person declines to answer (ASK_CANCELLED). */
  | { kind: 'dismiss'; askId: string }
  /** Skip: answers with nothing selected (`{ id, selected: [] }`), unlike Dismiss. */
  | { kind: 'skip'; askId: string }
  /** Answer…: opens the batch form modal. */
  | { kind: 'answer'; askId: string }
  /** Request changes…: opens the plan feedback modal. */
  | { kind: 'request-changes'; askId: string }
  /** Tool approval card: allow once. */
  | { kind: 'allow'; askId: string }
  /** Tool approval card: reject. */
  | { kind: 'reject'; askId: string }
  /** A link button (e.g. to the full plan): Slack still sends an action, which we only ack. */
  | { kind: 'link'; askId: string }

export type ActionKind = ActionRef['kind']

/** Modal views, by callback_id. */
export type ViewRef =
  | { kind: 'other-modal'; askId: string; question: number }
  | { kind: 'batch-modal'; askId: string; page: number }
  | { kind: 'feedback-modal'; askId: string }

/** Input blocks of a modal, by block_id (response_action errors are keyed by it). */
export type InputRef =
  /** The choice input of question n in the batch form. */
  | { kind: 'choice'; question: number }
  /** The optional Other text of question n in the batch form. */
  | { kind: 'other-text'; question: number }
  /** The single text box of the Other and feedback modals. */
  | { kind: 'text' }

const ACTION_CODES = {
  option: 'opt',
  select: 'sel',
  'external-select': 'ext',
  checkboxes: 'chk',
  'multi-select': 'msel',
  'multi-external-select': 'mext',
  submit: 'submit',
  other: 'other',
  dismiss: 'dismiss',
  skip: 'skip',
  answer: 'answer',
  'request-changes': 'changes',
  allow: 'allow',
  reject: 'reject',
  link: 'link',
} as const satisfies Record<ActionKind, string>

const VIEW_CODES = { 'other-modal': 'v-other', 'batch-modal': 'v-batch', 'feedback-modal': 'v-feedback' } as const satisfies Record<ViewRef['kind'], string>

const INPUT_CODES = { choice: 'in', 'other-text': 'in-other', text: 'in-text' } as const satisfies Record<InputRef['kind'], string>

/** Segments after the askId each kind carries. */
const ACTION_ARITY: Record<ActionKind, 0 | 1 | 2> = {
  option: 2,
  select: 1,
  'external-select': 1,
  checkboxes: 1,
  'multi-select': 1,
  'multi-external-select': 1,
  submit: 1,
  other: 1,
  dismiss: 0,
  skip: 0,
  answer: 0,
  'request-changes': 0,
  allow: 0,
  reject: 0,
  link: 0,
}

function invert<T extends Record<string, string>>(table: T): Map<string, keyof T> {
  return new Map(Object.entries(table).map(([kind, code]) => [code, kind as keyof T]))
}

const ACTION_KINDS = invert(ACTION_CODES)
const VIEW_KINDS = invert(VIEW_CODES)
const INPUT_KINDS = invert(INPUT_CODES)

function checkAskId(askId: string): string {
  if (!ASK_ID_PATTERN.test(askId)) throw new RangeError(`ask id ${JSON.stringify(askId)} does not match ${ASK_ID_PATTERN}`)
  return askId
}

function index(segment: string | undefined): number | null {
  if (segment === undefined || !/^(0|[1-9][0-9]{0,8})$/.test(segment)) return null
  return Number(segment)
}

function join(parts: (string | number)[]): string {
  const id = [ID_PREFIX, ...parts].join(':')
  // The longest id we make is well under the limit; this guards the invariant.
  if (id.length > LIMIT.blockIdLength) throw new RangeError(`id longer than ${LIMIT.blockIdLength} characters`)
  return id
}

export function encodeActionId(ref: ActionRef): string {
  const parts: (string | number)[] = [ACTION_CODES[ref.kind], checkAskId(ref.askId)]
  if ('question' in ref) parts.push(ref.question)
  if ('option' in ref) parts.push(ref.option)
  return join(parts)
}

/** The typed meaning of an action_id, or `null` when it is not one of ours. */
export function decodeActionId(actionId: string): ActionRef | null {
  const [prefix, code, askId, ...rest] = actionId.split(':')
  if (prefix !== ID_PREFIX || code === undefined || askId === undefined || !ASK_ID_PATTERN.test(askId)) return null
  const kind = ACTION_KINDS.get(code)
  if (kind === undefined || rest.length !== ACTION_ARITY[kind]) return null
  const numbers = rest.map(index)
  if (numbers.some((n) => n === null)) return null
  const [question, option] = numbers as number[]
  switch (kind) {
    case 'option':
      return { kind, askId, question: question!, option: option! }
    case 'select':
    case 'external-select':
    case 'checkboxes':
    case 'multi-select':
    case 'multi-external-select':
    case 'submit':
    case 'other':
      return { kind, askId, question: question! }
    case 'dismiss':
    case 'skip':
    case 'answer':
    case 'request-changes':
    case 'allow':
    case 'reject':
    case 'link':
      return { kind, askId }
    default: {
      const unreachable: never = kind
      return unreachable
    }
  }
}

export function encodeCallbackId(ref: ViewRef): string {
  const parts: (string | number)[] = [VIEW_CODES[ref.kind], checkAskId(ref.askId)]
  if (ref.kind === 'other-modal') parts.push(ref.question)
  if (ref.kind === 'batch-modal') parts.push(ref.page)
  return join(parts)
}

export function decodeCallbackId(callbackId: string): ViewRef | null {
  const [prefix, code, askId, ...rest] = callbackId.split(':')
  if (prefix !== ID_PREFIX || code === undefined || askId === undefined || !ASK_ID_PATTERN.test(askId)) return null
  const kind = VIEW_KINDS.get(code)
  switch (kind) {
    case 'other-modal':
    case 'batch-modal': {
      const n = rest.length === 1 ? index(rest[0]) : null
      if (n === null) return null
      return kind === 'other-modal' ? { kind, askId, question: n } : { kind, askId, page: n }
    }
    case 'feedback-modal':
      return rest.length === 0 ? { kind, askId } : null
    default:
      return null
  }
}

export function encodeInputBlockId(ref: InputRef): string {
  return ref.kind === 'text' ? join([INPUT_CODES.text]) : join([INPUT_CODES[ref.kind], ref.question])
}

export function decodeInputBlockId(blockId: string): InputRef | null {
  const [prefix, code, ...rest] = blockId.split(':')
  if (prefix !== ID_PREFIX || code === undefined) return null
  const kind = INPUT_KINDS.get(code)
  if (kind === 'text') return rest.length === 0 ? { kind } : null
  if (kind === 'choice' || kind === 'other-text') {
    const n = rest.length === 1 ? index(rest[0]) : null
    return n === null ? null : { kind, question: n }
  }
  return null
}

/** Bolt listener patterns: every action / view of ours, and nothing else. */
export const ACTION_ID_PATTERN = new RegExp(`^${ID_PREFIX}:`)
export const CALLBACK_ID_PATTERN = new RegExp(`^${ID_PREFIX}:v-`)
