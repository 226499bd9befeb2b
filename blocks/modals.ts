/**
 * The modals: Other… (free text for one question), the batch form (one input
 * per question, in pages when many), and the plan's Request changes… form.
 * Every input is addressed by ids.ts, so `response_action: 'errors'` can point
 * at it and the provider can read `view.state.values` without guessing.
 */
import type { InputBlock, KnownBlock, ModalView, RichTextBlock } from '@slack/types'
import { choiceElement, formControl } from './controls.js'
import { encodeActionId, encodeCallbackId, encodeInputBlockId } from './ids.js'
import { wordsFor } from './i18n.js'
import { contextLine, textSize } from './layout.js'
import { LIMIT } from './limits.js'
import { markdownUnits, packUnits, type Inline } from './markdown/index.js'
import { escapeMrkdwn, fitText, plain, shownText } from './text.js'
import type { AskView, Locale, QuestionView } from './view.js'

/** Extra fields the provider may set on a modal. */
export interface ModalExtras {
  /** Carried back in view_submission (e.g. answers of earlier pages). At most LIMIT.privateMetadata characters. */
  privateMetadata?: string
  /**
   * The batch form: the option (by index) the person chose for a question on
   * the carousel's cards, shown chosen in the form (decision 0077).
   */
  chosen?: ReadonlyMap<number, number>
}

/** A page of the batch form. */
export interface BatchModal {
  view: ModalView
  /** The page shown (0-based; an out-of-range request is clamped). */
  page: number
  pageCount: number
  /** Indices of the questions on this page, in order. */
  questions: number[]
}

function modal(title: string, submit: string, close: string, callbackId: string, blocks: KnownBlock[], extras: ModalExtras | undefined): ModalView {
  const view: ModalView = {
    type: 'modal',
    callback_id: callbackId,
    title: plain(title, LIMIT.modalTitle),
    submit: plain(submit, LIMIT.modalButtonText),
    close: plain(close, LIMIT.modalButtonText),
    blocks,
  }
  if (extras?.privateMetadata !== undefined) {
    if (extras.privateMetadata.length > LIMIT.privateMetadata) throw new RangeError(`private_metadata longer than ${LIMIT.privateMetadata} characters`)
    view.private_metadata = extras.privateMetadata
  }
  return view
}

/** A question as the form shows it: number, header, the question (shortened when very long). */
function questionBlock(question: QuestionView | undefined, number?: number): RichTextBlock {
  const elements: Inline[] = []
  if (number !== undefined) elements.push({ type: 'text', text: `${number}. `, style: { bold: true } })
  if (question?.header !== undefined && question.header.trim() !== '') elements.push({ type: 'text', text: `${fitText(shownText(question.header), LIMIT.headerText)}\n`, style: { italic: true } })
  const text = shownText(question?.question ?? '').trim() === '' ? '–' : shownText(question!.question)
  elements.push({ type: 'text', text: fitText(text, LIMIT.cardQuestionText), style: { bold: true } })
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] }
}

/** How much of a detail's Markdown the form parses for its excerpt: enough for one block's worth of text. */
const EXCERPT_SOURCE = 2 * LIMIT.richTextElementText

/** The first block of a question's detail, and a note when there is more (it is in the message and its thread). */
function detailBlocks(locale: Locale, detail: string | undefined): KnownBlock[] {
  if (detail === undefined || detail.trim() === '') return []
  // Only the start is shown, so only the start is parsed (a form opens within 3 s of the click).
  const source = detail.length > EXCERPT_SOURCE ? detail.slice(0, EXCERPT_SOURCE) : detail
  const blocks = packUnits(markdownUnits(source)).filter(({ block }) => block.type === 'rich_text')
  const first = blocks[0]
  if (first === undefined) return []
  return blocks.length > 1 || source !== detail ? [first.block, contextLine(escapeMrkdwn(wordsFor(locale).shortenedHere))] : [first.block]
}

function textInput(blockId: string, actionId: string, label: string, optional: boolean, hint?: string, initial?: string): InputBlock {
  const input: InputBlock = {
    type: 'input',
    block_id: blockId,
    label: plain(label, LIMIT.inputLabel),
    optional,
    element: {
      type: 'plain_text_input',
      action_id: actionId,
      multiline: true,
      max_length: LIMIT.plainTextInputMax,
      ...(initial !== undefined ? { initial_value: initial } : {}),
    },
  }
  if (hint !== undefined) input.hint = plain(hint, LIMIT.inputHint)
  return input
}

/**
 * Other…: one multiline text box for one question, the question shown above
 * it. The provider trims the text and refuses a blank one (otherTextError).
 *
 * `ticked`: the labels the person had ticked on a multi-select message when
 * they chose Other…. A typed answer replaces the choices (SEAM.md: `custom`
 * is an override, `selected` is then empty), so the ticks are carried into
 * the box as text, and a note says so, rather than dropped without a word.
 */
export function otherModal(view: AskView, question: number, extras?: ModalExtras & { ticked?: readonly string[] }): ModalView {
  const words = wordsFor(view.locale)
  const q = view.questions[question]
  const ticked = extras?.ticked ?? []
  // Prefilled within what the box accepts; shortened visibly if the labels alone are longer.
  const prefill = ticked.length > 0 ? fitText(shownText(ticked.join(', ')), LIMIT.plainTextInputMax) : undefined
  const blocks: KnownBlock[] = [questionBlock(q)]
  if (prefill !== undefined) blocks.push(contextLine(escapeMrkdwn(words.tickedCarried)))
  blocks.push(textInput(encodeInputBlockId({ kind: 'text' }), encodeActionId({ kind: 'other', askId: view.askId, question }), words.yourAnswer, false, undefined, prefill))
  return modal(words.otherTitle, words.send, words.cancel, encodeCallbackId({ kind: 'other-modal', askId: view.askId, question }), blocks, extras)
}

