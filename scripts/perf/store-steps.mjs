// Interleaved A/B of an ask's SQLite store steps (insert with caps, attach with its event, the long-poll's read, settle with
// its event, release), two built checkouts in one process, cold-ish: caches disturbed (24 MB walked) and 2 ms gaps
// between steps, as a round trip waits on Slack. Medians after the first fifth, in microseconds.
// usage: node --no-warnings scripts/perf/store-steps.mjs BASE_DIR NEW_DIR [asks]   (each DIR built: npm run build)
import { setTimeout as sleep } from 'node:timers/promises';
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
const dirs = process.argv.slice(2, 4); const N = Number(process.argv[4] ?? 200);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-'));
const stores = [];
for (const [i, dir] of dirs.entries()) { const { SqliteAskStore } = await import(path.join(dir, 'dist/src/store/sqlite-ask-store.js')); stores.push(new SqliteAskStore(path.join(tmp, `s${i}.sqlite`))); }
const junk = new Uint8Array(24 << 20); let sink = 0; const disturb = () => { for (let i = 0; i < junk.length; i += 64) sink += junk[i]++; };
const t = dirs.map(() => ({ insert: [], attach: [], get: [], settle: [], release: [] }));
const caps = { pending: 1000, pendingPerKey: 100 };
for (let i = 0; i < N; i++) for (const [k, store] of stores.entries()) {
  const time = (step, f) => { const a = process.hrtime.bigint(); const r = f(); t[k][step].push(Number(process.hrtime.bigint() - a) / 1000); return r; };
  const gap = async () => { disturb(); await sleep(2); };
  const id = `ask-${i}-${k}-${Math.random().toString(36).slice(2)}`;
  const rec = { id, kind: 'question', questions: [{ id: 'q1', question: 'Deploy to production?', header: 'Deploy', options: [{ label: 'Approve' }, { label: 'Reject' }], multiSelect: false }], target: 'C0QUESTION', status: 'pending', createdAt: Date.now(), owner: { kind: 'service' }, rule: 'default' };
  await gap(); await time('insert', () => store.insert(rec, caps, { holder: 'inst', until: Date.now() + 15000 }));
  const message = { channel: 'C0QUESTION', ts: `1700000000.${String(i).padStart(6, '0')}`, permalink: 'https://x.slack.com/archives/C0QUESTION/p1' };
  await gap(); const posted = await time('attach', () => store.attachMessage(id, message, { askId: id, type: 'posted', at: Date.now(), detail: { kind: 'question', target: 'C0QUESTION', channel: message.channel, ts: message.ts, questions: [{ id: 'q1', question: 'Deploy to production?' }] } }, rec));
  await gap(); await time('get', () => store.get(id));
  const by = { id: 'U123', name: 'alice' };
  const settlement = { status: 'answered', answer: { answers: [{ id: 'q1', selected: ['Approve'] }] }, outcome: { kind: 'answered', by, at: Date.now(), answers: [{ id: 'q1', selected: ['Approve'] }] } };
  const unwatch = store.watch(id, () => {}, { readOnly: true });
  await gap(); await time('settle', () => store.settle(id, settlement, { event: { askId: id, type: 'answered', at: Date.now(), by, detail: { status: 'answered', answer: settlement.answer } }, messageClaim: { holder: 'inst', until: Date.now() + 30000 }, hasJobs: false, known: posted }));
  unwatch();
  await gap(); await time('release', () => store.releaseMessage(id, 'inst', true));
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
for (const [k, dir] of dirs.entries()) { const o = Object.fromEntries(Object.entries(t[k]).map(([s, v]) => [s, +med(v.slice(Math.floor(N / 5))).toFixed(1)])); o.total = +Object.values(o).reduce((a, b) => a + b, 0).toFixed(1); console.log(dir.padEnd(16), JSON.stringify(o)); }
for (const s of stores) await s.close(); fs.rmSync(tmp, { recursive: true, force: true });
