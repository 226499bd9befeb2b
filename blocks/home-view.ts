/**
 * The app's Home tab, "Waiting for you": the pending asks one person may
 * answer, newest first, each with its agent, question (or plan title, or
 * tool), how long it has waited, where it is and a link to it. Single-select
 * questions, plan reviews and tool approvals carry their controls, with the
 * same action ids as the message (a click here settles the same ask); every
 * other shape says where to answer it. Within LIMIT.homeBlocks: what does not
 * fit is counted in a last line, never dropped silently.
 */
import type { ActionsBlock, Button, ContextBlock, KnownBlock, RichTextBlock } from '@slack/types'
import { argumentsGlimpse } from './approval-arguments.js'
import { choiceElement, messageControl, optionButton, wordButton } from './controls.js'
import { encodeActionId } from './ids.js'
import { wordsFor, type Words } from './i18n.js'
import { contextLine } from './layout.js'
import { LIMIT } from './limits.js'
import { quorumLine } from './quorum.js'
import { approveIndex, askShape } from './question-message.js'
import { escapeMrkdwn, fitText, isSafeUrl, plain, shownText } from './text.js'
import type { AgentView, ApprovalView, AskView, Locale, QuestionView } from './view.js'

/** One pending ask on the Home tab: the message's view-model, plus where and when it was asked. */
export type HomeAskView = HomeAskWhere & ({ kind: 'question'; view: AskView } | { kind: 'approval'; view: ApprovalView })

export interface HomeAskWhere {
  /** When it was asked (epoch ms): the list is newest first and shows how long it has waited. */
  createdAt: number
  /** The conversation its message is in (`C…`/`G…` channel or `D…` DM), as Slack answered the post. */
  channel: string
  /** A link to the message, when known. */
  permalink?: string
}

/** A person's Home tab. */
export interface HomeView {
  locale: Locale
  /** Now (epoch ms): ages are counted from it. */
  now: number
  /** Every pending ask this person may answer, in any order; or the newest of them, with `older` counting the rest. */
  asks: HomeAskView[]
  /**
   * Asks this person may answer that are older than all of `asks` and not
   * given: counted on the tab, never drawn. Lets a caller with many asks
   * build views only for the HOME_ASKS_AT_MOST newest.
   */
  older?: number
  /** A line for this person at the top, already mrkdwn (what became of their last click on this tab). */
  notice?: string
}

/** A view as views.publish takes it. */
export interface HomeTabView {
  type: 'home'
  blocks: KnownBlock[]
}

/**
 * More asks than ever fit on a tab: each takes at least three blocks (its
 * title, the line about it, the divider) of LIMIT.homeBlocks. A caller
 * gives homeView the newest this many and counts the rest (`older`).
 */
export const HOME_ASKS_AT_MOST = Math.ceil(LIMIT.homeBlocks / 3)

/** Which controls an ask gets on the Home tab; `elsewhere`: a pointer to its message. */
export type HomeControls = 'single' | 'plan-review' | 'approval' | 'elsewhere'

/**
 * Single-select questions with buttons or a menu, plan reviews and tool
 * approvals are answered here; multi-select, batches, free text and
 * options-load menus (which need the message's own context) in the message.
 */
export function homeControls(ask: HomeAskView): HomeControls {
  if (ask.kind === 'approval') return 'approval'
  const shape = askShape(ask.view)
  if (shape === 'plan-review') return 'plan-review'
  if (shape === 'batch') return 'elsewhere'
  const control = messageControl(ask.view.questions[0]!)
  return control === 'buttons' || control === 'select' ? 'single' : 'elsewhere'
}

const CONVERSATION_ID = /^[CGD][A-Z0-9]{1,30}$/

/** Newest first; asks made in the same millisecond in a stable order. */
function newestFirst(a: HomeAskView, b: HomeAskView): number {
  return b.createdAt - a.createdAt || (a.view.askId < b.view.askId ? 1 : a.view.askId > b.view.askId ? -1 : 0)
}

