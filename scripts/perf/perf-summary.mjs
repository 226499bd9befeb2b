// Summarises `perf script` output of a Node process recorded with JIT symbols (node --perf-basic-prof
// --interpreted-frames-native-stack; perf record -e cpu-clock -F 20000 -g -p PID): on-CPU samples of the main thread
// by the innermost JavaScript frame's file or package, by function, and dsh-slack's files and functions inclusive.
// usage: perf script -i perf.data | node scripts/perf/perf-summary.mjs [top]   (ALL=1: every thread; INCL=regex; FNS=n)
import readline from 'node:readline';
const top = Number(process.argv[2] ?? 40); const MAIN = process.env.ALL ? null : true;
const rl = readline.createInterface({ input: process.stdin });
let cur = null; const samples = [];
rl.on('line', (l) => {
  if (!l.startsWith('\t') && l.trim()) { const m = /^\S+\s+(\d+)(?:\/(\d+))?\s/.exec(l); cur = { tid: m ? m[1] : '?', frames: [] }; samples.push(cur); return; }
  const m = /^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)$/.exec(l); if (m && cur) cur.frames.push({ sym: m[1], dso: m[2] });
});
rl.on('close', () => {
  const pid = samples.length ? Object.entries(samples.reduce((a, s) => ((a[s.tid] = (a[s.tid] ?? 0) + 1), a), {})).sort((a, b) => b[1] - a[1])[0][0] : null;
  const main = samples.filter((s) => !MAIN || s.tid === pid);
  const isJs = (f) => /^(JS|Function|LazyCompile|Script|Builtin:InterpreterEntryTrampoline)/.test(f.sym) && /:\d+:\d+/.test(f.sym);
  const fileOf = (sym) => { const m = /\s(\S+):\d+:\d+(?:\+0x[0-9a-f]+)?$/.exec(sym); let u = m ? m[1] : sym; u = u.replace(/^file:\/\//, ''); const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u); if (nm) return nm[1]; u = u.replace(/^.*?\/(?=dist\/)/, ''); if (u.startsWith('node:')) return u.split('/').slice(0, 2).join('/'); const d = /^dist\/(src|blocks)\/([^/]+)/.exec(u); if (d) return `dsh:${d[1]}/${d[2]}`; return u; };
  const kindOf = (f) => f.dso.includes('kernel') ? 'kernel' : f.dso.includes('libc') ? 'libc' : /sqlite3/.test(f.sym) ? 'sqlite' : f.sym.startsWith('Builtins_') ? 'builtin' : isJs(f) ? 'jit' : /v8::internal::(Heap|Scavenger|MarkCompact|Sweeper|Marking|Concurrent)/.test(f.sym) || /Scaveng|GCTracer|Heap::/.test(f.sym) ? 'gc' : 'c++';
  const byFile = new Map(), byKind = new Map(), byFn = new Map(), incl = new Map(), inclFn = new Map();
  const add = (m, k, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
  for (const s of main) {
    if (!s.frames.length) continue;
    const k = kindOf(s.frames[0]);
    // idle: epoll wait in the kernel
    if (s.frames.some((f) => /epoll_wait|do_epoll_wait/.test(f.sym))) { add(byKind, 'idle-epoll'); continue; }
    add(byKind, k);
    const js = s.frames.find(isJs);
    const owner = js ? fileOf(js.sym) : (s.frames.some((f) => /uv__run_timers|uv__io_poll|uv_run/.test(f.sym)) ? '(event loop, no JS)' : '(no JS frame)');
    add(byFile, owner); if (js) add(byFn, js.sym.replace(/file:\/\/\/[^ ]*?\/(dist|node_modules)\//, '$1/'));
    const seen = new Set(); for (const f of s.frames) if (isJs(f)) { const fl = fileOf(f.sym); if (fl.startsWith('dsh:') && !seen.has(fl)) { seen.add(fl); add(incl, fl); } const fn = f.sym.replace(/^\S+:[~^*]?/, '').replace(/file:\/\/\/\S*?\/dist\//, '').replace(/\+0x[0-9a-f]+$/, ''); if (process.env.INCL ? new RegExp(process.env.INCL).test(fn) : (/^\S* ?(src|blocks)\//.test(fn) || / (src|blocks)\//.test(fn))) { if (!seen.has(fn)) { seen.add(fn); add(inclFn, fn); } } }
  }
  const total = [...byKind].filter(([k]) => k !== 'idle-epoll').reduce((a, [, v]) => a + v, 0);
  const show = (title, m, n) => { console.log(`--- ${title}`); [...m].sort((a, b) => b[1] - a[1]).slice(0, n).forEach(([k, v]) => console.log(`${String(v).padStart(6)} ${(100 * v / total).toFixed(1).padStart(5)}%  ${k}`)); };
  console.log(`main thread tid ${pid}: ${total} busy samples (${main.length} in all)`);
  show('innermost frame kind', byKind, 12); show('innermost JS frame by file', byFile, top); show('by JS function', byFn, top); show('dsh files on the stack (inclusive)', incl, 30); show('dsh functions on the stack (inclusive)', inclFn, Number(process.env.FNS ?? 60));
});
