/**
 * Client script, part 1: turning Slack text into DOM nodes. mrkdwn (bold,
 * italic, strike, code, quotes, `<url|label>`, `<@U…>`, `<!date^…>`),
 * rich_text elements and the `markdown` block. Every piece of text becomes
 * a text node (`textContent`), so agent text can never become markup; links
 * keep only http, https and mailto URLs.
 *
 * Written as plain browser JavaScript in a `String.raw` template so it runs
 * the same from dist/ and under vitest without a bundler. Inside it: no
 * backticks (use `\x60`) and no dollar-brace.
 */

export const SCRIPT_TEXT = String.raw`
function el(tag, cls, text) {
  var node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
function isObj(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }
function str(v) { return typeof v === 'string' ? v : ''; }
function textOf(t) { return isObj(t) ? str(t.text) : ''; }
function arr(v) { return Array.isArray(v) ? v : []; }
function decode(s) { return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'); }

// Only web and mail links; javascript:, data: and the like stay plain text.
function safeUrl(u) {
  try {
    var parsed = new URL(String(u));
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' || parsed.protocol === 'mailto:' ? parsed.href : null;
  } catch (e) { return null; }
}
function link(url, label) {
  var safe = safeUrl(url);
  if (!safe) return el('span', 'unsafe-link', label || url);
  var a = el('a', null, label || url);
  a.href = safe;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}

// Slack draws emoji as images; the page draws the few the bridge uses from plain symbols (no emoji font needed).
var EMOJI = { white_check_mark: ['\u2714', 'green'], heavy_check_mark: ['\u2714', 'grey'], x: ['\u2715', 'red'], no_entry_sign: ['\u2298', 'red'],
  warning: ['\u26a0', 'yellow'], pencil2: ['\u270f', 'grey'], hourglass: ['\u231b', 'grey'], hourglass_flowing_sand: ['\u23f3', 'grey'], lock: ['\u26bf', 'grey'] };
function emojiNode(name) {
  var known = Object.prototype.hasOwnProperty.call(EMOJI, name) ? EMOJI[name] : null;
  if (!known) return document.createTextNode(':' + name + ':');
  var span = el('span', 'emoji ' + known[1], known[0]);
  span.title = ':' + name + ':';
  span.setAttribute('role', 'img');
  span.setAttribute('aria-label', name.replace(/_/g, ' '));
  return span;
}
function emojiText(name, unicode) {
  if (typeof unicode === 'string' && /^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(unicode)) {
    try { return document.createTextNode(unicode.split('-').map(function (h) { return String.fromCodePoint(parseInt(h, 16)); }).join('')); } catch (e) { /* fall through */ }
  }
  return emojiNode(name);
}
// Plain text with :shortcodes: as text nodes and emoji spans.
function textWithEmoji(s, parent) {
  var re = /:([a-z0-9_+-]+):/g, last = 0, m;
  while ((m = re.exec(s)) !== null) {
    if (!Object.prototype.hasOwnProperty.call(EMOJI, m[1])) continue;
    if (m.index > last) parent.appendChild(document.createTextNode(s.slice(last, m.index)));
    parent.appendChild(emojiNode(m[1]));
    last = re.lastIndex;
  }
  if (last < s.length) parent.appendChild(document.createTextNode(s.slice(last)));
  return parent;
}

// ---- dates: Slack's <!date^seconds^format|fallback> tokens, in the reader's time zone
var MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
var DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
function ordinal(n) { var s = ['th', 'st', 'nd', 'rd'], v = n % 100; return n + (s[(v - 20) % 10] || s[v] || s[0]); }
function sameDay(a, b) { return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate(); }
function pretty(d, otherwise) {
  var now = new Date(), before = new Date(now.getTime() - 864e5), after = new Date(now.getTime() + 864e5);
  return sameDay(d, now) ? 'Today' : sameDay(d, before) ? 'Yesterday' : sameDay(d, after) ? 'Tomorrow' : otherwise;
}
function clockTime(d, secs) {
  return d.toLocaleTimeString('en-US', secs ? { hour: 'numeric', minute: '2-digit', second: '2-digit' } : { hour: 'numeric', minute: '2-digit' });
}
function agoText(d) {
  var s = Math.round((Date.now() - d.getTime()) / 1000), future = s < 0, n = Math.abs(s);
  var unit = n < 60 ? [n, 'second'] : n < 3600 ? [Math.round(n / 60), 'minute'] : n < 86400 ? [Math.round(n / 3600), 'hour'] : [Math.round(n / 86400), 'day'];
  var text = unit[0] + ' ' + unit[1] + (unit[0] === 1 ? '' : 's');
  return future ? 'in ' + text : text + ' ago';
}
function slackDate(seconds, format) {
  var d = new Date(seconds * 1000);
  if (!isFinite(seconds) || isNaN(d.getTime())) return null;
  var pad = function (n) { return String(n).padStart(2, '0'); };
  var short = MONTHS[d.getMonth()].slice(0, 3) + ' ' + d.getDate() + ', ' + d.getFullYear();
  var plain = MONTHS[d.getMonth()] + ' ' + ordinal(d.getDate()) + ', ' + d.getFullYear();
  var long = DAYS[d.getDay()] + ', ' + plain;
  var tokens = {
    date_num: d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()),
    date: plain, date_short: short, date_long: long,
    date_pretty: pretty(d, plain), date_short_pretty: pretty(d, short), date_long_pretty: pretty(d, long),
    time: clockTime(d, false), time_secs: clockTime(d, true), ago: agoText(d)
  };
  return format.replace(/\{(\w+)\}/g, function (m, key) { return Object.prototype.hasOwnProperty.call(tokens, key) ? tokens[key] : m; });
}

// ---- mentions
function mention(kind, id, label) {
  var snap = S.snap;
  if (kind === 'user') {
    var u = snap && snap.users.find(function (x) { return x.id === id; });
    return el('span', 'mention' + (id === S.user ? ' me' : ''), '@' + (label || (u ? u.name : id)));
  }
  if (kind === 'group') {
    var g = snap && snap.userGroups.find(function (x) { return x.id === id; });
    return el('span', 'mention', label || '@' + (g ? g.handle : id));
  }
  var c = snap && snap.channels.find(function (x) { return x.id === id; });
  return el('span', 'mention', '#' + (label || (c ? c.name : id)));
}

// ---- mrkdwn
var FENCE = '\x60\x60\x60';
function mrkdwn(s, parent) {
  var parts = s.split(FENCE);
  for (var i = 0; i < parts.length; i++) {
    if (i % 2 === 1 && i < parts.length - 1) parent.appendChild(el('pre', 'code', decode(parts[i].replace(/^\n/, ''))));
    else mrkdwnLines(i % 2 === 1 ? FENCE + parts[i] : parts[i], parent);
  }
}
function mrkdwnLines(s, parent) {
  var lines = s.split('\n'), quote = null;
  for (var i = 0; i < lines.length; i++) {
    var q = /^(&gt;|>) ?/.exec(lines[i]);
    if (q) {
      if (quote) quote.appendChild(document.createTextNode('\n'));
      else parent.appendChild(quote = el('blockquote'));
      inline(lines[i].slice(q[0].length), quote);
      continue;
    }
    quote = null;
    inline(lines[i], parent);
    if (i < lines.length - 1 && !/^(&gt;|>)/.test(lines[i + 1])) parent.appendChild(document.createTextNode('\n'));
  }
}
var INLINE = /<([^<>\n]+)>|\x60([^\x60\n]+)\x60|([*_~])([^\n]+?)\3/g;
var BEFORE = /[\s(\[{"'.,;:!?\/-]/;
var AFTER = /[\s)\]}"'.,;:!?\/-]/;
function inline(s, parent) {
  var re = new RegExp(INLINE.source, 'g'), last = 0, m;
  while ((m = re.exec(s)) !== null) {
    var start = m.index, end = re.lastIndex;
    // Slack styles *x* only between word boundaries, and never around spaces: 2 * 3 * 4 stays as typed.
    if (m[3] !== undefined && ((start > 0 && !BEFORE.test(s.charAt(start - 1))) || (end < s.length && !AFTER.test(s.charAt(end))) || /^\s|\s$/.test(m[4]))) {
      re.lastIndex = start + 1;
      continue;
    }
    if (start > last) textWithEmoji(decode(s.slice(last, start)), parent);
    if (m[1] !== undefined) parent.appendChild(angle(m[1]));
    else if (m[2] !== undefined) parent.appendChild(el('code', null, decode(m[2])));
    else {
      var span = el(m[3] === '*' ? 'strong' : m[3] === '_' ? 'em' : 'span', m[3] === '~' ? 'strike' : null);
      inline(m[4], span);
      parent.appendChild(span);
    }
    last = end;
  }
  if (last < s.length) textWithEmoji(decode(s.slice(last)), parent);
}
// What sits between < and >: only real (unescaped) angle brackets get here, so escaped agent text never does.
function angle(inner) {
  var bar = inner.indexOf('|');
  var head = bar < 0 ? inner : inner.slice(0, bar);
  var label = bar < 0 ? '' : decode(inner.slice(bar + 1));
  if (head.charAt(0) === '@') return mention('user', head.slice(1), label.replace(/^@/, ''));
  if (head.charAt(0) === '#') return mention('channel', head.slice(1), label.replace(/^#/, ''));
  if (head.charAt(0) === '!') {
    var cmd = head.slice(1);
    if (cmd === 'here' || cmd === 'channel' || cmd === 'everyone') return el('span', 'mention broadcast', '@' + cmd);
    if (cmd.indexOf('subteam^') === 0) return mention('group', cmd.slice(8), label);
    if (cmd.indexOf('date^') === 0) {
      var p = cmd.split('^');
      var shown = slackDate(Number(p[1]), decode(p[2] || '{date}'));
      var text = shown === null ? label : shown;
      return p[3] ? link(decode(p[3]), text) : el('span', 'date', text);
    }
    return document.createTextNode(label);
  }
  return link(decode(head), label || decode(head));
}

// ---- rich_text
function richText(block) {
  var root = el('div', 'rt');
  arr(block.elements).forEach(function (e) { root.appendChild(richElement(e)); });
  return root;
}
function richElement(e) {
  if (!isObj(e)) return document.createTextNode('');
  if (e.type === 'rich_text_section') { var d = el('div', 'rt-section'); inlines(e.elements, d); return d; }
  if (e.type === 'rich_text_preformatted') { var pre = el('pre', 'code'); inlines(e.elements, pre); return pre; }
  if (e.type === 'rich_text_quote') { var q = el('blockquote'); inlines(e.elements, q); return q; }
  if (e.type === 'rich_text_list') {
    var list = el(e.style === 'ordered' ? 'ol' : 'ul', 'indent-' + Math.min(3, Number(e.indent) || 0));
    if (e.style === 'ordered' && Number(e.offset) > 0) list.start = Number(e.offset) + 1;
    arr(e.elements).forEach(function (item) {
      var li = el('li');
      if (isObj(item) && item.type === 'rich_text_section') inlines(item.elements, li);
      else li.appendChild(richElement(item));
      list.appendChild(li);
    });
    return list;
  }
  return el('div', 'b-unknown', '[' + str(e.type) + ']');
}
function inlines(list, parent) { arr(list).forEach(function (x) { parent.appendChild(richInline(x)); }); }
function styled(node, style) {
  if (!isObj(style)) return node;
  var wrap = function (tag, cls) { var w = el(tag, cls); w.appendChild(node); node = w; };
  if (style.code) wrap('code');
  if (style.strike) wrap('span', 'strike');
  if (style.italic) wrap('em');
  if (style.bold) wrap('strong');
  return node;
}
function richInline(x) {
  if (!isObj(x)) return document.createTextNode('');
  switch (x.type) {
    case 'text': return styled(document.createTextNode(str(x.text)), x.style);
    case 'link': return styled(link(str(x.url), str(x.text) || str(x.url)), x.style);
    case 'user': return styled(mention('user', str(x.user_id), ''), x.style);
    case 'usergroup': return mention('group', str(x.usergroup_id), '');
    case 'channel': return mention('channel', str(x.channel_id), '');
    case 'broadcast': return el('span', 'mention broadcast', '@' + str(x.range));
    case 'emoji': return emojiText(str(x.name), x.unicode);
    case 'color': return document.createTextNode(str(x.value));
    case 'date': {
      var shown = slackDate(Number(x.timestamp), str(x.format) || '{date}');
      var text = shown === null ? str(x.fallback) : shown;
      return x.url ? link(str(x.url), text) : el('span', 'date', text);
    }
  }
  return document.createTextNode('');
}

// ---- the markdown block (standard Markdown, as Slack renders it: headings, lists, quotes, code, tables)
var MD_LIST = /^\s*([-*+]|\d+[.)])\s+/;
var MD_FENCE = /^\s*\x60\x60\x60/;
function markdownBlock(text) {
  var root = el('div', 'md'), lines = str(text).split('\n'), i = 0;
  while (i < lines.length) {
    var line = lines[i], h = /^(#{1,6})\s+(.*)$/.exec(line), buf = [];
    if (MD_FENCE.test(line)) {
      for (i++; i < lines.length && !MD_FENCE.test(lines[i]); i++) buf.push(lines[i]);
      i++;
      root.appendChild(el('pre', 'code', buf.join('\n')));
    } else if (h) {
      var hn = el('h' + Math.min(4, h[1].length));
      mdInline(h[2], hn);
      root.appendChild(hn);
      i++;
    } else if (/^\s*\|/.test(line)) {
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) buf.push(lines[i]);
      root.appendChild(mdTable(buf));
    } else if (MD_LIST.test(line)) {
      var list = el(/^\s*\d/.test(line) ? 'ol' : 'ul');
      for (; i < lines.length && MD_LIST.test(lines[i]); i++) { var li = el('li'); mdInline(lines[i].replace(MD_LIST, ''), li); list.appendChild(li); }
      root.appendChild(list);
    } else if (/^>/.test(line)) {
      for (; i < lines.length && /^>/.test(lines[i]); i++) buf.push(lines[i].replace(/^>\s?/, ''));
      var q = el('blockquote');
      mdInline(buf.join('\n'), q);
      root.appendChild(q);
    } else if (line.trim() === '') {
      i++;
    } else {
      buf.push(line);
      for (i++; i < lines.length && lines[i].trim() !== '' && !/^(#{1,6}\s|>|\s*\|)/.test(lines[i]) && !MD_FENCE.test(lines[i]) && !MD_LIST.test(lines[i]); i++) buf.push(lines[i]);
      var p = el('p');
      mdInline(buf.join('\n'), p);
      root.appendChild(p);
    }
  }
  return root;
}
var MD_INLINE = /\x60([^\x60\n]+)\x60|\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)|([*_])([^*_\n]+)\5|~~([^~\n]+)~~/g;
function mdInline(s, parent) {
  var re = new RegExp(MD_INLINE.source, 'g'), last = 0, m;
  while ((m = re.exec(s)) !== null) {
    if (m.index > last) parent.appendChild(document.createTextNode(s.slice(last, m.index)));
    if (m[1] !== undefined) parent.appendChild(el('code', null, m[1]));
    else if (m[2] !== undefined) { var b = el('strong'); mdInline(m[2], b); parent.appendChild(b); }
    else if (m[3] !== undefined) parent.appendChild(link(m[4], m[3]));
    else if (m[6] !== undefined) { var it = el('em'); mdInline(m[6], it); parent.appendChild(it); }
    else parent.appendChild(el('span', 'strike', m[7]));
    last = re.lastIndex;
  }
  if (last < s.length) parent.appendChild(document.createTextNode(s.slice(last)));
}
function mdTable(rows) {
  var table = el('table'), cells = function (row) { return row.trim().replace(/^\||\|$/g, '').split('|'); };
  rows.forEach(function (row, index) {
    if (/^\s*\|?\s*:?-{2,}/.test(row)) return;
    var tr = el('tr');
    cells(row).forEach(function (cell) { var td = el(index === 0 ? 'th' : 'td'); mdInline(cell.trim(), td); tr.appendChild(td); });
    table.appendChild(tr);
  });
  return table;
}
`
