/**
 * Slack's Block Kit rules as one pure checker: the local Slack stand-in
 * rejects every posted, updated, ephemeral and opened payload with it, and the
 * renderers' tests assert their output passes it. It reads every number from
 * the limits table, so the two sides cannot drift apart.
 *
 * Problems read like Slack's own `response_metadata.messages`:
 * `[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]`.
 * Messages answer `invalid_blocks` (and `msg_blocks_too_long` for the total);
 * views (modals and Home tabs) answer `invalid_arguments` with pointers under
 * `/view`, as views.open and views.publish do.
 *
 * Lengths count Unicode code points, not UTF-16 units: an emoji is one
 * character to Slack, so counting units would refuse text Slack accepts.
 */
import { LIMIT } from './limits.js'
import { chars, fail, id, isObj, list, str, text, type Ctx, type Obj, type PayloadProblem, type Surface } from './check-core.js'
import { dataTable, table } from './check-tables.js'
import { carousel } from './check-carousel.js'

export type { PayloadProblem } from './check-core.js'

const SELECTS = ['static_select', 'external_select', 'users_select', 'conversations_select', 'channels_select'] as const
const MULTI_SELECTS = SELECTS.map((type) => `multi_${type}`)
const PICKERS = ['datepicker', 'timepicker', 'datetimepicker']
/** Elements allowed as a section accessory. */
const ACCESSORY = new Set(['button', 'overflow', 'checkboxes', 'radio_buttons', 'image', 'workflow_button', ...SELECTS, ...MULTI_SELECTS, ...PICKERS])
/** Elements allowed in an actions block. */
const ACTIONS = new Set(['button', 'overflow', 'checkboxes', 'radio_buttons', 'workflow_button', ...SELECTS, ...MULTI_SELECTS, ...PICKERS])
/** Elements allowed in an input block. */
const INPUTS = new Set(['plain_text_input', 'checkboxes', 'radio_buttons', 'email_text_input', 'url_text_input', 'number_input', 'rich_text_input', 'file_input', ...SELECTS, ...MULTI_SELECTS, ...PICKERS])
/** Elements of a carousel's card: its buttons, and images for its hero_image and icon. */
const CARD_ELEMENTS = new Set(['button', 'image'])
const RICH_INLINE = new Set(['text', 'link', 'emoji', 'user', 'channel', 'usergroup', 'broadcast', 'date', 'color'])
const RICH_STYLE_KEYS = new Set(['bold', 'italic', 'strike', 'code', 'underline', 'highlight', 'client_highlight', 'unlink'])

function option(ctx: Ctx, o: Obj, path: string, opts: { mrkdwn: boolean; url: boolean }): void {
  text(ctx, o, 'text', path, LIMIT.optionText, { plain: !opts.mrkdwn })
  str(ctx, o, 'value', path, LIMIT.optionValue, true)
  text(ctx, o, 'description', path, LIMIT.optionDescription, { plain: !opts.mrkdwn, optional: true })
  if (o.url !== undefined && !opts.url) fail(ctx, `${path}/url`, 'is only allowed in overflow menus')
}

function options(ctx: Ctx, el: Obj, path: string, max: number, opts: { mrkdwn?: boolean; url?: boolean; optional?: boolean } = {}): void {
  for (const [o, at] of list(ctx, el, 'options', path, max, opts.optional)) option(ctx, o, at, { mrkdwn: opts.mrkdwn ?? false, url: opts.url ?? false })
}

function placeholder(ctx: Ctx, el: Obj, path: string): void {
  text(ctx, el, 'placeholder', path, LIMIT.placeholderText, { plain: true, optional: true })
}

function confirm(ctx: Ctx, el: Obj, path: string): void {
  if (el.confirm === undefined) return
  if (!isObj(el.confirm)) return fail(ctx, `${path}/confirm`, 'must be an object')
  const at = `${path}/confirm`
  text(ctx, el.confirm, 'title', at, LIMIT.confirmTitle, { plain: true })
  text(ctx, el.confirm, 'text', at, LIMIT.confirmText)
  text(ctx, el.confirm, 'confirm', at, LIMIT.confirmButton, { plain: true })
  text(ctx, el.confirm, 'deny', at, LIMIT.confirmButton, { plain: true })
}