/** Request changes…: the reviewer's feedback, sent back as the answer's `custom` text. */
export function feedbackModal(view: AskView, extras?: ModalExtras): ModalView {
  const words = wordsFor(view.locale)
  const blocks: KnownBlock[] = [
    questionBlock(view.questions[0]),
    textInput(encodeInputBlockId({ kind: 'text' }), encodeActionId({ kind: 'request-changes', askId: view.askId }), words.feedbackLabel, false, words.feedbackHint),
  ]
  return modal(words.feedbackTitle, words.send, words.cancel, encodeCallbackId({ kind: 'feedback-modal', askId: view.askId }), blocks, extras)
}

/**
 * Why a free-text answer is refused, in the person's language, or null when
 * it is fine: blank after trimming, or longer than a text box holds.
 */
export function otherTextError(locale: Locale, text: string): string | null {
  const words = wordsFor(locale)
  const trimmed = text.trim()
  if (trimmed === '') return words.blankAnswer
  if ([...trimmed].length > LIMIT.plainTextInputMax) return words.tooLong(LIMIT.plainTextInputMax)
  return null
}

/** The blocks of one question in the form: the question, its detail excerpt, the choice, the Other text. */
function formQuestionBlocks(view: AskView, index: number): KnownBlock[] {
  const words = wordsFor(view.locale)
  const q = view.questions[index]!
  const blocks: KnownBlock[] = [questionBlock(q, index + 1), ...detailBlocks(view.locale, q.detail)]
  const control = formControl(q)
  // The numbered question is right above; the inputs' labels say what to do,
  // not the heading again.
  const label = q.multiSelect ? words.chooseAny : words.chooseOne
  if (control !== 'text-only') {
    blocks.push({
      type: 'input',
      block_id: encodeInputBlockId({ kind: 'choice', question: index }),
      label: plain(label, LIMIT.optionText),
      optional: true,
      element: choiceElement(view.locale, view.askId, index, q, control),
    })
  }
  blocks.push(
    textInput(
      encodeInputBlockId({ kind: 'other-text', question: index }),
      encodeActionId({ kind: 'other', askId: view.askId, question: index }),
      control === 'text-only' ? words.yourAnswer : words.otherOptional,
      true,
    ),
  )
  return blocks
}

/**
 * Splits the batch into form pages: at most LIMIT.formQuestionsPerPage
 * questions, LIMIT.modalBlocks blocks and LIMIT.formTextBudget characters a
 * page. Every question is on exactly one page, in order.
 */
export function formPages(view: AskView): number[][] {
  return formLayout(view).pages
}

/** The form's pages, and each question's blocks as laid out (so a page is not rendered twice). */
function formLayout(view: AskView): { pages: number[][]; blocks: KnownBlock[][] } {
  const all: KnownBlock[][] = []
  const pages: number[][] = []
  let page: number[] = []
  let blocks = 1
  let text = 0
  view.questions.forEach((_, i) => {
    const own = formQuestionBlocks(view, i)
    all.push(own)
    const size = textSize(own)
    if (page.length > 0 && (page.length >= LIMIT.formQuestionsPerPage || blocks + own.length > LIMIT.modalBlocks || text + size > LIMIT.formTextBudget)) {
      pages.push(page)
      page = []
      blocks = 1
      text = 0
    }
    page.push(i)
    blocks += own.length
    text += size
  })
  if (page.length > 0 || pages.length === 0) pages.push(page)
  return { pages, blocks: all }
}

/**
 * A question's choice input with `option` chosen (`initial_option`), when it
 * is a single choice that offers it; anything else unchanged. Applied after
 * the pages are laid out, so a draft never moves a question to another page.
 */
function withChosen(block: KnownBlock, question: number, option: number): KnownBlock {
  if (block.type !== 'input' || block.block_id !== encodeInputBlockId({ kind: 'choice', question })) return block
  const element = block.element
  if (element.type !== 'radio_buttons' && element.type !== 'static_select') return block
  const initial = element.options?.find((o) => o.value === String(option))
  if (initial === undefined) return block
  return { ...block, element: { ...element, initial_option: initial } } as InputBlock
}

/**
 * One page of the batch form. Empty inputs mean skipped; an Other text
 * replaces the choice. Submit says Next until the last page.
 */
export function batchModal(view: AskView, page: number, extras?: ModalExtras): BatchModal {
  const words = wordsFor(view.locale)
  const { pages, blocks: questionBlocks } = formLayout(view)
  const index = Math.min(Math.max(0, Math.trunc(Number.isFinite(page) ? page : 0)), pages.length - 1)
  const questions = pages[index]!
  const chosen = extras?.chosen
  const own = (i: number) => (chosen?.has(i) ? questionBlocks[i]!.map((b) => withChosen(b, i, chosen.get(i)!)) : questionBlocks[i]!)
  const blocks: KnownBlock[] = [contextLine(escapeMrkdwn(words.formHint)), ...questions.flatMap(own)]
  const last = index === pages.length - 1
  const modalView = modal(
    words.formTitle(index + 1, pages.length),
    last ? words.submit : words.next,
    words.cancel,
    encodeCallbackId({ kind: 'batch-modal', askId: view.askId, page: index }),
    blocks,
    extras,
  )
  return { view: modalView, page: index, pageCount: pages.length, questions }
}
