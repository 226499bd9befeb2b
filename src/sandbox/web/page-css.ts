/**
 * The page's stylesheet: Slack's light theme, close enough that a screenshot
 * reads as Slack, and a single-column layout on phone-width screens.
 */

export const PAGE_CSS = `
:root {
  --aubergine: #3f0e40; --aubergine-dark: #350d36; --text: #1d1c1d; --muted: #616061; --line: #dddddd;
  --link: #1264a3; --green: #007a5a; --red: #e01e5a; --hover: #f8f8f8; --mention-bg: #e8f5fa; --code: #e01e5a;
  font-family: Lato, "Helvetica Neue", "Segoe UI", Roboto, Arial, sans-serif; font-size: 15px; line-height: 1.46668; color: var(--text);
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; background: #fff; }
button, input, select, textarea { font: inherit; color: inherit; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.muted { color: var(--muted); font-size: 13px; }

.topbar { display: flex; align-items: center; gap: 12px; padding: 6px 14px; background: var(--aubergine-dark); color: #fff; min-height: 44px; flex-wrap: wrap; }
.brand { display: flex; align-items: center; gap: 8px; font-weight: 900; font-size: 16px; }
.brand-note { font-weight: 400; font-size: 12px; opacity: .7; }
.acting { margin-left: auto; display: flex; align-items: center; gap: 6px; font-size: 13px; }
.acting select, .channel-picker select, .user-form input { background: rgba(255,255,255,.14); color: #fff; border: 1px solid rgba(255,255,255,.3); border-radius: 6px; padding: 3px 6px; }
.acting select option, .channel-picker select option { color: var(--text); }
.user-form { display: flex; gap: 4px; }
.user-form input { width: 120px; }
.user-form input::placeholder { color: rgba(255,255,255,.6); }
.live { font-size: 11px; border-radius: 10px; padding: 1px 8px; background: rgba(255,255,255,.15); }
.live.on::before { content: ""; display: inline-block; width: 7px; height: 7px; border-radius: 50%; background: #2bac76; margin-right: 5px; vertical-align: 1px; }
.channel-picker { display: none; }

.layout { flex: 1; display: flex; min-height: 0; }
.sidebar { width: 240px; background: var(--aubergine); color: #cfc3cf; padding: 12px 0; overflow-y: auto; flex-shrink: 0; }
.sidebar-title { font-size: 13px; padding: 10px 18px 4px; opacity: .85; }
.sidebar ul { list-style: none; margin: 0; padding: 0; }
.sidebar li button { display: flex; width: 100%; text-align: left; background: none; border: 0; color: inherit; padding: 3px 18px; cursor: pointer; gap: 6px; font-size: 15px; }
.sidebar li button:hover { background: var(--aubergine-dark); }
.sidebar li button[aria-current="true"] { background: #1164a3; color: #fff; font-weight: 700; }
.sidebar .hash { opacity: .7; width: 14px; display: inline-block; }

.pane { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.pane-head { display: flex; align-items: baseline; gap: 10px; padding: 10px 20px; border-bottom: 1px solid var(--line); min-height: 49px; }
.pane-head h1, .pane-head h2 { font-size: 18px; font-weight: 900; margin: 0; }
.messages { flex: 1; overflow-y: auto; padding: 8px 0 16px; }
.home { padding: 12px 24px 24px; }
.home > .blocks { max-width: 760px; }
.empty { color: var(--muted); padding: 40px 20px; text-align: center; }
.empty strong { color: var(--text); }

.msg { display: flex; gap: 8px; padding: 8px 20px; position: relative; }
.msg.focused { background: #fef6dc; box-shadow: inset 3px 0 0 #e8a723; }
.msg:hover { background: var(--hover); }
.msg.ephemeral { background: #f4f8fb; }
.avatar { width: 36px; height: 36px; border-radius: 6px; flex-shrink: 0; display: flex; align-items: center; justify-content: center; color: #fff; font-weight: 900; font-size: 13px; background: var(--aubergine); }
.avatar.user { background: #2eb67d; }
.msg-body { flex: 1; min-width: 0; }
.msg-head { display: flex; align-items: baseline; gap: 6px; flex-wrap: wrap; }
.msg-name { font-weight: 900; }
.badge { font-size: 10px; font-weight: 700; color: var(--muted); background: rgba(29,28,29,.13); border-radius: 2px; padding: 0 3px; }
.msg-time { font-size: 12px; color: var(--muted); }
.edited { font-size: 12px; color: var(--muted); }
.only-you { font-size: 12px; color: var(--muted); display: flex; align-items: center; gap: 4px; margin-bottom: 2px; }
.edited + .replies { margin-left: 8px; }
.replies { display: inline-flex; align-items: center; gap: 6px; margin-top: 6px; border: 1px solid transparent; border-radius: 6px; background: none; color: var(--link); font-weight: 700; font-size: 13px; padding: 3px 6px 3px 0; cursor: pointer; }
.replies:hover { border-color: var(--line); background: #fff; padding-left: 6px; }
.file { display: flex; gap: 10px; align-items: center; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin-top: 6px; max-width: 420px; background: #fff; }
.file-icon { width: 32px; height: 32px; border-radius: 6px; background: #1264a3; color: #fff; display: flex; align-items: center; justify-content: center; font-size: 11px; font-weight: 900; }
.file-name { font-weight: 700; word-break: break-all; }
.file-preview { margin: 6px 0 0; max-height: 220px; overflow: auto; }

.blocks > * + * { margin-top: 4px; }
.b-header { font-size: 18px; font-weight: 900; margin: 6px 0 2px; }
.b-section { display: flex; gap: 12px; align-items: flex-start; }
.b-section-text { flex: 1; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.b-fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; margin-top: 4px; }
.b-context { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; font-size: 12px; color: var(--muted); white-space: pre-wrap; }
.b-context .mention { font-size: 12px; }
.b-divider { border: 0; border-top: 1px solid var(--line); margin: 10px 0; }
.b-actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0 4px; align-items: flex-start; }
.b-image { font-size: 13px; color: var(--muted); }
.b-unknown { font-size: 12px; color: var(--muted); font-style: italic; }

.rt { white-space: pre-wrap; overflow-wrap: anywhere; }
.rt ul, .rt ol { margin: 2px 0; padding-left: 26px; }
.rt .indent-1 { margin-left: 22px; } .rt .indent-2 { margin-left: 44px; } .rt .indent-3 { margin-left: 66px; }
.rt ol.indent-1 { list-style-type: lower-alpha; } .rt ol.indent-2 { list-style-type: lower-roman; }
.rt ul.indent-1 { list-style-type: circle; } .rt ul.indent-2 { list-style-type: square; }
pre.code { background: #f8f8f8; border: 1px solid #e0e0e0; border-radius: 4px; padding: 8px; margin: 4px 0; font: 12px/1.5 Monaco, Menlo, Consolas, "Courier New", monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
code { background: #f7f7f7; border: 1px solid #e0e0e0; border-radius: 3px; color: var(--code); padding: 1px 3px; font: 12px Monaco, Menlo, Consolas, "Courier New", monospace; }
blockquote { margin: 4px 0; padding-left: 12px; border-left: 4px solid #dddddd; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
.mention { color: var(--link); background: var(--mention-bg); border-radius: 3px; padding: 0 2px; font-weight: 500; }
.mention.broadcast, .mention.me { background: #fef3c7; color: #8a5a00; }
.strike { text-decoration: line-through; }
.emoji { display: inline-flex; align-items: center; justify-content: center; width: 1.15em; height: 1.15em; border-radius: 3px; font-size: .85em; font-weight: 900; line-height: 1; vertical-align: -.15em; margin: 0 1px; }
.emoji.green { background: #2eb67d; color: #fff; } .emoji.red { background: #e01e5a; color: #fff; } .emoji.yellow { color: #c98a00; } .emoji.grey { color: var(--muted); }
.md h1, .md h2, .md h3, .md h4 { font-size: 16px; margin: 8px 0 2px; }
.md p { margin: 4px 0; }
.md table { border-collapse: collapse; margin: 4px 0; font-size: 13px; }
.md td, .md th { border: 1px solid var(--line); padding: 3px 8px; }
.b-table-wrap { overflow-x: auto; max-width: 100%; margin: 4px 0; }
.b-table { border-collapse: collapse; font-size: 13px; }
.b-table td, .b-table th { border: 1px solid var(--line); padding: 4px 8px; white-space: nowrap; vertical-align: top; }
.b-table th { background: var(--hover, #f8f8f8); text-align: left; }
/* A cell's rich text keeps its column's wrapping: one line unless is_wrapped, then between words within a readable width. */
.b-table .rt { white-space: inherit; overflow-wrap: normal; }
.b-table .wrap { white-space: normal; }
.b-table .wrap .rt { white-space: pre-wrap; overflow-wrap: break-word; min-width: 7em; max-width: 22em; }
/* A container: a bordered box; collapsible ones toggle on their title row (a <details>), as Slack shows them. */
.b-container { border: 1px solid var(--line); border-radius: 8px; margin: 6px 0; max-width: 600px; }
.b-container.width-narrow { max-width: 400px; } .b-container.width-wide { max-width: 800px; } .b-container.width-full { max-width: none; }
.b-container-head { padding: 6px 10px; cursor: default; }
summary.b-container-head { cursor: pointer; }
.b-container.divided > .b-container-head, details.b-container[open] > .b-container-head { border-bottom: 1px solid var(--line); }
.b-container-title { font-weight: 700; display: inline; }
.b-container-subtitle { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
.b-container-body { padding: 4px 10px; }
.b-container pre.code { max-height: 24em; overflow: auto; }
/* A carousel: cards in a row that scrolls sideways, snapping card by card, as a phone swipes them. */
.b-carousel { display: flex; gap: 8px; overflow-x: auto; scroll-snap-type: x mandatory; margin: 6px 0; padding-bottom: 4px; max-width: 100%; }
.b-card { flex: 0 0 240px; scroll-snap-align: start; border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; display: flex; flex-direction: column; gap: 4px; }
.b-card-title { font-weight: 700; }
.b-card-subtitle { color: var(--muted, #616061); font-size: 13px; }
.b-card-body { font-size: 13px; white-space: pre-wrap; }
.b-card-actions { display: flex; flex-wrap: wrap; gap: 6px; margin-top: auto; padding-top: 6px; }
.b-data-table-caption { caption-side: top; text-align: left; font-weight: 600; padding: 2px 0 4px; }
.b-data-table-pager { display: flex; gap: 8px; align-items: center; font-size: 13px; margin: 4px 0; }
.b-table .align-center { text-align: center; }
.b-table .align-right { text-align: right; }

.btn { display: inline-flex; align-items: center; justify-content: center; gap: 6px; min-height: 32px; padding: 0 12px; border-radius: 6px; border: 1px solid rgba(29,28,29,.3); background: #fff; font-weight: 700; font-size: 14px; cursor: pointer; max-width: 100%; }
.btn:hover { background: var(--hover); box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.btn.primary { background: var(--green); border-color: var(--green); color: #fff; }
.btn.primary:hover { background: #148567; }
.btn.danger { background: var(--red); border-color: var(--red); color: #fff; }
.btn.danger:hover { background: #e23067; }
.btn.small { min-height: 26px; font-size: 12px; padding: 0 8px; }
.btn:disabled, .btn.pending { opacity: .55; cursor: progress; }
.btn-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.icon-btn { background: none; border: 0; cursor: pointer; font-size: 16px; color: var(--muted); padding: 2px 6px; border-radius: 4px; }
.icon-btn:hover { background: var(--hover); color: var(--text); }

select.select, input.text, textarea.text { border: 1px solid rgba(29,28,29,.3); border-radius: 6px; background: #fff; padding: 5px 8px; min-height: 32px; max-width: 100%; }
select.select { min-width: 200px; font-weight: 400; cursor: pointer; }
textarea.text { width: 100%; min-height: 84px; resize: vertical; }
input.text { width: 100%; }
.invalid select.select, .invalid input.text, .invalid textarea.text, .invalid .choice-list { border-color: var(--red); box-shadow: 0 0 0 1px var(--red); }
.choice-list { display: flex; flex-direction: column; gap: 6px; padding: 2px 0; border-radius: 6px; }
.choice { display: flex; gap: 8px; align-items: flex-start; cursor: pointer; }
.choice input { margin-top: 4px; accent-color: #1264a3; }
.choice-desc { display: block; color: var(--muted); font-size: 13px; }
.multi { display: flex; flex-direction: column; gap: 6px; min-width: 220px; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { display: inline-flex; align-items: center; gap: 4px; background: #e8f5fa; border: 1px solid #bfe0f0; border-radius: 4px; font-size: 13px; padding: 1px 2px 1px 6px; }
.chip button { background: none; border: 0; cursor: pointer; color: var(--muted); padding: 0 4px; }
.ext { position: relative; min-width: 240px; }
.ext-list { position: absolute; z-index: 5; left: 0; right: 0; top: 100%; margin-top: 2px; background: #fff; border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 4px 12px rgba(0,0,0,.12); max-height: 240px; overflow-y: auto; list-style: none; padding: 4px 0; }
.ext-list li button { width: 100%; text-align: left; background: none; border: 0; padding: 4px 12px; cursor: pointer; }
.ext-list li button:hover { background: #1264a3; color: #fff; }
.ext-current { font-size: 13px; color: var(--muted); margin-top: 2px; }
.overflow { position: relative; }
.overflow-menu { position: absolute; right: 0; top: 100%; z-index: 5; background: #fff; border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 4px 12px rgba(0,0,0,.12); list-style: none; margin: 2px 0 0; padding: 4px 0; min-width: 160px; }
.overflow-menu button { width: 100%; text-align: left; background: none; border: 0; padding: 4px 14px; cursor: pointer; white-space: nowrap; }
.overflow-menu button:hover { background: #1264a3; color: #fff; }

.samples { border-top: 1px solid var(--line); padding: 10px 20px 12px; background: #fff; display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
.samples-title { font-size: 13px; color: var(--muted); font-weight: 700; }
.sample-buttons { display: flex; flex-wrap: wrap; gap: 6px; }

.thread { width: 420px; border-left: 1px solid var(--line); display: flex; flex-direction: column; flex-shrink: 0; background: #fff; }
.thread[hidden] { display: none; }
.thread .pane-head { align-items: center; }
.code-channel { border-bottom: 1px solid var(--line); padding: 8px 20px 12px; max-height: 55%; overflow-y: auto; background: #fbfbfd; }
.context-bar { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; margin-bottom: 8px; font-size: 13px; }
.context-item { border: 1px solid var(--line); border-radius: 12px; padding: 1px 8px; background: #fff; }
.canvas { border: 1px solid var(--line); border-radius: 8px; background: #fff; padding: 8px 12px; }
.canvas-title { font-weight: 700; margin-bottom: 6px; }
.canvas-section { padding: 4px 0; border-top: 1px dashed var(--line); }
.canvas-text { white-space: pre-wrap; }
.canvas-comment { margin: 4px 0 0 12px; padding: 4px 8px; border-left: 3px solid #e8a800; background: #fff8e1; font-size: 13px; }
.canvas-quote { color: #616061; margin-right: 6px; }
.canvas-comment-form { display: flex; gap: 6px; margin: 4px 0 0 12px; }
.canvas-comment-form input.text { flex: 1; min-width: 0; }
.composer { display: flex; gap: 8px; align-items: flex-end; padding: 10px 20px 14px; border-top: 1px solid var(--line); }
.composer textarea.text { min-height: 40px; flex: 1; }
.thread-divider { display: flex; align-items: center; gap: 10px; color: var(--muted); font-size: 13px; padding: 4px 20px; }
.thread-divider::after { content: ""; flex: 1; border-top: 1px solid var(--line); }

.backdrop { position: fixed; inset: 0; background: rgba(0,0,0,.45); display: flex; align-items: center; justify-content: center; z-index: 20; padding: 16px; }
.modal { background: #fff; border-radius: 8px; width: 520px; max-width: 100%; max-height: calc(100vh - 32px); display: flex; flex-direction: column; box-shadow: 0 18px 48px rgba(0,0,0,.35); }
.modal-head { display: flex; align-items: center; justify-content: space-between; padding: 16px 20px; border-bottom: 1px solid var(--line); }
.modal-head h2 { margin: 0; font-size: 20px; font-weight: 900; }
.modal-body { padding: 16px 20px; overflow-y: auto; display: flex; flex-direction: column; gap: 12px; }
.modal-foot { display: flex; justify-content: flex-end; gap: 8px; padding: 14px 20px; border-top: 1px solid var(--line); }
.input-block label.input-label { display: block; font-weight: 700; margin-bottom: 6px; }
.optional { font-weight: 400; color: var(--muted); }
.input-hint { font-size: 13px; color: var(--muted); margin-top: 4px; }
.input-error { font-size: 13px; color: var(--red); margin-top: 4px; display: flex; gap: 4px; }
.input-error::before { content: "\\26A0"; }
.dialog { width: 420px; }
.dialog p { margin: 0; white-space: pre-wrap; }

.toast { position: fixed; bottom: 20px; left: 50%; transform: translateX(-50%); background: #1d1c1d; color: #fff; padding: 10px 16px; border-radius: 8px; max-width: min(560px, calc(100vw - 32px)); z-index: 30; box-shadow: 0 4px 16px rgba(0,0,0,.3); font-size: 14px; }
.toast.info { background: #1264a3; }
/* On a phone the controls a person just tapped sit at the bottom: the notice goes above them, under the header. */
@media (max-width: 720px) { .toast { bottom: auto; top: 64px; } }

@media (max-width: 720px) {
  :root { font-size: 15px; }
  .sidebar { display: none; }
  .channel-picker { display: block; }
  .brand-note { display: none; }
  .topbar { gap: 8px; padding: 6px 10px; }
  .acting label { display: none; }
  .msg { padding: 8px 12px; }
  .pane-head { padding: 8px 12px; }
  .samples { padding: 8px 12px; }
  .thread { position: fixed; inset: 0; width: auto; z-index: 10; border: 0; }
  .b-section { flex-direction: column; }
  .b-fields { grid-template-columns: 1fr; }
  select.select { min-width: 0; width: 100%; }
  .modal { max-height: calc(100vh - 16px); }
  .backdrop { padding: 8px; align-items: flex-end; }
}
`
