/**
 * Block Kit's interactive elements. Each control reports what the person did
 * through `act()` by what the ScriptedUser needs: a button by its text, a
 * menu by its action_id and an option by its text. Selections shown come
 * from the server's copy of this user's `state.values`, so they are what the
 * app will read.
 */
import { confirmFirst } from './confirm.js'
import { stateOf, type RenderContext } from './context.js'
import { arr, el, has, isObj, nextId, safeUrl, str, textOf, type Obj } from './dom.js'
import { act, post, showError } from './live.js'
import { S } from './state.js'
import { textObject } from './text-object.js'
import type { ActResult } from '../wire.js'

export function renderElement(x: Obj, block: Obj, ctx: RenderContext): HTMLElement {
  const blockId = str(block.block_id)
  const actionId = str(x.action_id)
  switch (x.type) {
    case 'button':
      return button(x, ctx)
    case 'overflow':
      return overflow(x, ctx)
    case 'static_select':
      return staticSelect(x, actionId, stateOf(ctx, blockId, actionId), ctx)
    case 'multi_static_select':
      return multiStatic(x, actionId, stateOf(ctx, blockId, actionId), ctx)
    case 'external_select':
      return externalSelect(x, actionId, stateOf(ctx, blockId, actionId), ctx, false)
    case 'multi_external_select':
      return externalSelect(x, actionId, stateOf(ctx, blockId, actionId), ctx, true)
    case 'checkboxes':
      return choices(x, actionId, stateOf(ctx, blockId, actionId), ctx, 'checkbox')
    case 'radio_buttons':
      return choices(x, actionId, stateOf(ctx, blockId, actionId), ctx, 'radio')
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input':
      return textInput(x, blockId, ctx)
  }
  return el('span', 'b-unknown', `[${str(x.type)}]`)
}

/** A link button opens its URL and still tells the app, as Slack does. */
function openLink(url: unknown): void {
  const safe = url ? safeUrl(url) : null
  if (safe) window.open(safe, '_blank', 'noopener,noreferrer')
}

function button(x: Obj, ctx: RenderContext): HTMLElement {
  const label = textOf(x.text)
  const b = el('button', `btn${x.style === 'primary' ? ' primary' : x.style === 'danger' ? ' danger' : ''}`)
  b.type = 'button'
  b.title = label
  b.appendChild(textObject(x.text, 'btn-label', 'span'))
  b.addEventListener('click', () => {
    confirmFirst(x.confirm, () => {
      openLink(x.url)
      // The action_id too: the Home tab shows many asks, each with its own Approve.
      void act({ action: 'click', target: ctx.target, label, ...(typeof x.action_id === 'string' ? { actionId: x.action_id } : {}) }, b)
    })
  })
  return b
}

function overflow(x: Obj, ctx: RenderContext): HTMLElement {
  const wrap = el('div', 'overflow')
  const toggle = el('button', 'btn small', '\u22ef')
  const menu = el('ul', 'overflow-menu menu')
  toggle.type = 'button'
  toggle.setAttribute('aria-label', 'More actions')
  toggle.setAttribute('aria-haspopup', 'menu')
  menu.hidden = true
  menu.setAttribute('role', 'menu')
  for (const o of arr(x.options)) {
    if (!isObj(o)) continue
    const li = el('li')
    const item = el('button', null, textOf(o.text))
    item.type = 'button'
    item.setAttribute('role', 'menuitem')
    item.addEventListener('click', () => {
      menu.hidden = true
      confirmFirst(x.confirm, () => {
        openLink(o.url)
        void act({ action: 'click', target: ctx.target, label: textOf(o.text) }, toggle)
      })
    })
    li.appendChild(item)
    menu.appendChild(li)
  }
  toggle.addEventListener('click', () => (menu.hidden = !menu.hidden))
  wrap.append(toggle, menu)
  return wrap
}

function optionGroups(x: Obj): { label?: string; options: unknown[] }[] {
  if (Array.isArray(x.options)) return [{ options: x.options }]
  return arr(x.option_groups)
    .filter(isObj)
    .map((g) => ({ label: textOf(g.label), options: arr(g.options) }))
}

