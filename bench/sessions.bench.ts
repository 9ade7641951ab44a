import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageParam } from '../src/api/types';
import { SessionRecorder } from '../src/sessions/recorder';
import { SessionStore, type SessionSummary } from '../src/sessions/sessionStore';
import type { ViewMessage } from '../src/shared/viewState';
import { percentile as pct } from './stats';

/** Resume of a 50 MB transcript, listing 1,000 sessions, and the cost of one append. */
export async function benchSessions(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-bench-sess-'));
  const store = new SessionStore(dir);
  const rec = new SessionRecorder(store, { id: 'big', cwd: dir, model: 'm' });
  const history: MessageParam[] = [];
  const view: ViewMessage[] = [];
  const appendMs: number[] = [];
  const body = 'lorem ipsum dolor sit amet '.repeat(180); // ~5 KB per message
  let i = 0;
  while (true) {
    const text = `${i} ${body}`;
    history.push({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] });
    view.push(i % 2 ? { kind: 'assistant', id: `a${i}`, text, streaming: false, createdAt: i } : { kind: 'user', id: `u${i}`, text, createdAt: i });
    const t0 = performance.now();
    await rec.sync(history, view, i);
    appendMs.push(performance.now() - t0);
    i++;
    if (i % 200 === 0 && statSync(store.file('big')).size > 50e6) break;
  }
  const size = statSync(store.file('big')).size;
  const t0 = performance.now();
  const loaded = await store.load('big');
  const resumeMs = performance.now() - t0;
  if (loaded.history.length !== history.length) throw new Error('resume lost messages');

  const listDir = mkdtempSync(join(tmpdir(), 'tl-bench-list-'));
  const listStore = new SessionStore(listDir);
  const entries: SessionSummary[] = Array.from({ length: 1000 }, (_, k) => ({ id: `s${k}`, title: `Session ${k}`, createdAt: k, updatedAt: k, model: 'm', messageCount: k % 50, tokens: k * 10, cwd: '/w' }));
  for (const e of entries.slice(0, 999)) await listStore.updateIndex(e).catch(() => undefined);
  await listStore.updateIndex(entries[999]!);
  const t1 = performance.now();
  const listed = await listStore.list();
  const listMs = performance.now() - t1;
  if (listed.length !== 1000) throw new Error(`listed ${listed.length}`);
  return {
    transcriptMB: +(size / 1e6).toFixed(1),
    transcriptMessages: history.length,
    resume50MbMs: +resumeMs.toFixed(0),
    list1000SessionsMs: +listMs.toFixed(1),
    appendP50Ms: +pct(appendMs, 0.5).toFixed(3),
    appendP95Ms: +pct(appendMs, 0.95).toFixed(3),
  };
}