function element(ctx: Ctx, el: Obj, path: string, allowed: Set<string>): void {
  const type = el.type
  if (typeof type !== 'string') return fail(ctx, path, 'missing required field: type')
  if (!allowed.has(type)) return fail(ctx, `${path}/type`, `unsupported type: ${type}`)
  if (type !== 'image') id(ctx, el, 'action_id', path, ctx.actionIds)
  confirm(ctx, el, path)
  switch (type) {
    case 'button':
      text(ctx, el, 'text', path, LIMIT.buttonText, { plain: true })
      str(ctx, el, 'value', path, LIMIT.buttonValue, true)
      if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger') fail(ctx, `${path}/style`, 'must be one of: primary, danger')
      return
    case 'overflow':
      return options(ctx, el, path, LIMIT.overflowOptions, { url: true })
    case 'checkboxes':
    case 'radio_buttons':
      return options(ctx, el, path, LIMIT.checkboxOptions, { mrkdwn: true })
    case 'static_select':
    case 'multi_static_select':
      placeholder(ctx, el, path)
      if (el.option_groups !== undefined) {
        if (el.options !== undefined) fail(ctx, path, 'must provide only one of: options, option_groups')
        for (const [group, at] of list(ctx, el, 'option_groups', path, LIMIT.selectOptions)) {
          text(ctx, group, 'label', at, LIMIT.optionText, { plain: true })
          options(ctx, group, at, LIMIT.selectOptions)
        }
        return
      }
      return options(ctx, el, path, LIMIT.selectOptions)
    case 'plain_text_input':
      placeholder(ctx, el, path)
      for (const key of ['min_length', 'max_length'] as const) {
        const n = el[key]
        if (n === undefined) continue
        if (typeof n !== 'number' || !Number.isInteger(n) || n < (key === 'min_length' ? 0 : 1) || n > LIMIT.plainTextInputMax) {
          fail(ctx, `${path}/${key}`, `must be an integer from ${key === 'min_length' ? 0 : 1} to ${LIMIT.plainTextInputMax}`)
        }
      }
      if (el.initial_value !== undefined) str(ctx, el, 'initial_value', path, LIMIT.plainTextInputMax)
      return
    case 'image':
      if (el.image_url === undefined && el.slack_file === undefined) fail(ctx, path, 'missing required field: image_url')
      str(ctx, el, 'alt_text', path, LIMIT.sectionFieldText)
      return
    default:
      // selects of users/conversations/external options and pickers: only the placeholder has a limit we use
      placeholder(ctx, el, path)
  }
}

function richInline(ctx: Ctx, item: Obj, path: string): void {
  const type = item.type
  if (typeof type !== 'string' || !RICH_INLINE.has(type)) return fail(ctx, `${path}/type`, `unsupported type: ${String(type)}`)
  if (item.style !== undefined) {
    if (!isObj(item.style)) fail(ctx, `${path}/style`, 'must be an object')
    else for (const [k, v] of Object.entries(item.style)) if (!RICH_STYLE_KEYS.has(k) || typeof v !== 'boolean') fail(ctx, `${path}/style/${k}`, 'unsupported style')
  }
  const count = (s: string | undefined): void => void (s !== undefined && (ctx.textTotal += chars(s)))
  if (type === 'text') count(str(ctx, item, 'text', path, LIMIT.richTextElementText))
  else if (type === 'link') {
    str(ctx, item, 'url', path, LIMIT.richTextElementText)
    count(str(ctx, item, 'text', path, LIMIT.richTextElementText, true))
  } else if (type === 'emoji') str(ctx, item, 'name', path, LIMIT.blockIdLength)
  else if (type === 'user') str(ctx, item, 'user_id', path, LIMIT.blockIdLength)
  else if (type === 'channel') str(ctx, item, 'channel_id', path, LIMIT.blockIdLength)
  else if (type === 'usergroup') str(ctx, item, 'usergroup_id', path, LIMIT.blockIdLength)
}

