/**
 * Every Slack limit dsh-slack respects, in one table (shared/SLACK.md). The
 * renderers shorten and split against it, and the local Slack stand-in rejects
 * payloads against it: one source of truth, so the two cannot drift apart.
 * Alphabetised. Undocumented limits are marked.
 */
export const LIMIT = {
  /** Elements in one actions block. */
  actionsElements: 25,
  /**
   * Ours, not Slack's: the most characters of a tool call's arguments shown on
   * an approval card (so Allow once stays on the first screen); the rest is in
   * the thread or an attached file.
   */
  approvalArgumentsCard: 1500,
  /** Ours, not Slack's: the most lines of arguments shown on an approval card. */
  approvalArgumentsLines: 20,
  /**
   * Ours, not Slack's: a tool approval's arguments up to this many characters
   * (and LIMIT.approvalUnfoldedLines lines) show open; longer ones start
   * folded in their container, so the verdict buttons stay on a phone's
   * first screen (about 5 lines of code at 390 px).
   */
  approvalUnfoldedChars: 300,
  /** Ours, not Slack's: lines of arguments shown open; more start folded (see approvalUnfoldedChars). */
  approvalUnfoldedLines: 5,
  /**
   * Ours, not Slack's: a tool approval's one-line command longer than this is
   * laid out in lines of at most this many characters, continued with ` \`
   * (blocks/command-lines.ts), so a phone's code block (about 36 monospace
   * characters across on a 360-point screen) never wraps it mid-line.
   */
  approvalCommandLineWidth: 34,
  /** Ours, not Slack's: characters of arguments in one thread part (one code block, under richTextElementText). */
  approvalArgumentsPart: 2900,
  /** action_id, block_id and callback_id length. */
  blockIdLength: 255,
  /** Button text (plain_text). */
  buttonText: 75,
  /** Button value. */
  buttonValue: 2000,
  /**
   * Buttons in a `card` block's `actions` ("maximum of 3 buttons": Block Kit
   * reference, "Card block"; the CardBlock typings in @slack/types 3.2 state
   * no maximum, the reference is the stricter).
   */
  cardActions: 3,
  /** A `card` block's `body` text ("200 characters max": Block Kit reference, "Card block", and CardBlock in @slack/types 3.2). */
  cardBody: 200,
  /** A `card` block's `subtitle` text ("150 characters max", same sources). */
  cardSubtitle: 150,
  /** A `card` block's `title` text ("150 characters max", same sources). */
  cardTitle: 150,
  /** `card` blocks in one `carousel` ("at least one card, with a maximum of 10": Block Kit reference, "Carousel block", and CarouselBlock in @slack/types 3.2). */
  carouselCards: 10,
  /**
   * Ours, not Slack's: a single-select question shows its options as buttons
   * up to this many (about what a phone screen shows without scrolling); more
   * become a select menu.
   */
  cardButtons: 5,
  /**
   * Ours, not Slack's: a question longer than this is shown shortened on the
   * card (so the controls stay on the first screen) and in full in the thread.
   */
  cardQuestionText: 1000,
  /** Options of checkboxes and radio_buttons. */
  checkboxOptions: 10,
  /**
   * Ours, not Slack's: questions on one page of the batch form. Each question
   * takes up to three blocks (detail, choice, Other text), well under modalBlocks.
   */
  formQuestionsPerPage: 10,
  /**
   * Ours, not Slack's: text budget of one form page (views have no documented
   * total; we keep a page about as heavy as two messages).
   */
  formTextBudget: 22000,
  /**
   * `child_blocks` of a `container` block ("Maximum of 10 blocks": Block Kit
   * reference, "Container block", and the ContainerBlock doc comment in
   * @slack/types 3.2). The reference lists actions, context, divider, file,
   * header, image, input, rich_text, section, table and video as children;
   * we take that list (decision 0068 notes a third-party report that Slack's
   * validator differs).
   */
  containerChildBlocks: 10,
  /** A `container` block's `subtitle` (plain_text or mrkdwn, "Maximum of 150 characters", same sources). */
  containerSubtitle: 150,
  /** A `container` block's plain_text `title` ("Maximum of 150 characters", same sources). */
  containerTitle: 150,
  /**
   * Rows of a `data_table` block, its header row included ("a maximum of 101
   * rows (100 regular rows plus the header)", and at least 2: Block Kit
   * reference, "Data table block"). One more than a `table` block takes.
   */
  dataTableRows: 101,
  /** Columns of a `data_table` block ("a minimum of 1 column and a maximum of 20 columns", same source). */
  dataTableColumns: 20,
  /** A `data_table` block's `page_size` ("Min 1, Max 100. Defaults to 5": same source, and DataTableBlock in @slack/types 3.2). */
  dataTablePageSizeMax: 100,
  /**
   * Ours, not Slack's: rows a plan's `data_table` shows per page. Slack's
   * default (5) would page a plan table five rows at a time; 20 reads as a
   * screen on a phone and keeps a 100-row table to five pages.
   */
  dataTablePageSize: 20,
  /**
   * Characters of text in all the cells of one `data_table` ("cannot exceed
   * 10,000 characters": same source; an earlier wording of the page also
   * capped every table cell of one message at 10,000 together, which the
   * stand-in enforces too).
   */
  dataTableText: 10000,
  /** Ours, not Slack's: each agent-written field on a card's context line (title, session, cwd) is shortened to this. */
  contextField: 200,
  /** Elements in one context block. */
  contextElements: 10,
  /** Text of one context element (mrkdwn/plain_text). */
  contextElementText: 2000,
  /**
   * Ours, not Slack's: a plan (or question) that needs more continuation
   * messages than this is also attached to the thread as a `.md` file.
   */
  fileAfterThreadParts: 5,
  /**
   * Ours, not Slack's: the most characters of the `.md` file attached to a
   * long ask. Only an absurd ask reaches it; the file then ends with `[…]`.
   */
  fileText: 20_000_000,
  /** header block text, plain_text only. */
  headerText: 150,
  /** Blocks in one Home tab view (views.publish). */
  homeBlocks: 100,
  /**
   * Ours, not Slack's: a question (or plan title, or tool reason) is shown on
   * the Home tab shortened to this; the whole of it is one tap away in the message.
   */
  homeQuestionText: 300,
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
  /**
   * Ours, not Slack's: the top-level `text` we send is a short preview (push
   * notifications and screen readers show it); the whole question is in the blocks.
   */
  notificationText: 300,
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
  /**
   * Ours, not Slack's: the text budget of a settled message's status (who
   * answered what); longer answers are shown shortened with `…`.
   */
  statusText: 3000,
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
  /**
   * Cells in one row of a `table` block (its columns). Block Kit reference,
   * "Table block" (`rows`: "each row object is an array with a max of 20
   * table cells"), and the TableBlock doc comment in @slack/types 3.2.
   */
  tableCells: 20,
  /** `column_settings` items of a `table` block ("Maximum 20 items", same sources). */
  tableColumnSettings: 20,
  /** Rows of a `table` block, its header row included ("Maximum 100 rows", same sources). */
  tableRows: 100,
  /**
   * Characters of text in all the cells of one `table` block. Reported first
   * by Slack apps that render tables (vercel/chat's `tableChars`, hermes-agent,
   * vellum-assistant); the Block Kit reference, "Table block", now says it
   * ("A single table's character count across all cells cannot exceed 10,000
   * characters", and the same for all table cells of one message together).
   * @slack/types dropped its per-cell note after a 3,000+ character cell was
   * accepted (node-slack-sdk#2440).
   */
  tableText: 10000,
  /**
   * Ours, not Slack's: a table column whose widest cell is wider than this
   * many monospace columns is wrapped (`is_wrapped`), so a sentence in a cell
   * reads on a phone (about 40 columns at 390 px) instead of running off
   * the side; narrower columns (names, numbers, statuses) stay on one line.
   */
  tableWrapWidth: 24,
  /**
   * Tables in one message: a second `table` block is refused
   * (`invalid_attachments`, seen in practice, as vercel/chat and openclaw
   * report; the reference states only the row and cell limits). Assumed for
   * `data_table` too, counted together with `table` (the reference is silent;
   * its 10,000-character cap on every table cell of a message suggests one
   * budget for all of them; decision 0077).
   */
  tablesPerMessage: 1,
  /**
   * Ours, not Slack's: at most this many continuation messages go into a
   * card's thread; beyond it the thread says the rest is in the attached file.
   */
  threadParts: 20,
  /**
   * Bytes of one view's JSON: views.publish answers `view_too_large` past
   * "250kb" (Slack's wording; we read it as 250,000 bytes, the stricter of the two).
   */
  viewBytes: 250_000,
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
