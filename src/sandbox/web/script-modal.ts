/**
 * Client script, part 4: the two kinds of dialog. A confirm dialog is the
 * page's own (Block Kit's `confirm` object), asked before an action is sent;
 * the modal is the app's view, drawn from the snapshot and rebuilt only when
 * the view itself changed, so a half-typed answer survives someone else's
 * update. Submitting checks required inputs first, as Slack's client does.
 * Same rules as part 1: plain JavaScript, no backticks, no dollar-brace.
 */

export const SCRIPT_MODAL = String.raw`
function confirmFirst(confirm, go, cancelled) {
  if (!isObj(confirm)) { go(); return; }
  var root = $('dialog-root'), backdrop = el('div', 'backdrop'), dlg = el('div', 'modal dialog');
  var title = el('h2', null, textOf(confirm.title) || 'Are you sure?'), head = el('div', 'modal-head'), body = el('div', 'modal-body'), foot = el('div', 'modal-foot');
  var no = el('button', 'btn', textOf(confirm.deny) || 'Cancel'), yes = el('button', 'btn ' + (confirm.style === 'danger' ? 'danger' : 'primary'), textOf(confirm.confirm) || 'Yes');
  dlg.setAttribute('role', 'alertdialog');
  dlg.setAttribute('aria-modal', 'true');
  title.id = nextId('dialog-title-');
  dlg.setAttribute('aria-labelledby', title.id);
  head.appendChild(title);
  body.appendChild(textObject(confirm.text, null, 'p'));
  no.type = yes.type = 'button';
  no.addEventListener('click', function () { root.replaceChildren(); if (cancelled) cancelled(); });
  yes.addEventListener('click', function () { root.replaceChildren(); go(); });
  foot.append(no, yes);
  dlg.append(head, body, foot);
  backdrop.appendChild(dlg);
  root.replaceChildren(backdrop);
  yes.focus();
}

function renderModal(snap) {
  var root = $('modal-root'), m = snap.modal;
  if (!m) {
    if (S.modalId) { delete S.drafts[S.modalId]; root.replaceChildren(); S.modalSig = ''; S.modalId = null; }
    return;
  }
  var sig = JSON.stringify(m);
  if (sig === S.modalSig) return;
  var opening = S.modalId !== m.id;
  S.modalSig = sig;
  S.modalId = m.id;
  var ctx = { target: 'modal', state: m.state, errors: m.errors, viewId: m.id };
  var backdrop = el('div', 'backdrop'), dlg = el('div', 'modal'), head = el('div', 'modal-head'), foot = el('div', 'modal-foot');
  var title = el('h2', null, textOf(m.title)), x = el('button', 'icon-btn', '\u2715'), body = renderBlocks(m.blocks, ctx);
  dlg.setAttribute('role', 'dialog');
  dlg.setAttribute('aria-modal', 'true');
  title.id = 'modal-title';
  dlg.setAttribute('aria-labelledby', 'modal-title');
  x.type = 'button';
  x.setAttribute('aria-label', 'Close');
  x.addEventListener('click', closeModal);
  head.append(title, x);
  body.className = 'modal-body blocks';
  var cancel = el('button', 'btn', textOf(m.close) || 'Cancel');
  cancel.type = 'button';
  cancel.addEventListener('click', closeModal);
  foot.appendChild(cancel);
  if (m.submit) {
    var submit = el('button', 'btn primary', textOf(m.submit));
    submit.type = 'button';
    submit.addEventListener('click', function () { submitModal(m, body, submit); });
    foot.appendChild(submit);
  }
  dlg.append(head, body, foot);
  backdrop.appendChild(dlg);
  root.replaceChildren(backdrop);
  if (opening) { var first = body.querySelector('textarea, input, select'); if (first) first.focus(); }
}
function closeModal() { act({ action: 'close' }, null); }
function submitModal(m, body, button) {
  var fills = {}, missing = false;
  body.querySelectorAll('.input-block').forEach(function (wrap) {
    var input = wrap.querySelector('[data-block-id].text');
    if (!input) return;
    var id = wrap.dataset.blockId, block = m.blocks.find(function (b) { return b.block_id === id; });
    fills[id] = input.value;
    // Slack's client refuses an empty required input itself, with this line under it.
    if (block && block.optional !== true && input.value.trim() === '') { missing = true; showInputError(wrap, 'Please complete this required field.'); }
  });
  if (!missing) act({ action: 'submit', fills: fills }, button);
}
`