function richElement(ctx: Ctx, el: Obj, path: string, inList = false): void {
  const type = el.type
  const known = inList ? ['rich_text_section'] : ['rich_text_section', 'rich_text_list', 'rich_text_preformatted', 'rich_text_quote']
  if (typeof type !== 'string' || !known.includes(type)) return fail(ctx, `${path}/type`, `unsupported type: ${String(type)}`)
  if (type === 'rich_text_list') {
    if (el.style !== 'bullet' && el.style !== 'ordered') fail(ctx, `${path}/style`, 'must be one of: bullet, ordered')
    if (el.indent !== undefined && (typeof el.indent !== 'number' || !Number.isInteger(el.indent) || el.indent < 0 || el.indent > LIMIT.richTextListIndent)) {
      fail(ctx, `${path}/indent`, `must be an integer from 0 to ${LIMIT.richTextListIndent}`)
    }
    for (const [item, at] of list(ctx, el, 'elements', path, Number.MAX_SAFE_INTEGER)) richElement(ctx, item, at, true)
    return
  }
  const value = el.elements
  if (!Array.isArray(value)) return fail(ctx, value === undefined ? path : `${path}/elements`, value === undefined ? 'missing required field: elements' : 'must be an array')
  value.forEach((item, i) => (isObj(item) ? richInline(ctx, item, `${path}/elements/${i}`) : fail(ctx, `${path}/elements/${i}`, 'must be an object')))
}

function block(ctx: Ctx, b: Obj, path: string): void {
  const type = b.type
  if (typeof type !== 'string') return fail(ctx, path, 'missing required field: type')
  id(ctx, b, 'block_id', path, ctx.blockIds)
  switch (type) {
    case 'section':
      if (b.text === undefined && b.fields === undefined) fail(ctx, path, 'must provide at least one of: text, fields')
      text(ctx, b, 'text', path, LIMIT.sectionText, { optional: true })
      for (const [field, at] of list(ctx, b, 'fields', path, LIMIT.sectionFields, true)) {
        if (field.type !== 'plain_text' && field.type !== 'mrkdwn') fail(ctx, `${at}/type`, 'must be one of: plain_text, mrkdwn')
        const s = str(ctx, field, 'text', at, LIMIT.sectionFieldText)
        if (s !== undefined) ctx.textTotal += chars(s)
      }
      if (b.accessory !== undefined) {
        if (isObj(b.accessory)) element(ctx, b.accessory, `${path}/accessory`, ACCESSORY)
        else fail(ctx, `${path}/accessory`, 'must be an object')
      }
      return
    case 'header':
      return text(ctx, b, 'text', path, LIMIT.headerText, { plain: true })
    case 'divider':
      return
    case 'context':
      for (const [el, at] of list(ctx, b, 'elements', path, LIMIT.contextElements)) {
        if (el.type === 'image') element(ctx, el, at, new Set(['image']))
        else if (el.type === 'plain_text' || el.type === 'mrkdwn') {
          const s = str(ctx, el, 'text', at, LIMIT.contextElementText)
          if (s !== undefined) ctx.textTotal += chars(s)
        } else fail(ctx, `${at}/type`, `unsupported type: ${String(el.type)}`)
      }
      return
    case 'actions':
      for (const [el, at] of list(ctx, b, 'elements', path, LIMIT.actionsElements)) element(ctx, el, at, ACTIONS)
      return
    case 'input':
      if (ctx.surface === 'message') return fail(ctx, `${path}/type`, 'unsupported type: input (input blocks are only allowed in modals and Home tabs)')
      text(ctx, b, 'label', path, LIMIT.inputLabel, { plain: true })
      text(ctx, b, 'hint', path, LIMIT.inputHint, { plain: true, optional: true })
      if (b.optional !== undefined && typeof b.optional !== 'boolean') fail(ctx, `${path}/optional`, 'must be a boolean')
      if (!isObj(b.element)) return fail(ctx, path, 'missing required field: element')
      return element(ctx, b.element, `${path}/element`, INPUTS)
    case 'image':
      if (b.image_url === undefined && b.slack_file === undefined) fail(ctx, path, 'missing required field: image_url')
      str(ctx, b, 'alt_text', path, LIMIT.sectionFieldText)
      text(ctx, b, 'title', path, LIMIT.sectionFieldText, { plain: true, optional: true })
      return
    case 'rich_text':
      for (const [el, at] of list(ctx, b, 'elements', path, Number.MAX_SAFE_INTEGER)) richElement(ctx, el, at)
      return
    case 'markdown': {
      if (ctx.surface !== 'message') return fail(ctx, `${path}/type`, 'unsupported type: markdown (markdown blocks are only allowed in messages)')
      const s = str(ctx, b, 'text', path, LIMIT.markdownBlockTotal)
      if (s !== undefined) {
        ctx.markdownTotal += chars(s)
        ctx.textTotal += chars(s)
      }
      return
    }
    case 'table':
      return table(ctx, b, path, (el, at) => richElement(ctx, el, at))
    case 'data_table':
      return dataTable(ctx, b, path, (el, at) => richElement(ctx, el, at))
    case 'carousel':
      return carousel(ctx, b, path, (el, at) => element(ctx, el, at, CARD_ELEMENTS))
    case 'container':
      return container(ctx, b, path)
    default:
      fail(ctx, `${path}/type`, `unsupported type: ${type}`)
  }
}