/**
 * The first Markdown heading of a plan ("# Plan: drop the table"), which
 * names it better than "Plan review". A heading that says no more than that
 * ("# Plan", or the question's own header) is passed over: "Plan review: Plan"
 * names nothing.
 */
function planTitle(question: QuestionView, header: string): string | undefined {
  const says = (text: string) => text.toLowerCase() !== header.toLowerCase() && !/^(the\s+)?plan:?$/i.test(text) && text !== '计划'
  for (const line of (question.detail ?? '').split('\n', 200)) {
    const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (heading && says(heading[1]!)) return heading[1]
  }
  return undefined
}

/** What the ask is about, literally (agent text): a rich_text line in bold, shortened visibly. */
function titleBlock(words: Words, ask: HomeAskView): RichTextBlock {
  const elements: { type: 'text'; text: string; style?: { bold?: boolean; code?: boolean } }[] = []
  const literal = (text: string) => {
    const clean = shownText(text).replace(/\s+/g, ' ').trim()
    return fitText(clean === '' ? '–' : clean, LIMIT.homeQuestionText)
  }
  if (ask.kind === 'approval') {
    elements.push({ type: 'text', text: `${words.toolApproval}: `, style: { bold: true } }, { type: 'text', text: literal(ask.view.toolName), style: { code: true } })
    if (ask.view.reason !== undefined && ask.view.reason.trim() !== '') elements.push({ type: 'text', text: `\n${literal(ask.view.reason)}` })
    // What it would run, as the card shows it (preformatted: never parsed): the tab has an Allow button too.
    if (ask.view.arguments !== undefined) {
      const code = argumentsGlimpse(ask.view.arguments, LIMIT.homeQuestionText)
      return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements }, { type: 'rich_text_preformatted', elements: [{ type: 'text', text: code === '' ? ' ' : code }] }] }
    }
  } else {
    const first = ask.view.questions[0]!
    const shape = askShape(ask.view)
    const header = first.header?.trim() || words.planReview
    const title = shape === 'plan-review' ? `${header}: ${planTitle(first, header) ?? first.question}` : shape === 'batch' ? `${first.question} (+${ask.view.questions.length - 1})` : first.question
    elements.push({ type: 'text', text: literal(title), style: { bold: true } })
  }
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] }
}

/** Who asks, literally; with several relayed hosts, the host first, as on the card (a session id alone does not say which host). */
function agentLabel(words: Words, agent: AgentView | undefined): string {
  const name = agent?.title?.trim() || agent?.id?.trim()
  const host = agent?.host?.trim()
  const where = host ? fitText(`${words.host} ${shownText(host)} · `, LIMIT.contextField / 2) : ''
  return where + (name ? fitText(shownText(name), LIMIT.contextField - where.length) : words.anAgent)
}

/** Who asks (literal), how long it has waited, where, and the link; for `elsewhere` asks, where to answer. */
function aboutLine(locale: Locale, now: number, ask: HomeAskView, controls: HomeControls): ContextBlock {
  const words = wordsFor(locale)
  const where = !CONVERSATION_ID.test(ask.channel) ? undefined : ask.channel.startsWith('D') ? escapeMrkdwn(words.homeDirectMessage) : `<#${ask.channel}>`
  const parts = [escapeMrkdwn(words.homeWaiting(words.age(Math.max(0, now - ask.createdAt))))]
  // The words hold no `&`, `<` or `>`: `where` goes in as the mrkdwn it is.
  if (where !== undefined) parts.push(controls === 'elsewhere' ? words.homeAnswerIn(where) : where)
  if (ask.permalink !== undefined && isSafeUrl(ask.permalink)) parts.push(`<${ask.permalink}|${escapeMrkdwn(words.openMessage)}>`)
  return {
    type: 'context',
    elements: [
      { type: 'plain_text', text: agentLabel(words, ask.view.agent), emoji: false },
      { type: 'mrkdwn', text: `· ${parts.join(' · ')}` },
    ],
  }
}

