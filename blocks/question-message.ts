/**
 * The question card, for every shape of ask: one question (buttons, menus,
 * checkboxes, or a reply button), a batch (listed, answered in a form), and a
 * plan review (the plan, Approve, Request changes…). `askCard` is shared with
 * the settled message, which keeps the same body and replaces the controls.
 */
import type { ActionsBlock, HeaderBlock, KnownBlock, SectionBlock } from '@slack/types'
import { askContext } from './context.js'
import { batchCarousel, carouselFits } from './batch-carousel.js'
import { choiceActions, controlShowsOptions, messageControl, optionButton, wordButton } from './controls.js'
import { fallbackText } from './fallback-text.js'
import { encodeActionId } from './ids.js'
import { wordsFor } from './i18n.js'
import { BODY_CAP, contextLine, layoutCard, textSize, type CardParts, type FileAttachment, type RenderedMessage, type SizedBlock } from './layout.js'
import { LIMIT } from './limits.js'
import { quorumLine } from './quorum.js'
import { markdownUnits, packUnits, textUnits, type Inline, type PackedBlock, type RichUnit } from './markdown/index.js'
import { escapeMrkdwn, fitMrkdwn, fitText, plain, shownText } from './text.js'
import type { AskView, QuestionView } from './view.js'

/** What kind of card an ask gets. */
export type AskShape = 'single' | 'batch' | 'plan-review'

/** The index of the approving option of a plan review, or -1 when the question is not one we recognise. */
export function approveIndex(question: QuestionView): number {
  if (question.intent?.kind !== 'plan-review' || question.intent.approve === undefined) return -1
  return question.options.findIndex((o) => o.label === question.intent!.approve)
}

/** Plan review only when the intent is one we know and names one of the question's own options; else the generic card. */
export function askShape(view: AskView): AskShape {
  if (view.questions.length !== 1) return 'batch'
  return approveIndex(view.questions[0]!) >= 0 ? 'plan-review' : 'single'
}

/** Blocks a settled status may take (status line, answers); reserved on every card. */
export const STATUS_BLOCKS = 2

function header(text: string | undefined): HeaderBlock[] {
  if (text === undefined || text.trim() === '') return []
  return [{ type: 'header', text: plain(text, LIMIT.headerText) }]
}

/** The question on the card, shortened when long (the full text then opens the body). */
function questionPreview(question: string): { block: KnownBlock; full: RichUnit[] } {
  const text = shownText(question).trim() === '' ? '–' : shownText(question)
  const preview = fitText(text, LIMIT.cardQuestionText)
  const block: KnownBlock = { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: preview, style: { bold: true } }] }] }
  return { block, full: preview === text ? [] : textUnits(text.slice(0, BODY_CAP), { bold: true }) }
}

function sizedPiece({ block, size, fallback }: PackedBlock, question?: number): SizedBlock {
  const piece: SizedBlock = question === undefined ? { block, size } : { block, size, question }
  if (fallback !== undefined) piece.fallback = fallback.map((f) => sizedPiece(f, question))
  return piece
}

function packed(units: RichUnit[], question?: number): SizedBlock[] {
  return packUnits(units).map((p) => sizedPiece(p, question))
}

/** The options as a numbered list: label in bold, then its description. */
function optionListUnits(question: QuestionView): RichUnit[] {
  let total = 0
  // Past BODY_CAP nothing more can be shown (the file lists every option).
  const within = question.options.filter((o) => (total += Math.min(o.label.length + (o.description?.length ?? 0), BODY_CAP)) <= BODY_CAP)
  const items = within.map((o) => {
    o = { label: o.label.slice(0, BODY_CAP), ...(o.description === undefined ? {} : { description: o.description.slice(0, BODY_CAP) }) }
    const elements: Inline[] = [{ type: 'text', text: shownText(o.label).trim() === '' ? '–' : shownText(o.label), style: { bold: true } }]
    if (o.description !== undefined && o.description.trim() !== '') elements.push({ type: 'text', text: ` — ${shownText(o.description)}` })
    return elements
  })
  return listUnits(items, 'ordered')
}

