/**
 * Client script, part 3: the page's state and its line to the stand-in. It
 * keeps who is acting and which channel is shown (read from the address,
 * `?user=U…&channel=C…`), sends every action to `/web/act` and shows
 * refusals in a toast, and fetches `/web/state` on load and after every
 * `change` event of `/web/events`. Fetches never overlap: a change that
 * arrives mid-fetch asks for one more fetch when it ends, and a burst of
 * events within a frame costs one fetch.
 * Same rules as part 1: plain JavaScript, no backticks, no dollar-brace.
 */

export const SCRIPT_LIVE = String.raw`
var S = { user: '', channel: '', thread: null, snap: null, drafts: {}, modalSig: '', modalId: null, topCount: 0, refreshing: null, again: false, tick: null };
var cache = new Map();
(function () {
  var params = new URLSearchParams(location.search);
  S.user = params.get('user') || '';
  S.channel = params.get('channel') || '';
})();

function $(id) { return document.getElementById(id); }

// ---- talking to the stand-in
function post(path, body) {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(function (res) {
    return res.json().catch(function () { return {}; }).then(function (data) {
      if (res.ok) return data;
      var err = new Error(data && data.error ? data.error.message : 'HTTP ' + res.status);
      err.code = data && data.error ? data.error.code : 'HTTP';
      throw err;
    });
  });
}
var pending = 0;
function act(body, control) {
  body.user = S.user;
  if (control) { control.classList.add('pending'); control.disabled = true; }
  pending += 1;
  document.body.dataset.busy = 'true';
  return post('/web/act', body).then(null, showError).then(function () {
    if (control) { control.classList.remove('pending'); control.disabled = false; }
    pending -= 1;
    if (!pending) delete document.body.dataset.busy;
    return refresh();
  });
}
function refresh() {
  if (S.refreshing) { S.again = true; return S.refreshing; }
  var query = new URLSearchParams();
  if (S.user) query.set('user', S.user);
  if (S.channel) query.set('channel', S.channel);
  S.refreshing = fetch('/web/state?' + query.toString()).then(function (res) {
    return res.json().then(function (data) {
      if (!res.ok) throw new Error(data && data.error ? data.error.message : 'HTTP ' + res.status);
      return data;
    });
  }).then(render, showError).then(function () {
    S.refreshing = null;
    if (S.again) { S.again = false; return refresh(); }
  });
  return S.refreshing;
}
function scheduleRefresh() {
  if (S.tick) return;
  S.tick = setTimeout(function () { S.tick = null; refresh(); }, 16);
}
function connect() {
  var events = new EventSource('/web/events');
  events.addEventListener('hello', function () { setLive(true); refresh(); });
  events.addEventListener('change', scheduleRefresh);
  events.onerror = function () { setLive(false); };
}
function setLive(on) {
  $('live').textContent = on ? 'live' : 'offline';
  $('live').classList.toggle('on', on);
  document.body.dataset.live = on ? 'on' : 'off';
}

// ---- feedback
var toastTimer = null;
function toast(message, kind) {
  var t = $('toast');
  t.textContent = message;
  t.className = 'toast' + (kind ? ' ' + kind : '');
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(function () { t.hidden = true; }, 6000);
}
function showError(err) { toast(err && err.message ? err.message : String(err)); }
`
