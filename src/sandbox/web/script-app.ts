/**
 * Client script, part 5: the page itself. It draws the people, channels,
 * sample buttons, timeline and thread from each `/web/state` snapshot,
 * re-rendering only messages whose content changed (so an open menu keeps
 * its place), then wires the controls and starts the live connection.
 * Same rules as part 1: plain JavaScript, no backticks, no dollar-brace.
 */

export const SCRIPT_APP = String.raw`
// ---- rendering
function render(snap) {
  S.snap = snap;
  S.user = snap.me.id;
  S.channel = snap.channel;
  var query = new URLSearchParams({ user: S.user });
  if (S.channel) query.set('channel', S.channel);
  history.replaceState(null, '', '?' + query.toString());
  renderUsers(snap);
  renderChannels(snap);
  renderSamples(snap);
  cache.forEach(function (v) { v.used = false; });
  renderTimeline(snap);
  renderThread(snap);
  cache.forEach(function (v, k) { if (!v.used) cache.delete(k); });
  renderModal(snap);
  document.body.dataset.ready = 'true';
}

function renderUsers(snap) {
  var sel = $('user-select'), people = snap.users.filter(function (u) { return !u.isBot; });
  var sig = JSON.stringify(people) + S.user;
  if (sel.dataset.sig !== sig) {
    sel.dataset.sig = sig;
    sel.replaceChildren();
    people.forEach(function (u) {
      var o = el('option', null, u.name + (u.realName && u.realName !== u.name ? ' \u00b7 ' + u.realName : ''));
      o.value = u.id;
      sel.appendChild(o);
    });
    var other = el('option', null, 'Another user id\u2026');
    other.value = '__other';
    sel.appendChild(other);
  }
  sel.value = S.user;
}
function switchUser(id) {
  S.user = id;
  S.thread = null;
  S.drafts = {};
  refresh();
}

function channelLabel(c) { return c ? (c.isIm ? '@' + c.name : '#' + c.name) : ''; }
function openChannel(id) {
  S.channel = id;
  S.thread = null;
  refresh();
}
function renderChannels(snap) {
  var list = $('channel-list'), dms = $('dm-list'), pick = $('channel-select');
  var current = snap.channels.find(function (c) { return c.id === snap.channel; });
  $('channel-title').textContent = current ? channelLabel(current) : 'No channel';
  $('channel-meta').textContent = current ? current.members + ' members' : '';
  var sig = JSON.stringify(snap.channels) + snap.channel;
  if (list.dataset.sig === sig) return;
  list.dataset.sig = sig;
  list.replaceChildren();
  dms.replaceChildren();
  pick.replaceChildren();
  snap.channels.forEach(function (c) {
    var li = el('li'), b = el('button'), o = el('option', null, channelLabel(c));
    b.type = 'button';
    b.appendChild(el('span', 'hash', c.isIm ? '\u25cf' : c.isPrivate ? '\u25a3' : '#'));
    b.appendChild(el('span', null, c.name));
    if (c.id === snap.channel) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', function () { openChannel(c.id); });
    li.appendChild(b);
    (c.isIm ? dms : list).appendChild(li);
    o.value = c.id;
    pick.appendChild(o);
  });
  if (!dms.children.length) dms.appendChild(el('li', 'sidebar-title', 'none yet'));
  pick.value = snap.channel;
}

function sampleLabel(kind) { var s = kind.replace(/-/g, ' '); return s.charAt(0).toUpperCase() + s.slice(1); }
function renderSamples(snap) {
  var section = $('samples'), box = $('sample-buttons'), sig = snap.samples.join(',');
  section.hidden = snap.samples.length === 0;
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.replaceChildren();
  snap.samples.forEach(function (kind) {
    var b = el('button', 'btn small', sampleLabel(kind));
    b.type = 'button';
    b.dataset.sample = kind;
    b.addEventListener('click', function () {
      b.disabled = true;
      post('/web/sample', { kind: kind }).then(null, showError).then(function () { b.disabled = false; });
    });
    box.appendChild(b);
  });
}

function tsDate(ts) { return new Date(Number(String(ts).split('.')[0]) * 1000); }
function initials(name) { return (name.replace(/[^A-Za-z0-9]/g, '').slice(0, 2) || '?').toUpperCase(); }
function formatSize(n) { n = Number(n) || 0; return n < 1024 ? n + ' B' : n < 1048576 ? (n / 1024).toFixed(1) + ' KB' : (n / 1048576).toFixed(1) + ' MB'; }

function fileCard(f) {
  var card = el('div', 'file'), info = el('div'), url = str(f.url_private), ext = (str(f.name).split('.').pop() || 'file').slice(0, 4).toUpperCase();
  // Files live on the stand-in; fetch them by path so the page works under either loopback name.
  try { var parsed = new URL(url); if (parsed.pathname.indexOf('/files/') === 0) url = parsed.pathname; } catch (e) { /* keep as given */ }
  card.appendChild(el('div', 'file-icon', ext));
  var name = el('a', 'file-name', str(f.title) || str(f.name));
  name.href = url.charAt(0) === '/' ? url : safeUrl(url) || '#';
  name.rel = 'noopener noreferrer';
  name.target = '_blank';
  info.appendChild(name);
  info.appendChild(el('div', 'muted', formatSize(f.size) + (f.mimetype ? ' \u00b7 ' + str(f.mimetype) : '')));
  if (/^text\//.test(str(f.mimetype)) && url.charAt(0) === '/') {
    var preview = el('button', 'btn small', 'Preview');
    preview.type = 'button';
    preview.addEventListener('click', function () {
      fetch(url).then(function (r) { return r.text(); }).then(function (t) {
        info.appendChild(el('pre', 'code file-preview', t.length > 20000 ? t.slice(0, 20000) + '\n\u2026' : t));
        preview.remove();
      }, showError);
    });
    info.appendChild(preview);
  }
  card.appendChild(info);
  return card;
}

function buildMessage(m, snap, inThread) {
  var row = el('div', 'msg' + (m.ephemeral ? ' ephemeral' : '')), body = el('div', 'msg-body'), head = el('div', 'msg-head');
  var author = snap.users.find(function (u) { return u.id === m.user; }), isBot = !author || author.isBot, when = tsDate(m.ts);
  row.dataset.ts = m.ts;
  if (m.ephemeral) row.dataset.ephemeral = 'true';
  var avatar = el('div', 'avatar' + (isBot ? '' : ' user'), initials(author ? author.name : m.user));
  avatar.setAttribute('aria-hidden', 'true');
  row.appendChild(avatar);
  if (m.ephemeral) body.appendChild(el('div', 'only-you', '\ud83d\udc41 Only visible to you'));
  head.appendChild(el('span', 'msg-name', author ? (isBot ? author.name : author.realName || author.name) : m.user));
  if (isBot) head.appendChild(el('span', 'badge', 'APP'));
  var time = el('time', 'msg-time', clockTime(when, false));
  time.dateTime = when.toISOString();
  time.title = when.toString();
  head.appendChild(time);
  body.appendChild(head);
  var target = m.ephemeral ? { channel: snap.channel, ts: m.ts, ephemeral: true } : { channel: snap.channel, ts: m.ts };
  var ctx = { target: target, state: m.state, errors: null, viewId: null };
  // Slack shows the blocks when there are any; text is only the notification fallback then.
  if (arr(m.blocks).length) body.appendChild(renderBlocks(m.blocks, ctx));
  else if (m.text) { var text = el('div', 'rt msg-text'); mrkdwn(m.text, text); body.appendChild(text); }
  if (m.edited) body.appendChild(el('span', 'edited', '(edited)'));
  arr(m.files).forEach(function (f) { if (isObj(f)) body.appendChild(fileCard(f)); });
  if (!inThread && m.replyCount) {
    var replies = el('button', 'replies', m.replyCount + (m.replyCount === 1 ? ' reply' : ' replies'));
    replies.type = 'button';
    replies.addEventListener('click', function () { S.thread = m.ts; renderThread(S.snap); });
    body.appendChild(replies);
  }
  row.appendChild(body);
  return row;
}
function cached(key, sig, build) {
  var hit = cache.get(key);
  if (hit && hit.sig === sig) { hit.used = true; return hit.node; }
  var node = build();
  cache.set(key, { sig: sig, node: node, used: true });
  return node;
}
function messageNode(m, snap, inThread) {
  var sig = JSON.stringify([m, S.user, snap.channel, snap.users, snap.channels]);
  return cached((inThread ? 't' : 'c') + (m.ephemeral ? 'e' : 'm') + m.ts, sig, function () { return buildMessage(m, snap, inThread); });
}
function place(box, nodes) {
  var same = box.children.length === nodes.length && nodes.every(function (n, i) { return box.children[i] === n; });
  if (!same) box.replaceChildren.apply(box, nodes);
}
function emptyNode(snap) {
  var box = el('div', 'empty'), current = snap.channels.find(function (c) { return c.id === snap.channel; });
  box.appendChild(el('strong', null, 'No messages in ' + channelLabel(current) + ' yet.'));
  box.appendChild(el('div', null, snap.samples.length ? 'Send a sample ask below, or post one through the service\u2019s API.' : 'Messages the app posts here show up as they arrive.'));
  return box;
}
function renderTimeline(snap) {
  var box = $('messages'), nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 60;
  var top = snap.messages.filter(function (m) { return !m.threadTs || m.threadTs === m.ts; });
  var nodes = top.map(function (m) { return messageNode(m, snap, false); });
  place(box, nodes.length ? nodes : [cached('empty' + snap.channel, String(snap.samples.length), function () { return emptyNode(snap); })]);
  // Like Slack: a new message scrolls into view when you were reading the newest ones (or it is the first look).
  if (top.length > S.topCount || nearBottom) box.scrollTop = box.scrollHeight;
  S.topCount = top.length;
}
function renderThread(snap) {
  var pane = $('thread'), parent = S.thread && snap.messages.find(function (m) { return m.ts === S.thread && !m.ephemeral; });
  if (!parent) { pane.hidden = true; S.thread = null; return; }
  var replies = snap.messages.filter(function (m) { return m.threadTs === parent.ts && m.ts !== parent.ts; });
  var nodes = [messageNode(parent, snap, true)];
  if (replies.length) nodes.push(cached('divider' + replies.length, '', function () { return el('div', 'thread-divider', replies.length + (replies.length === 1 ? ' reply' : ' replies')); }));
  replies.forEach(function (m) { nodes.push(messageNode(m, snap, true)); });
  $('thread-meta').textContent = channelLabel(snap.channels.find(function (c) { return c.id === snap.channel; }));
  pane.hidden = false;
  place($('thread-messages'), nodes);
}

// ---- start
function start() {
  $('user-select').addEventListener('change', function () {
    var value = $('user-select').value;
    if (value !== '__other') { $('user-form').hidden = true; switchUser(value); return; }
    $('user-select').value = S.user;
    $('user-form').hidden = false;
    $('user-id').focus();
  });
  $('user-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var id = $('user-id').value.trim().toUpperCase();
    if (!/^[UW][A-Z0-9]{1,30}$/.test(id)) { toast('A user id looks like U0SANDBOX03'); return; }
    $('user-form').hidden = true;
    switchUser(id);
  });
  $('channel-select').addEventListener('change', function () { openChannel($('channel-select').value); });
  $('thread-back').addEventListener('click', function () { S.thread = null; $('thread').hidden = true; });
  document.addEventListener('click', function (event) {
    document.querySelectorAll('.menu:not([hidden])').forEach(function (menu) { if (!menu.parentNode.contains(event.target)) menu.hidden = true; });
  });
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape') return;
    if ($('dialog-root').children.length) $('dialog-root').replaceChildren();
    else if (S.modalId) closeModal();
  });
  connect();
  refresh();
}
start();
`
