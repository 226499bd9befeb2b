import type { AskUserQuestionItem } from '../../../src/contract/index.js'

/** Short delays so reconnects take milliseconds; no test asserts on time. */
export const FAST = { backoffInitialMs: 10, backoffMaxMs: 40, replayGraceMs: 150 }

/** The question of DSH-HOST.md's example frame. */
export const COLOR: AskUserQuestionItem = {
  id: 'color',
  question: 'Which color do you prefer?',
  header: 'Pick one',
  options: [
    { label: 'Blue', description: 'A cool hue' },
    { label: 'Green', description: 'A restful hue' },
  ],
  multiSelect: false,
}
