import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageParam } from '../src/api/types';
import { SessionRecorder } from '../src/sessions/recorder';
import { SCHEMA_VERSION, SessionStore, type SessionSummary } from '../src/sessions/sessionStore';
import type { ViewMessage } from '../src/shared/viewState';
import { LegacySessionRecorder } from './baseline/legacyRecorder';
import { percentile as pct } from './stats';

const SIZES = [10, 1000, 5200] as const;
const SAMPLES = 40;
const LEGACY_SAMPLES = 15;
const body = 'lorem ipsum dolor sit amet '.repeat(180); // ~5 KB per message

function message(i: number): { m: MessageParam; v: ViewMessage } {
  const text = `${i} ${body}`;
  return {
    m: { role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] },
    v: i % 2 ? { kind: 'assistant', id: `a${i}`, text, streaming: false, createdAt: i } : { kind: 'user', id: `u${i}`, text, createdAt: i },
  };
}

const ms = (t0: number) => performance.now() - t0;
const round = (x: number, d = 3) => +x.toFixed(d);

/**
 * Saving one message into a session of 10, 1,000 and 5,200 messages: the recorder's
 * per-message API (append + view, what a Conversation's events call), its whole-state `sync`
 * (what the extension calls today), and the recorder before this change as the baseline, all
 * in this run. Then resuming the 5,200-message transcript and listing 1,000 sessions.
 */
export async function benchSessions(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  // Warm the JIT on a throwaway session, so the first size measured is not the slowest for that reason.
  const warm = new SessionRecorder(new SessionStore(mkdtempSync(join(tmpdir(), 'tl-bench-warm-'))), { id: 'w', cwd: '/w', model: 'm' });
  for (let i = 0; i < 200; i++) {
    const { m, v } = message(i);
    await warm.append(m);
    await warm.view(v);
    await warm.sync([m], [v], i);
  }
  const dir = mkdtempSync(join(tmpdir(), 'tl-bench-sess-'));
  const store = new SessionStore(dir);
  const rec = new SessionRecorder(store, { id: 'big', cwd: dir, model: 'm' });
  const history: MessageParam[] = [];
  const view: ViewMessage[] = [];
  for (const size of SIZES) {
    // Grow the session to `size` through the same API, then time the next SAMPLES messages.
    while (history.length < size) {
      const { m, v } = message(history.length);
      history.push(m);
      view.push(v);
      await rec.append(m);
      await rec.view(v);
    }
    const appendMs: number[] = [];
    for (let k = 0; k < SAMPLES; k++) {
      const { m, v } = message(history.length);
      history.push(m);
      view.push(v);
      const t0 = performance.now();
      await rec.append(m);
      await rec.view(v);
      appendMs.push(ms(t0));
    }
    out[`append${size}P50Ms`] = round(pct(appendMs, 0.5));
    out[`append${size}P95Ms`] = round(pct(appendMs, 0.95));

    // The whole-state path on a recorder resumed at this size.
    const syncRec = new SessionRecorder(new SessionStore(mkdtempSync(join(tmpdir(), 'tl-bench-sync-'))), { id: 's', cwd: dir, model: 'm', existing: { history, view } });
    const h = history.slice();
    const vw = view.slice();
    await syncRec.sync(h, vw, -1);
    const syncMs: number[] = [];
    for (let k = 0; k < SAMPLES; k++) {
      const { m, v } = message(h.length);
      h.push(m);
      vw.push(v);
      const t0 = performance.now();
      await syncRec.sync(h, vw, k);
      syncMs.push(ms(t0));
    }
    out[`sync${size}P50Ms`] = round(pct(syncMs, 0.5));

    // The recorder before this change, resumed at the same size.
    const legacyStore = new SessionStore(mkdtempSync(join(tmpdir(), 'tl-bench-legacy-')));
    const legacy = new LegacySessionRecorder(legacyStore, { id: 'l', cwd: dir, model: 'm', existing: { history, view } });
    const lh = history.slice();
    const lv = view.slice();
    // One untimed save first: a live session's recorder has seen every message already.
    await legacy.sync(lh, lv, -1);
    const legacyMs: number[] = [];
    for (let k = 0; k < LEGACY_SAMPLES; k++) {
      const { m, v } = message(lh.length);
      lh.push(m);
      lv.push(v);
      const t0 = performance.now();
      await legacy.sync(lh, lv, k);
      legacyMs.push(ms(t0));
    }
    out[`legacy${size}P50Ms`] = round(pct(legacyMs, 0.5));
    out[`legacy${size}P95Ms`] = round(pct(legacyMs, 0.95));
  }
  await rec.flush();
  // The figures with targets: a message saved into the 5,200-message session.
  out.appendP50Ms = out.append5200P50Ms!;
  out.appendP95Ms = out.append5200P95Ms!;
  // The figure that says whether saving grows with the session: 1 is flat.
  out.append5200Over10 = round(out.append5200P50Ms! / out.append10P50Ms!, 2);
  out.legacy5200OverAppend5200 = round(out.legacy5200P50Ms! / out.append5200P50Ms!, 1);

  out.transcriptMB = round(statSync(store.file('big')).size / 1e6, 1);
  out.transcriptMessages = history.length;
  const t0 = performance.now();
  const loaded = await store.load('big');
  out.resume50MbMs = round(ms(t0), 0);
  if (loaded.history.length !== history.length || loaded.skipped.length) throw new Error('resume lost messages');

  out.list1000SessionsMs = round(await listThousand(), 1);
  return out;
}

/** 1,000 small sessions with their index, as a long-used folder has them; the time of one listing. */
async function listThousand(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-bench-list-'));
  const past = Date.now() - 60_000;
  const entries: SessionSummary[] = [];
  for (let k = 0; k < 1000; k++) {
    const id = `s${k}`;
    const file = join(dir, `${id}.jsonl`);
    writeFileSync(file, `${JSON.stringify({ t: 'meta', v: SCHEMA_VERSION, id, createdAt: k, cwd: '/w', model: 'm' })}\n`);
    // Written before its index entry, as the recorder leaves them.
    utimesSync(file, past / 1000, past / 1000);
    entries.push({ id, title: `Session ${k}`, createdAt: k, updatedAt: past + k, model: 'm', messageCount: k % 50, tokens: k * 10, cwd: '/w' });
  }
  writeFileSync(join(dir, 'index.json'), JSON.stringify(entries));
  const store = new SessionStore(dir);
  const t0 = performance.now();
  const listed = await store.list();
  const took = ms(t0);
  if (listed.length !== 1000) throw new Error(`listed ${listed.length}`);
  return took;
}
