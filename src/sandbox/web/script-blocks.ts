/**
 * Client script, part 2: Block Kit blocks and interactive elements. Each
 * control reports what the person did through `act()` (part 3) by what the
 * ScriptedUser needs: a button by its text, a menu by its action_id and an
 * option by its text. Selections shown come from the server's copy of this
 * user's `state.values`, so they are what the app will read.
 * Same rules as part 1: plain JavaScript, no backticks, no dollar-brace.
 */

export const SCRIPT_BLOCKS = String.raw`
var uid = 0;
function nextId(prefix) { uid += 1; return prefix + uid; }

function textObject(t, cls, tag) {
  var node = el(tag || 'div', cls);
  if (!isObj(t)) return node;
  if (t.type === 'mrkdwn') mrkdwn(str(t.text), node);
  else if (t.emoji === false) node.textContent = str(t.text);
  else textWithEmoji(str(t.text), node);
  return node;
}
function renderBlocks(blocks, ctx) {
  var root = el('div', 'blocks');
  arr(blocks).forEach(function (b) { if (isObj(b)) root.appendChild(renderBlock(b, ctx)); });
  return root;
}
function renderBlock(b, ctx) {
  switch (b.type) {
    case 'header': return textObject(b.text, 'b-header');
    case 'divider': return el('hr', 'b-divider');
    case 'rich_text': return richText(b);
    case 'markdown': return markdownBlock(b.text);
    case 'input': return inputBlock(b, ctx);
    case 'context': {
      var c = el('div', 'b-context');
      arr(b.elements).forEach(function (x) {
        if (!isObj(x)) return;
        c.appendChild(x.type === 'image' ? el('span', 'b-image', '[' + (str(x.alt_text) || 'image') + ']') : textObject(x, 'ctx-text', 'span'));
      });
      return c;
    }
    case 'section': {
      var s = el('div', 'b-section'), body = el('div', 'b-section-text');
      if (isObj(b.text)) body.appendChild(textObject(b.text));
      if (Array.isArray(b.fields)) {
        var fields = el('div', 'b-fields');
        b.fields.forEach(function (f) { fields.appendChild(textObject(f)); });
        body.appendChild(fields);
      }
      s.appendChild(body);
      if (isObj(b.accessory)) s.appendChild(renderElement(b.accessory, b, ctx));
      return s;
    }
    case 'actions': {
      var a = el('div', 'b-actions');
      arr(b.elements).forEach(function (x) { if (isObj(x)) a.appendChild(renderElement(x, b, ctx)); });
      return a;
    }
    case 'image': {
      var fig = el('div', 'b-image');
      fig.appendChild(link(str(b.image_url), '[image: ' + (str(b.alt_text) || str(b.image_url)) + ']'));
      return fig;
    }
  }
  return el('div', 'b-unknown', '[unsupported block: ' + str(b.type) + ']');
}

function stateOf(ctx, blockId, actionId) {
  var block = ctx.state && ctx.state[blockId];
  return block ? block[actionId] : undefined;
}
function renderElement(x, block, ctx) {
  var blockId = str(block.block_id), actionId = str(x.action_id);
  switch (x.type) {
    case 'button': return button(x, ctx);
    case 'overflow': return overflow(x, ctx);
    case 'static_select': return staticSelect(x, blockId, actionId, ctx);
    case 'multi_static_select': return multiStatic(x, blockId, actionId, ctx);
    case 'external_select': return externalSelect(x, blockId, actionId, ctx, false);
    case 'multi_external_select': return externalSelect(x, blockId, actionId, ctx, true);
    case 'checkboxes': return choices(x, blockId, actionId, ctx, 'checkbox');
    case 'radio_buttons': return choices(x, blockId, actionId, ctx, 'radio');
    case 'plain_text_input': case 'email_text_input': case 'url_text_input': case 'number_input': return textInput(x, blockId, ctx);
  }
  return el('span', 'b-unknown', '[' + str(x.type) + ']');
}

function button(x, ctx) {
  var label = textOf(x.text);
  var b = el('button', 'btn' + (x.style === 'primary' ? ' primary' : x.style === 'danger' ? ' danger' : ''));
  b.type = 'button';
  b.title = label;
  b.appendChild(textObject(x.text, 'btn-label', 'span'));
  b.addEventListener('click', function () {
    confirmFirst(x.confirm, function () {
      // A link button opens its URL and still tells the app, as Slack does.
      var safe = x.url ? safeUrl(x.url) : null;
      if (safe) window.open(safe, '_blank', 'noopener,noreferrer');
      act({ action: 'click', target: ctx.target, label: label }, b);
    });
  });
  return b;
}

function overflow(x, ctx) {
  var wrap = el('div', 'overflow'), toggle = el('button', 'btn small', '\u22ef'), menu = el('ul', 'overflow-menu menu');
  toggle.type = 'button';
  toggle.setAttribute('aria-label', 'More actions');
  toggle.setAttribute('aria-haspopup', 'menu');
  menu.hidden = true;
  menu.setAttribute('role', 'menu');
  arr(x.options).forEach(function (o) {
    if (!isObj(o)) return;
    var li = el('li'), item = el('button', null, textOf(o.text));
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.addEventListener('click', function () {
      menu.hidden = true;
      confirmFirst(x.confirm, function () {
        var safe = o.url ? safeUrl(o.url) : null;
        if (safe) window.open(safe, '_blank', 'noopener,noreferrer');
        act({ action: 'click', target: ctx.target, label: textOf(o.text) }, toggle);
      });
    });
    li.appendChild(item);
    menu.appendChild(li);
  });
  toggle.addEventListener('click', function () { menu.hidden = !menu.hidden; });
  wrap.appendChild(toggle);
  wrap.appendChild(menu);
  return wrap;
}

function optionGroups(x) {
  if (Array.isArray(x.options)) return [{ options: x.options }];
  return arr(x.option_groups).filter(isObj).map(function (g) { return { label: textOf(g.label), options: arr(g.options) }; });
}
function fillOptions(sel, x, skip) {
  optionGroups(x).forEach(function (g) {
    var parent = sel;
    if (g.label !== undefined) { parent = el('optgroup'); parent.label = g.label; sel.appendChild(parent); }
    g.options.forEach(function (o) {
      if (!isObj(o) || skip.indexOf(str(o.value)) >= 0) return;
      var opt = el('option', null, textOf(o.text));
      opt.value = str(o.value);
      parent.appendChild(opt);
    });
  });
}
function placeholderOption(text) {
  var ph = el('option', null, text);
  ph.value = '';
  return ph;
}
function staticSelect(x, blockId, actionId, ctx) {
  var sel = el('select', 'select'), current = stateOf(ctx, blockId, actionId);
  var chosen = current && isObj(current.selected_option) ? str(current.selected_option.value) : '';
  sel.setAttribute('aria-label', textOf(x.placeholder) || 'Choose an option');
  sel.appendChild(placeholderOption(textOf(x.placeholder) || 'Select an item'));
  fillOptions(sel, x, []);
  sel.value = chosen;
  sel.addEventListener('change', function () {
    var opt = sel.options[sel.selectedIndex];
    if (!opt || !opt.value) return;
    confirmFirst(x.confirm, function () {
      act({ action: 'choose', target: ctx.target, actionId: actionId, option: opt.textContent }, sel);
    }, function () { sel.value = chosen; });
  });
  return sel;
}
function chip(text, onRemove) {
  var c = el('span', 'chip'), rm = el('button', null, '\u00d7');
  c.appendChild(el('span', null, text));
  rm.type = 'button';
  rm.setAttribute('aria-label', 'Remove ' + text);
  rm.addEventListener('click', function () { onRemove(rm); });
  c.appendChild(rm);
  return c;
}
function multiStatic(x, blockId, actionId, ctx) {
  var wrap = el('div', 'multi'), current = stateOf(ctx, blockId, actionId);
  var selected = current ? arr(current.selected_options).filter(isObj) : [];
  if (selected.length) {
    var chips = el('div', 'chips');
    selected.forEach(function (o) {
      chips.appendChild(chip(textOf(o.text), function (control) { act({ action: 'toggle', target: ctx.target, actionId: actionId, option: textOf(o.text) }, control); }));
    });
    wrap.appendChild(chips);
  }
  var sel = el('select', 'select');
  sel.setAttribute('aria-label', textOf(x.placeholder) || 'Select options');
  sel.appendChild(placeholderOption(selected.length ? 'Add another\u2026' : textOf(x.placeholder) || 'Select options'));
  fillOptions(sel, x, selected.map(function (o) { return str(o.value); }));
  sel.value = '';
  sel.addEventListener('change', function () {
    var opt = sel.options[sel.selectedIndex];
    if (opt && opt.value) act({ action: 'toggle', target: ctx.target, actionId: actionId, option: opt.textContent }, sel);
  });
  wrap.appendChild(sel);
  return wrap;
}

// External selects ask the app for options as the person types (block_suggestion), like Slack's client.
function externalSelect(x, blockId, actionId, ctx, multi) {
  var wrap = el('div', 'ext'), current = stateOf(ctx, blockId, actionId);
  var selected = !current ? [] : multi ? arr(current.selected_options).filter(isObj) : isObj(current.selected_option) ? [current.selected_option] : [];
  var verb = multi ? 'toggle' : 'choose';
  if (multi && selected.length) {
    var chips = el('div', 'chips');
    selected.forEach(function (o) {
      chips.appendChild(chip(textOf(o.text), function (control) { act({ action: 'toggle', target: ctx.target, actionId: actionId, option: textOf(o.text), query: textOf(o.text) }, control); }));
    });
    wrap.appendChild(chips);
  }
  var input = el('input', 'text'), list = el('ul', 'ext-list menu');
  var min = typeof x.min_query_length === 'number' ? x.min_query_length : 3, timer = null, seq = 0;
  input.type = 'search';
  input.autocomplete = 'off';
  input.placeholder = textOf(x.placeholder) || 'Type to search';
  input.setAttribute('aria-label', input.placeholder);
  list.hidden = true;
  function search() {
    var query = input.value, mine = ++seq;
    if (query.length < min) { list.hidden = true; return; }
    post('/web/act', { action: 'suggest', user: S.user, target: ctx.target, actionId: actionId, query: query }).then(function (r) {
      if (mine !== seq) return;
      list.replaceChildren();
      arr(r.options).forEach(function (o) {
        var li = el('li'), b = el('button', null, o.text);
        b.type = 'button';
        b.addEventListener('click', function () {
          list.hidden = true;
          act({ action: verb, target: ctx.target, actionId: actionId, option: o.text, query: query }, input);
        });
        li.appendChild(b);
        list.appendChild(li);
      });
      if (!arr(r.options).length) list.appendChild(el('li', 'muted', 'No matches'));
      list.hidden = false;
    }, showError);
  }
  input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(search, 150); });
  input.addEventListener('focus', function () { if (min === 0) search(); });
  wrap.appendChild(input);
  wrap.appendChild(list);
  if (!multi && selected.length) wrap.appendChild(el('div', 'ext-current', 'Selected: ' + textOf(selected[0].text)));
  return wrap;
}

function choices(x, blockId, actionId, ctx, kind) {
  var box = el('div', 'choice-list'), current = stateOf(ctx, blockId, actionId), name = nextId('choice-');
  var chosen = !current ? [] : kind === 'radio' ? (isObj(current.selected_option) ? [str(current.selected_option.value)] : []) : arr(current.selected_options).map(function (o) { return str(o && o.value); });
  box.setAttribute('role', kind === 'radio' ? 'radiogroup' : 'group');
  arr(x.options).forEach(function (o) {
    if (!isObj(o)) return;
    var label = el('label', 'choice'), input = el('input'), text = el('span');
    input.type = kind;
    input.name = name;
    input.checked = chosen.indexOf(str(o.value)) >= 0;
    text.appendChild(textObject(o.text, 'choice-text', 'span'));
    if (isObj(o.description)) text.appendChild(textObject(o.description, 'choice-desc', 'span'));
    input.addEventListener('change', function () {
      act({ action: kind === 'radio' ? 'choose' : 'toggle', target: ctx.target, actionId: actionId, option: textOf(o.text) }, null);
    });
    label.appendChild(input);
    label.appendChild(text);
    box.appendChild(label);
  });
  return box;
}

// Typed text stays in the page (Slack tells the app nothing until submit) and survives re-renders.
function textInput(x, blockId, ctx) {
  var input = el(x.multiline === true ? 'textarea' : 'input', 'text');
  var drafts = S.drafts[ctx.viewId] || (S.drafts[ctx.viewId] = {});
  var current = stateOf(ctx, blockId, str(x.action_id));
  if (x.multiline !== true) input.type = x.type === 'email_text_input' ? 'email' : x.type === 'url_text_input' ? 'url' : 'text';
  if (isObj(x.placeholder)) input.placeholder = textOf(x.placeholder);
  if (typeof x.max_length === 'number') input.maxLength = x.max_length;
  input.value = Object.prototype.hasOwnProperty.call(drafts, blockId) ? drafts[blockId] : current && typeof current.value === 'string' ? current.value : str(x.initial_value);
  input.dataset.blockId = blockId;
  input.addEventListener('input', function () { drafts[blockId] = input.value; });
  return input;
}

function inputBlock(b, ctx) {
  var blockId = str(b.block_id), wrap = el('div', 'input-block'), label = el('label', 'input-label', textOf(b.label));
  var control = isObj(b.element) ? renderElement(b.element, b, ctx) : el('div');
  wrap.dataset.blockId = blockId;
  label.id = nextId('label-');
  if (b.optional === true) label.appendChild(el('span', 'optional', ' (optional)'));
  if (control.matches('input, textarea, select')) { control.id = nextId('input-'); label.htmlFor = control.id; }
  else control.setAttribute('aria-labelledby', label.id);
  wrap.appendChild(label);
  wrap.appendChild(control);
  if (isObj(b.hint)) wrap.appendChild(el('div', 'input-hint', textOf(b.hint)));
  var error = ctx.errors && ctx.errors[blockId];
  if (error) showInputError(wrap, error);
  return wrap;
}
function showInputError(wrap, message) {
  var old = wrap.querySelector('.input-error');
  if (old) old.remove();
  wrap.classList.add('invalid');
  var e = el('div', 'input-error', message);
  e.setAttribute('role', 'alert');
  wrap.appendChild(e);
}
`