/** A container's children, as the Block Kit reference lists them (no container in a container). */
const CONTAINER_CHILDREN = new Set(['actions', 'context', 'divider', 'file', 'header', 'image', 'input', 'rich_text', 'section', 'table', 'video'])
const CONTAINER_WIDTHS = new Set(['narrow', 'standard', 'wide', 'full'])

/**
 * A `container` block (Block Kit reference, "Container block"): a plain_text
 * `title` or a `rich_text_title`, an optional subtitle, 1 to 10 child blocks
 * of the listed kinds, each checked as a block of the message. Assumed where
 * the reference is silent (decision 0068): messages only; `default_collapsed`
 * without `is_collapsible` is refused ("requires"); the children count toward
 * the message's text but not its 50 blocks.
 */
function container(ctx: Ctx, b: Obj, path: string): void {
  if (ctx.surface !== 'message') return fail(ctx, `${path}/type`, 'unsupported type: container (container blocks are only allowed in messages)')
  if (b.rich_text_title !== undefined) {
    if (!isObj(b.rich_text_title) || b.rich_text_title.type !== 'rich_text') fail(ctx, `${path}/rich_text_title`, 'must be a rich_text block')
    else block(ctx, b.rich_text_title, `${path}/rich_text_title`)
  } else text(ctx, b, 'title', path, LIMIT.containerTitle, { plain: true })
  text(ctx, b, 'subtitle', path, LIMIT.containerSubtitle, { optional: true })
  for (const [child, at] of list(ctx, b, 'child_blocks', path, LIMIT.containerChildBlocks)) {
    if (typeof child.type === 'string' && !CONTAINER_CHILDREN.has(child.type)) fail(ctx, `${at}/type`, `unsupported type in a container: ${child.type}`)
    else block(ctx, child, at)
  }
  if (b.width !== undefined && !CONTAINER_WIDTHS.has(String(b.width))) fail(ctx, `${path}/width`, 'must be one of: narrow, standard, wide, full')
  for (const key of ['is_collapsible', 'default_collapsed', 'has_header_divider'] as const) {
    if (b[key] !== undefined && typeof b[key] !== 'boolean') fail(ctx, `${path}/${key}`, 'must be a boolean')
  }
  if (b.default_collapsed === true && b.is_collapsible !== true) fail(ctx, `${path}/default_collapsed`, 'requires is_collapsible to be true')
  if (b.icon !== undefined) {
    if (isObj(b.icon)) element(ctx, b.icon, `${path}/icon`, new Set(['image']))
    else fail(ctx, `${path}/icon`, 'must be an object')
  }
}

function blocks(ctx: Ctx, value: unknown, path: string, max: number): void {
  if (!Array.isArray(value)) return fail(ctx, path, 'must be an array')
  if (value.length > max) fail(ctx, path, `no more than ${max} items allowed`)
  value.forEach((b, i) => (isObj(b) ? block(ctx, b, `${path}/${i}`) : fail(ctx, `${path}/${i}`, 'must be an object')))
}

function context(surface: Surface): Ctx {
  return { surface, code: surface === 'message' ? 'invalid_blocks' : 'invalid_arguments', problems: [], actionIds: new Set(), blockIds: new Set(), textTotal: 0, markdownTotal: 0, tables: 0, tableText: 0 }
}

/**
 * Why Slack would refuse this message (chat.postMessage, chat.update,
 * chat.postEphemeral); empty when it would accept it. Checks only `blocks`:
 * the top-level `text` is the notification fallback, which Slack truncates
 * rather than refuses.
 */
