/**
 * Every Slack limit dsh-slack respects, in one table (shared/SLACK.md). The
 * renderers shorten and split against it, and the local Slack stand-in rejects
 * payloads against it: one source of truth, so the two cannot drift apart.
 * Alphabetised. Undocumented limits are marked.
 */
export const LIMIT = {
  /** Elements in one actions block. */
  actionsElements: 25,
  /** action_id, block_id and callback_id length. */
  blockIdLength: 255,
  /** Button text (plain_text). */
  buttonText: 75,
  /** Button value. */
  buttonValue: 2000,
  /** Options of checkboxes and radio_buttons. */
  checkboxOptions: 10,
  /** Elements in one context block. */
  contextElements: 10,
  /** Text of one context element (mrkdwn/plain_text). */
  contextElementText: 2000,
  /** header block text, plain_text only. */
  headerText: 150,
  /** `markdown` block text, cumulative per payload. */
  markdownBlockTotal: 12000,
  /** Blocks in one message. */
  messageBlocks: 50,
  /**
   * Undocumented: Slack answers `msg_blocks_too_long` at about 12–13k
   * characters of text in one message. We budget 11k so a message never
   * lands near the edge.
   */
  messageTextBudget: 11000,
  /** The hard edge we enforce in the stand-in for the undocumented total above. */
  messageTextHard: 12000,
  /** Modal title, submit and close button texts. */
  modalButtonText: 24,
  /** Blocks in one modal view. */
  modalBlocks: 100,
  /** Modal title text. */
  modalTitle: 24,
  /** Option description text. */
  optionDescription: 75,
  /** Option text. */
  optionText: 75,
  /** Option value: docs now say 150, the SDK types say 75; use 75. */
  optionValue: 75,
  /** Options in one overflow menu. */
  overflowOptions: 5,
  /** Placeholder text. */
  placeholderText: 150,
  /** plain_text_input max_length. */
  plainTextInputMax: 3000,
  /** A view's private_metadata. */
  privateMetadata: 3000,
  /** rich_text preformatted / section texts share the section's budget in practice (our budget). */
  richTextElementText: 3000,
  /** section `fields` items. */
  sectionFields: 10,
  /** Text of one section field. */
  sectionFieldText: 2000,
  /** section `text`. */
  sectionText: 3000,
  /** Options in static_select / multi_static_select; beyond: an external (options-load) menu. */
  selectOptions: 100,
  /** Options an external select may return for one block_suggestion. */
  externalSelectOptions: 100,
  /** Top-level `text` (notification/fallback): Slack truncates at 40k; we keep it short. */
  topLevelText: 4000,
  /** Items in one input/label texts. */
  inputLabel: 2000,
  /** Input hint text. */
  inputHint: 2000,
  /** A confirm dialog's title (plain_text). */
  confirmTitle: 100,
  /** A confirm dialog's text. */
  confirmText: 300,
  /** A confirm dialog's confirm and deny button texts. */
  confirmButton: 30,
  /** Deepest `indent` of a rich_text_list (the clients show nine levels, 0–8). */
  richTextListIndent: 8,
} as const

export type LimitName = keyof typeof LIMIT