/** Inline items as list units within the block budget (long items become paragraphs). */
function listUnits(items: Inline[][], style: 'ordered' | 'bullet'): RichUnit[] {
  const units: RichUnit[] = []
  let sections: { type: 'rich_text_section'; elements: Inline[] }[] = []
  let size = 0
  let first = 1
  let next = 1
  const flush = () => {
    if (sections.length > 0) {
      const element = { type: 'rich_text_list' as const, style, indent: 0, elements: sections, ...(style === 'ordered' && first > 1 ? { offset: first - 1 } : {}) }
      units.push({ kind: 'element', element, size })
    }
    sections = []
    size = 0
    first = next
  }
  for (const elements of items) {
    const n = elements.reduce((sum, el) => sum + (el.type === 'text' ? el.text.length : el.url.length + (el.text?.length ?? 0)), 0)
    if (n > LIMIT.richTextElementText) {
      flush()
      // A label or description longer than a block: its own paragraphs, numbered by hand.
      units.push(...textUnits(`${next}. `), ...elements.flatMap((el) => (el.type === 'text' ? textUnits(el.text, el.style ?? {}) : [])))
      next++
      first = next
      continue
    }
    if (size + n > LIMIT.richTextElementText) flush()
    sections.push({ type: 'rich_text_section', elements })
    size += n
    next++
  }
  flush()
  return units
}

/** The controls of a single question, by the control its options get. */
function singleControls(view: AskView, question: QuestionView): KnownBlock[] {
  const words = wordsFor(view.locale)
  const id = view.askId
  const control = messageControl(question)
  const other = wordButton(encodeActionId({ kind: 'other', askId: id, question: 0 }), control === 'reply' ? words.reply : words.other, control === 'reply' ? 'primary' : undefined)
  const skip = wordButton(encodeActionId({ kind: 'skip', askId: id }), words.skip)
  const dismiss = wordButton(encodeActionId({ kind: 'dismiss', askId: id }), words.dismiss)
  switch (control) {
    case 'reply':
      return [contextLine(escapeMrkdwn(words.replyHint)), { type: 'actions', elements: [other, skip, dismiss] }]
    case 'buttons':
      return [{ type: 'actions', elements: [...question.options.map((o, i) => optionButton(view.locale, id, 0, o, i)), other, skip, dismiss] }]
    case 'select':
    case 'external-select':
      return [choiceActions(view.locale, id, 0, question, control), { type: 'actions', elements: [other, skip, dismiss] }]
    case 'checkboxes':
    case 'multi-select':
    case 'multi-external-select': {
      const submit = wordButton(encodeActionId({ kind: 'submit', askId: id, question: 0 }), words.submit, 'primary')
      // Descriptions once: in the checkboxes when they fit there whole, else only in the list above.
      const describe = controlShowsOptions(question, control)
      return [contextLine(escapeMrkdwn(words.multiHint)), choiceActions(view.locale, id, 0, question, control, describe), { type: 'actions', elements: [submit, other, skip, dismiss] }]
    }
    default: {
      const unreachable: never = control
      return unreachable
    }
  }
}

/** Approve, the other options, Request changes…, Dismiss; descriptions of the options above them. */
function planControls(view: AskView, question: QuestionView): KnownBlock[] {
  const words = wordsFor(view.locale)
  const id = view.askId
  const approve = approveIndex(question)
  const others = question.options.map((o, i) => ({ o, i })).filter(({ i }) => i !== approve)
  const blocks: KnownBlock[] = []
  const described = question.options.slice(0, LIMIT.cardButtons).filter((o) => o.description !== undefined && o.description.trim() !== '')
  if (described.length > 0) {
    const line = described.map((o) => `*${fitMrkdwn(o.label, LIMIT.optionText)}*: ${fitMrkdwn(o.description!, LIMIT.optionDescription)}`).join('\n')
    blocks.push(contextLine(line))
  }
  const elements: ActionsBlock['elements'] = [optionButton(view.locale, id, 0, question.options[approve]!, approve, true)]
  const fit = others.length < LIMIT.cardButtons && others.every(({ o }) => o.label.length <= LIMIT.buttonText && o.label.trim() !== '')
  if (fit) {
    for (const { o, i } of others) elements.push(optionButton(view.locale, id, 0, o, i))
  } else if (others.length > 0) {
    // Many or long other options: a menu of every option (Approve too; the value is its index either way).
    blocks.push(choiceActions(view.locale, id, 0, question, question.options.length <= LIMIT.selectOptions ? 'select' : 'external-select'))
  }
  elements.push(wordButton(encodeActionId({ kind: 'request-changes', askId: id }), words.requestChanges))
  elements.push(wordButton(encodeActionId({ kind: 'dismiss', askId: id }), words.dismiss))
  if (view.quorum) blocks.push(quorumLine(view.locale, view.quorum))
  blocks.push({ type: 'actions', elements })
  return blocks
}