/** The controls of one ask, with the message's action ids. Menus have no block_id: several asks share the view. */
function controlBlocks(ask: HomeAskView, controls: HomeControls): KnownBlock[] {
  const words = wordsFor(ask.view.locale)
  const id = ask.view.askId
  if (ask.kind === 'approval') {
    return [{ type: 'actions', elements: [wordButton(encodeActionId({ kind: 'allow', askId: id }), words.allowOnce, 'primary'), wordButton(encodeActionId({ kind: 'reject', askId: id }), words.reject, 'danger')] }]
  }
  const question = ask.view.questions[0]!
  if (controls === 'single') {
    const element = messageControl(question) === 'buttons' ? question.options.map((o, i) => optionButton(ask.view.locale, id, 0, o, i)) : [choiceElement(ask.view.locale, id, 0, question, 'select')]
    return [{ type: 'actions', elements: element }]
  }
  if (controls === 'plan-review') {
    const approve = approveIndex(question)
    const others = question.options.map((o, i) => ({ o, i })).filter(({ i }) => i !== approve)
    const elements: Button[] = [optionButton(ask.view.locale, id, 0, question.options[approve]!, approve, true)]
    const blocks: KnownBlock[] = []
    if (others.length < LIMIT.cardButtons && others.every(({ o }) => o.label.length <= LIMIT.buttonText && o.label.trim() !== '')) {
      for (const { o, i } of others) elements.push(optionButton(ask.view.locale, id, 0, o, i))
    } else if (others.length > 0 && question.options.length <= LIMIT.selectOptions) {
      blocks.push({ type: 'actions', elements: [choiceElement(ask.view.locale, id, 0, question, 'select')] } satisfies ActionsBlock)
    }
    // As on the card: a plan nobody should act on is dismissed from here too.
    elements.push(wordButton(encodeActionId({ kind: 'request-changes', askId: id }), words.requestChanges), wordButton(encodeActionId({ kind: 'dismiss', askId: id }), words.dismiss))
    return [...blocks, { type: 'actions', elements }]
  }
  return []
}

/** Every block of one ask, the divider after it included. */
function askBlocks(now: number, ask: HomeAskView): KnownBlock[] {
  const words = wordsFor(ask.view.locale)
  const controls = homeControls(ask)
  const blocks: KnownBlock[] = [titleBlock(words, ask), aboutLine(ask.view.locale, now, ask, controls)]
  if (controls !== 'elsewhere' && ask.view.quorum) blocks.push(quorumLine(ask.view.locale, ask.view.quorum))
  blocks.push(...controlBlocks(ask, controls), { type: 'divider' })
  return blocks
}

/**
 * The Home tab: a header, how many asks wait (or that none does), the
 * person's notice, then the asks newest first while they fit in
 * LIMIT.homeBlocks, keeping one block for "…and N older ones" when some do not.
 */
export function homeView(view: HomeView): HomeTabView {
  const words = wordsFor(view.locale)
  const asks = [...view.asks].sort(newestFirst)
  const total = asks.length + (view.older ?? 0)
  const blocks: KnownBlock[] = [{ type: 'header', text: plain(words.homeTitle, LIMIT.headerText) }]
  if (view.notice !== undefined && view.notice.trim() !== '') blocks.push({ type: 'section', text: { type: 'mrkdwn', text: fitText(view.notice, LIMIT.sectionText) } })
  if (total === 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `:white_check_mark: ${escapeMrkdwn(words.homeEmpty)}` } })
    return { type: 'home', blocks }
  }
  blocks.push(contextLine(escapeMrkdwn(words.homeIntro(total))))
  let shown = 0
  for (const [index, ask] of asks.entries()) {
    const more = index < total - 1 ? 1 : 0
    const next = askBlocks(view.now, ask)
    if (blocks.length + next.length + more > LIMIT.homeBlocks) break
    blocks.push(...next)
    shown++
  }
  if (shown < total) blocks.push(contextLine(escapeMrkdwn(words.homeMore(total - shown))))
  return { type: 'home', blocks }
}