function fillOptions(select: HTMLSelectElement, x: Obj, skip: string[]): void {
  for (const group of optionGroups(x)) {
    let parent: HTMLElement = select
    if (group.label !== undefined) {
      const optgroup = el('optgroup')
      optgroup.label = group.label
      select.appendChild(optgroup)
      parent = optgroup
    }
    for (const o of group.options) {
      if (!isObj(o) || skip.includes(str(o.value))) continue
      const option = el('option', null, textOf(o.text))
      option.value = str(o.value)
      parent.appendChild(option)
    }
  }
}

function placeholderOption(text: string): HTMLOptionElement {
  const option = el('option', null, text)
  option.value = ''
  return option
}

function staticSelect(x: Obj, actionId: string, current: Obj | undefined, ctx: RenderContext): HTMLElement {
  const select = el('select', 'select')
  const chosen = current && isObj(current.selected_option) ? str(current.selected_option.value) : ''
  select.setAttribute('aria-label', textOf(x.placeholder) || 'Choose an option')
  select.appendChild(placeholderOption(textOf(x.placeholder) || 'Select an item'))
  fillOptions(select, x, [])
  select.value = chosen
  select.addEventListener('change', () => {
    const option = select.options[select.selectedIndex]
    if (!option?.value) return
    confirmFirst(
      x.confirm,
      () => void act({ action: 'choose', target: ctx.target, actionId, option: option.textContent ?? '' }, select),
      () => (select.value = chosen),
    )
  })
  return select
}

function chip(text: string, onRemove: (control: HTMLElement) => void): HTMLElement {
  const c = el('span', 'chip')
  const remove = el('button', null, '\u00d7')
  c.appendChild(el('span', null, text))
  remove.type = 'button'
  remove.setAttribute('aria-label', `Remove ${text}`)
  remove.addEventListener('click', () => onRemove(remove))
  c.appendChild(remove)
  return c
}

function multiStatic(x: Obj, actionId: string, current: Obj | undefined, ctx: RenderContext): HTMLElement {
  const wrap = el('div', 'multi')
  const selected = current ? arr(current.selected_options).filter(isObj) : []
  if (selected.length) {
    const chips = el('div', 'chips')
    for (const o of selected) {
      chips.appendChild(chip(textOf(o.text), (control) => void act({ action: 'toggle', target: ctx.target, actionId, option: textOf(o.text) }, control)))
    }
    wrap.appendChild(chips)
  }
  const select = el('select', 'select')
  select.setAttribute('aria-label', textOf(x.placeholder) || 'Select options')
  select.appendChild(placeholderOption(selected.length ? 'Add another\u2026' : textOf(x.placeholder) || 'Select options'))
  fillOptions(
    select,
    x,
    selected.map((o) => str(o.value)),
  )
  select.value = ''
  select.addEventListener('change', () => {
    const option = select.options[select.selectedIndex]
    if (option?.value) void act({ action: 'toggle', target: ctx.target, actionId, option: option.textContent ?? '' }, select)
  })
  wrap.appendChild(select)
  return wrap
}

/** External selects ask the app for options as the person types (block_suggestion), like Slack's client. */
function externalSelect(x: Obj, actionId: string, current: Obj | undefined, ctx: RenderContext, multi: boolean): HTMLElement {
  const wrap = el('div', 'ext')
  const selected = !current ? [] : multi ? arr(current.selected_options).filter(isObj) : isObj(current.selected_option) ? [current.selected_option] : []
  const verb = multi ? 'toggle' : 'choose'
  if (multi && selected.length) {
    const chips = el('div', 'chips')
    for (const o of selected) {
      chips.appendChild(chip(textOf(o.text), (control) => void act({ action: 'toggle', target: ctx.target, actionId, option: textOf(o.text), query: textOf(o.text) }, control)))
    }
    wrap.appendChild(chips)
  }
  const input = el('input', 'text')
  const list = el('ul', 'ext-list menu')
  const min = typeof x.min_query_length === 'number' ? x.min_query_length : 3
  let timer: ReturnType<typeof setTimeout> | undefined
  let seq = 0
  input.type = 'search'
  input.autocomplete = 'off'
  input.placeholder = textOf(x.placeholder) || 'Type to search'
  input.setAttribute('aria-label', input.placeholder)
  list.hidden = true
  const search = async (): Promise<void> => {
    const query = input.value
    const mine = ++seq
    if (query.length < min) {
      list.hidden = true
      return
    }
    let result: ActResult
    try {
      result = (await post('/web/act', { action: 'suggest', user: S.user, target: ctx.target, actionId, query })) as ActResult
    } catch (error) {
      showError(error)
      return
    }
    // A later keystroke's search owns the list now.
    if (mine !== seq) return
    list.replaceChildren()
    const options = result.options ?? []
    for (const o of options) {
      const li = el('li')
      const b = el('button', null, o.text)
      b.type = 'button'
      b.addEventListener('click', () => {
        list.hidden = true
        void act({ action: verb, target: ctx.target, actionId, option: o.text, query }, input)
      })
      li.appendChild(b)
      list.appendChild(li)
    }
    if (!options.length) list.appendChild(el('li', 'muted', 'No matches'))
    list.hidden = false
  }
  input.addEventListener('input', () => {
    clearTimeout(timer)
    timer = setTimeout(() => void search(), 150)
  })
  input.addEventListener('focus', () => {
    if (min === 0) void search()
  })
  wrap.append(input, list)
  const first = selected[0]
  if (!multi && first) wrap.appendChild(el('div', 'ext-current', `Selected: ${textOf(first.text)}`))
  return wrap
}