/** Answer… (the form) and Dismiss; a short batch's carousel above them (decision 0077). */
function batchControls(view: AskView): KnownBlock[] {
  const words = wordsFor(view.locale)
  const carousel = batchCarousel(view)
  return [
    ...(carousel ? [carousel] : []),
    {
      type: 'actions',
      elements: [
        wordButton(encodeActionId({ kind: 'answer', askId: view.askId }), words.answer, 'primary'),
        wordButton(encodeActionId({ kind: 'dismiss', askId: view.askId }), words.dismiss),
      ],
    },
  ]
}

/**
 * One question of a batch as it reads in the listing: number, header,
 * question, detail, options. `room` is what is left of BODY_CAP: once the
 * units pass it by two blocks' worth, what follows is never shown (the layout
 * stops at BODY_CAP, and only the last block or two packed from them could
 * change), so the detail and the options are not rendered at all.
 */
function batchQuestionUnits(question: QuestionView, index: number, room: number): RichUnit[] {
  const title: Inline[] = [{ type: 'text', text: `${index + 1}. `, style: { bold: true } }]
  if (question.header !== undefined && question.header.trim() !== '') title.push({ type: 'text', text: `${shownText(question.header)} · `, style: { italic: true } })
  title.push({ type: 'text', text: shownText(question.question).trim() === '' ? '–' : shownText(question.question), style: { bold: true } })
  const units: RichUnit[] = []
  for (const el of title) if (el.type === 'text') units.push(...textUnits(el.text, el.style ?? {}))
  // One section for the title line, however it was split.
  const merged = mergeSections(units)
  const enough = room + 2 * LIMIT.richTextElementText
  if (question.detail !== undefined && question.detail.trim() !== '' && unitsSize(merged) <= enough) merged.push(...markdownUnits(question.detail, { tables: 'block' }))
  if (question.options.length > 0 && unitsSize(merged) <= enough) merged.push(...optionListUnits(question))
  return merged
}

function unitsSize(units: RichUnit[]): number {
  let size = 0
  for (const unit of units) if (unit.kind !== 'divider') size += unit.size
  return size
}

function mergeSections(units: RichUnit[]): RichUnit[] {
  const out: RichUnit[] = []
  for (const unit of units) {
    const last = out[out.length - 1]
    if (
      last?.kind === 'element' && unit.kind === 'element' &&
      last.element.type === 'rich_text_section' && unit.element.type === 'rich_text_section' &&
      last.size + unit.size <= LIMIT.richTextElementText
    ) {
      last.element.elements.push(...unit.element.elements)
      last.size += unit.size
    } else {
      out.push(unit)
    }
  }
  return out
}

/**
 * The whole ask as Markdown, for the file attached when the thread runs long.
 * Only an absurd ask (beyond LIMIT.fileText, far past what any channel reads)
 * is cut, and then visibly, with a last line saying so.
 */
export function askMarkdown(view: AskView): string {
  const shape = askShape(view)
  const chunks: string[] = []
  let size = 0
  const add = (text: string): boolean => {
    if (size + text.length > LIMIT.fileText) {
      chunks.push(text.slice(0, Math.max(0, LIMIT.fileText - size)), '\n\n[…]\n')
      size = LIMIT.fileText
      return false
    }
    chunks.push(text)
    size += text.length
    return true
  }
  if (shape === 'plan-review') {
    add(view.questions[0]!.detail ?? '')
    return chunks.join('')
  }
  outer: for (const [i, q] of view.questions.entries()) {
    if (i > 0 && !add('\n\n')) break
    if (!add(`## ${view.questions.length > 1 ? `${i + 1}. ` : ''}${q.header ?? ''}`.trimEnd() + `\n\n**${q.question}**`)) break
    if (q.detail !== undefined && !add(`\n\n${q.detail}`)) break
    if (q.options.length > 0 && !add('\n')) break
    for (const [n, o] of q.options.entries()) if (!add(`\n${n + 1}. **${o.label}**${o.description ? ` — ${o.description}` : ''}`)) break outer
  }
  return chunks.join('')
}

function askFileName(view: AskView): string {
  const shape = askShape(view)
  return shape === 'plan-review' ? 'plan.md' : shape === 'batch' ? 'questions.md' : 'question.md'
}

function askFile(view: AskView): FileAttachment {
  const q = view.questions[0]
  const title = fitText(shownText(q?.header?.trim() || q?.question?.trim() || wordsFor(view.locale).fileTitle), LIMIT.headerText)
  return { filename: askFileName(view), title, content: askMarkdown(view) }
}