export function checkMessagePayload(payload: { text?: unknown; blocks?: unknown }): PayloadProblem[] {
  const ctx = context('message')
  if (payload.text !== undefined && typeof payload.text !== 'string') fail(ctx, '/text', 'must be a string')
  if (payload.blocks === undefined) return ctx.problems
  blocks(ctx, payload.blocks, '/blocks', LIMIT.messageBlocks)
  if (ctx.markdownTotal > LIMIT.markdownBlockTotal) fail(ctx, '/blocks', `markdown blocks must be less than ${LIMIT.markdownBlockTotal + 1} characters in total`)
  // Undocumented: past about 12k characters of text Slack refuses the whole message.
  if (ctx.problems.length === 0 && ctx.textTotal > LIMIT.messageTextHard) {
    ctx.problems.push({ code: 'msg_blocks_too_long', message: `[ERROR] blocks hold ${ctx.textTotal} characters of text, more than ${LIMIT.messageTextHard} [json-pointer:/blocks]` })
  }
  return ctx.problems
}

/** Why views.open / views.update / views.push would refuse this modal; empty when Slack would accept it. */
export function checkViewPayload(view: unknown): PayloadProblem[] {
  const ctx = context('modal')
  if (!isObj(view)) {
    fail(ctx, '/view', 'must be an object')
    return ctx.problems
  }
  if (view.type !== 'modal') fail(ctx, '/view/type', `unsupported type: ${String(view.type)}`)
  text(ctx, view, 'title', '/view', LIMIT.modalTitle, { plain: true })
  text(ctx, view, 'close', '/view', LIMIT.modalButtonText, { plain: true, optional: true })
  text(ctx, view, 'submit', '/view', LIMIT.modalButtonText, { plain: true, optional: true })
  if (view.private_metadata !== undefined) {
    if (typeof view.private_metadata !== 'string') fail(ctx, '/view/private_metadata', 'must be a string')
    else if (chars(view.private_metadata) > LIMIT.privateMetadata) fail(ctx, '/view/private_metadata', `must be less than ${LIMIT.privateMetadata + 1} characters`)
  }
  str(ctx, view, 'callback_id', '/view', LIMIT.blockIdLength, true)
  str(ctx, view, 'external_id', '/view', LIMIT.blockIdLength, true)
  for (const key of ['clear_on_close', 'notify_on_close'] as const) {
    if (view[key] !== undefined && typeof view[key] !== 'boolean') fail(ctx, `/view/${key}`, 'must be a boolean')
  }
  if (view.blocks === undefined) fail(ctx, '/view', 'missing required field: blocks')
  else blocks(ctx, view.blocks, '/view/blocks', LIMIT.modalBlocks)
  // Slack needs a submit button to submit input blocks.
  if (Array.isArray(view.blocks) && view.submit === undefined && view.blocks.some((b) => isObj(b) && b.type === 'input')) {
    fail(ctx, '/view', 'missing required field: submit (a modal with input blocks needs one)')
  }
  return ctx.problems
}

/**
 * Why views.publish would refuse this Home tab; empty when Slack would accept
 * it. A Home view has no title, submit or close; it takes up to
 * LIMIT.homeBlocks blocks, the same kinds as a modal.
 */
export function checkHomeViewPayload(view: unknown): PayloadProblem[] {
  const ctx = context('home')
  if (!isObj(view)) {
    fail(ctx, '/view', 'must be an object')
    return ctx.problems
  }
  if (view.type !== 'home') fail(ctx, '/view/type', `unsupported type: ${String(view.type)} (views.publish takes a home view)`)
  for (const key of ['title', 'submit', 'close'] as const) {
    if (view[key] !== undefined) fail(ctx, `/view/${key}`, `unsupported field: ${key} (a Home tab has none)`)
  }
  if (view.private_metadata !== undefined) {
    if (typeof view.private_metadata !== 'string') fail(ctx, '/view/private_metadata', 'must be a string')
    else if (chars(view.private_metadata) > LIMIT.privateMetadata) fail(ctx, '/view/private_metadata', `must be less than ${LIMIT.privateMetadata + 1} characters`)
  }
  str(ctx, view, 'callback_id', '/view', LIMIT.blockIdLength, true)
  str(ctx, view, 'external_id', '/view', LIMIT.blockIdLength, true)
  if (view.blocks === undefined) fail(ctx, '/view', 'missing required field: blocks')
  else blocks(ctx, view.blocks, '/view/blocks', LIMIT.homeBlocks)
  return ctx.problems
}
