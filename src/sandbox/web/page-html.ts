/**
 * The page's static shell. Everything that shows workspace content is built
 * by the client script with DOM calls and `textContent` (never `innerHTML`),
 * so nothing here ever holds agent text.
 */

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dsh-slack sandbox</title>
<link rel="icon" href="/web/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/web/app.css">
<script src="/web/app.js" defer></script>
</head>
<body>
<header class="topbar">
  <div class="brand"><img src="/web/icon.svg" alt="" width="22" height="22"><span>Sandbox</span><span class="brand-note">local Slack stand-in</span></div>
  <label class="channel-picker"><span class="sr-only">Channel</span><select id="channel-select"></select></label>
  <div class="acting">
    <label for="user-select">Acting as</label>
    <select id="user-select"></select>
    <form id="user-form" class="user-form" hidden>
      <input id="user-id" placeholder="U0…" aria-label="Any user id" autocomplete="off" spellcheck="false">
      <button type="submit" class="btn small">Use</button>
    </form>
  </div>
  <span id="live" class="live" title="Live updates">offline</span>
</header>
<div class="layout">
  <nav class="sidebar" aria-label="Channels">
    <div class="sidebar-title">Channels</div>
    <ul id="channel-list"></ul>
    <div class="sidebar-title">Direct messages</div>
    <ul id="dm-list"></ul>
    <div class="sidebar-title">Apps</div>
    <ul id="app-list"></ul>
  </nav>
  <main class="pane">
    <div class="pane-head"><h1 id="channel-title"></h1><span id="channel-meta" class="muted"></span></div>
    <div id="code-channel" class="code-channel" hidden></div>
    <div id="messages" class="messages" aria-live="polite"></div>
    <div id="home" class="messages home" aria-live="polite" hidden></div>
    <section id="samples" class="samples" hidden aria-label="Send a sample ask">
      <span class="samples-title">Send a sample ask</span>
      <div id="sample-buttons" class="sample-buttons"></div>
    </section>
  </main>
  <aside id="thread" class="thread" hidden aria-label="Thread">
    <div class="pane-head"><button id="thread-back" class="icon-btn" aria-label="Close thread">&#x2715;</button><h2>Thread</h2><span id="thread-meta" class="muted"></span></div>
    <div id="thread-messages" class="messages"></div>
    <form id="thread-reply" class="composer"><textarea id="thread-reply-text" class="text" rows="2" placeholder="Reply…" aria-label="Reply in the thread"></textarea><button type="submit" class="btn primary small">Send</button></form>
  </aside>
</div>
<div id="modal-root"></div>
<div id="dialog-root"></div>
<div id="toast" class="toast" role="alert" hidden></div>
</body>
</html>
`

/** A small aubergine square with a speech bubble: the page's favicon and logo. */
export const PAGE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4a154b"/><path d="M8 9h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9l-5 4v-4H8a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2z" fill="#fff"/><circle cx="12" cy="15.5" r="1.6" fill="#4a154b"/><circle cx="16" cy="15.5" r="1.6" fill="#4a154b"/><circle cx="20" cy="15.5" r="1.6" fill="#4a154b"/></svg>
`