/**
 * The body of an ask's card (question, detail, option list) as sized blocks:
 * the expensive part of a render (the Markdown), and made of the questions
 * alone, so the open card, its quorum progress and its settled form can all
 * be laid out from one body. Shared, never changed: layout only reads it.
 */
export interface AskBody {
  blocks: SizedBlock[]
  /** The body was cut at BODY_CAP: the file holds everything. */
  truncated: boolean
}

/** Renders an ask's body (see AskBody); `questionMessage` and `settledMessage` take it to skip rendering it again. */
export function askBody(view: AskView): AskBody {
  if (askShape(view) === 'batch') {
    // A carousel shows every question whole on its card: a listing would say it twice.
    if (carouselFits(view.questions)) return { blocks: [], truncated: false }
    const blocks: SizedBlock[] = []
    let size = 0
    for (const [i, q] of view.questions.entries()) {
      // Past BODY_CAP nothing more can be shown; the form and the file have every question.
      if (size > BODY_CAP) return { blocks, truncated: true }
      for (const piece of packed(batchQuestionUnits(q, i, BODY_CAP - size), i)) {
        blocks.push(piece)
        size += piece.size
      }
    }
    return { blocks, truncated: false }
  }
  const question = view.questions[0]!
  let truncated = false
  const units = [...questionPreview(question.question).full]
  if (question.detail !== undefined && question.detail.trim() !== '') {
    // Source past twice BODY_CAP renders past what the thread shows: the file carries it.
    const source = question.detail.length > 2 * BODY_CAP ? question.detail.slice(0, 2 * BODY_CAP) : question.detail
    truncated = source !== question.detail
    units.push(...markdownUnits(source, { tables: 'block' }))
  }
  if (question.options.reduce((n, o) => n + o.label.length + (o.description?.length ?? 0), 0) > BODY_CAP) truncated = true
  // The options are listed only when the control cannot show them whole: once is enough.
  if (askShape(view) === 'single' && question.options.length > 0 && !controlShowsOptions(question, messageControl(question))) units.push(...optionListUnits(question))
  return { blocks: packed(units), truncated }
}

/**
 * Everything a card is made of, before layout. The reserve keeps room for the
 * larger of the controls and a settled status, so both split alike. `body`
 * is askBody(view), passed in when the caller kept it from an earlier render;
 * `settled` drops the batch's how-to line, whose form is gone.
 */
export function askCard(view: AskView, body: AskBody = askBody(view), state: { settled?: boolean } = {}): CardParts {
  const words = wordsFor(view.locale)
  const shape = askShape(view)
  const context = askContext(view.locale, view.agent, view.mention, view.expiresAt)
  let head: KnownBlock[]
  let tail: KnownBlock[]
  let moreQuestions: CardParts['moreQuestions']
  let headSaved = 0
  if (shape === 'batch') {
    const introOf = (text: string): SectionBlock => ({ type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(text)}*` } })
    const open = introOf(carouselFits(view.questions) ? words.carouselIntro(view.questions.length) : words.batchIntro(view.questions.length))
    const intro = state.settled ? introOf(words.batchSettledIntro(view.questions.length)) : open
    // The room the how-to line leaves stays reserved, so the settled card splits as the open one did.
    headSaved = textSize([open]) - textSize([intro])
    head = [context, intro]
    tail = batchControls(view)
    moreQuestions = (count) => escapeMrkdwn(words.moreQuestions(count))
  } else {
    const question = view.questions[0]!
    head = [context, ...header(shape === 'plan-review' ? (question.header ?? words.planReview) : question.header), questionPreview(question.question).block]
    tail = shape === 'plan-review' ? planControls(view, question) : singleControls(view, question)
  }
  const parts: CardParts = {
    locale: view.locale,
    head,
    body: body.blocks,
    tail,
    reserve: { text: Math.max(textSize(tail), LIMIT.statusText) + headSaved, blocks: Math.max(tail.length, STATUS_BLOCKS) },
    text: fallbackText(view),
    threadText: fitMrkdwn(view.questions[0]?.header ?? view.questions[0]?.question ?? '', LIMIT.notificationText),
    file: { filename: askFileName(view), make: () => askFile(view) },
    truncated: body.truncated,
  }
  if (moreQuestions !== undefined) parts.moreQuestions = moreQuestions
  return parts
}

/**
 * The message that asks: context line, header, the question, its detail
 * (rendered Markdown), the options and the controls; plus thread parts (and a
 * file) for whatever did not fit on the card.
 */
export function questionMessage(view: AskView, body?: AskBody): RenderedMessage {
  return layoutCard(askCard(view, body))
}