function choices(x: Obj, actionId: string, current: Obj | undefined, ctx: RenderContext, kind: 'checkbox' | 'radio'): HTMLElement {
  const box = el('div', 'choice-list')
  const name = nextId('choice-')
  const chosen = !current
    ? []
    : kind === 'radio'
      ? isObj(current.selected_option)
        ? [str(current.selected_option.value)]
        : []
      : arr(current.selected_options).map((o) => (isObj(o) ? str(o.value) : ''))
  box.setAttribute('role', kind === 'radio' ? 'radiogroup' : 'group')
  for (const o of arr(x.options)) {
    if (!isObj(o)) continue
    const label = el('label', 'choice')
    const input = el('input')
    const text = el('span')
    input.type = kind
    input.name = name
    input.checked = chosen.includes(str(o.value))
    text.appendChild(textObject(o.text, 'choice-text', 'span'))
    if (isObj(o.description)) text.appendChild(textObject(o.description, 'choice-desc', 'span'))
    input.addEventListener('change', () => void act({ action: kind === 'radio' ? 'choose' : 'toggle', target: ctx.target, actionId, option: textOf(o.text) }, null))
    label.append(input, text)
    box.appendChild(label)
  }
  return box
}

/** Typed text stays in the page (Slack tells the app nothing until submit) and survives re-renders. */
function textInput(x: Obj, blockId: string, ctx: RenderContext): HTMLElement {
  const input = x.multiline === true ? el('textarea', 'text') : el('input', 'text')
  const draftKey = ctx.viewId ?? 'message'
  const drafts = (S.drafts[draftKey] ??= {})
  const current = stateOf(ctx, blockId, str(x.action_id))
  if (input instanceof HTMLInputElement) input.type = x.type === 'email_text_input' ? 'email' : x.type === 'url_text_input' ? 'url' : 'text'
  if (isObj(x.placeholder)) input.placeholder = textOf(x.placeholder)
  if (typeof x.max_length === 'number') input.maxLength = x.max_length
  input.value = has(drafts, blockId) ? drafts[blockId]! : current && typeof current.value === 'string' ? current.value : str(x.initial_value)
  input.dataset.blockId = blockId
  input.addEventListener('input', () => (drafts[blockId] = input.value))
  return input
}

export function inputBlock(b: Obj, ctx: RenderContext): HTMLElement {
  const blockId = str(b.block_id)
  const wrap = el('div', 'input-block')
  const label = el('label', 'input-label', textOf(b.label))
  const control = isObj(b.element) ? renderElement(b.element, b, ctx) : el('div')
  wrap.dataset.blockId = blockId
  label.id = nextId('label-')
  if (b.optional === true) label.appendChild(el('span', 'optional', ' (optional)'))
  if (control.matches('input, textarea, select')) {
    control.id = nextId('input-')
    label.htmlFor = control.id
  } else control.setAttribute('aria-labelledby', label.id)
  wrap.append(label, control)
  if (isObj(b.hint)) wrap.appendChild(el('div', 'input-hint', textOf(b.hint)))
  const error = ctx.errors?.[blockId]
  if (error) showInputError(wrap, error)
  return wrap
}

export function showInputError(wrap: HTMLElement, message: string): void {
  wrap.querySelector('.input-error')?.remove()
  wrap.classList.add('invalid')
  const e = el('div', 'input-error', message)
  e.setAttribute('role', 'alert')
  wrap.appendChild(e)
}
