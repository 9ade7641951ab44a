import { createReadStream, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { claudeProjectDir, listClaudeSessions, loadClaudeSession } from '../src/sessions/claudeCode';
import { ClaudeTranscriptWriter } from '../test/support/claudeTranscript';
import { median } from './stats';

/** A Claude Code session of `rounds` × 4 messages (prompt, call, result, answer), compacted `compactions` times. */
function session(rounds: number, compactions: number): string {
  const w = new ClaudeTranscriptWriter();
  const result = 'export const line = "a typical line of source code read by the agent";\n'.repeat(30);
  const every = compactions ? Math.floor(rounds / (compactions + 1)) : Infinity;
  for (let i = 0; i < rounds; i++) {
    w.prompt(`Step ${i}: look at module${i}.ts`, { attachments: i % 10 ? 0 : 2 });
    const calls = w.answer([{ type: 'text', text: `Reading module${i}.ts.` }, { type: 'tool_use', name: 'Read', input: { file_path: `module${i}.ts` } }]);
    w.results(calls, [result]);
    w.answer([{ type: 'text', text: `module${i}.ts looks fine.` }]);
    if ((i + 1) % every === 0 && i + 1 < rounds) w.compact(`Steps 0 to ${i} done.`, { keep: 4 });
  }
  return w.finish();
}

/** Just reading and parsing every line: the floor any import pays. */
async function parseOnly(file: string): Promise<number> {
  let n = 0;
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const l of rl) if (l.trim() && JSON.parse(l)) n++;
  return n;
}

async function timed<T>(f: () => Promise<T>, runs: number): Promise<{ ms: number; value: T }> {
  const ms: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await f();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), value: value as T };
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Importing a 5,000-message Claude Code session, against parsing its lines; listing 200 of them. */
export async function benchClaudeImport(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-bench-cc-'));
  const whole = join(dir, 'whole.jsonl');
  const compacted = join(dir, 'compacted.jsonl');
  writeFileSync(whole, session(1250, 0));
  writeFileSync(compacted, session(1250, 3));

  const base = await timed(() => parseOnly(whole), 5);
  const imp = await timed(() => loadClaudeSession(whole), 5);
  if (imp.value.history.length < 2500) throw new Error(`the import lost messages: ${imp.value.history.length}`);
  const cimp = await timed(() => loadClaudeSession(compacted), 5);
  if (!cimp.value.fromSummary) throw new Error('the compacted session did not start at its summary');

  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const held = await loadClaudeSession(whole);
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 1e6;
  if (!held.history.length) throw new Error('nothing imported');

  // Listing reads each file only as far as its first prompt.
  const home = mkdtempSync(join(tmpdir(), 'tl-bench-cchome-'));
  const cwd = '/work/project';
  const pdir = claudeProjectDir(cwd, { HOME: home });
  mkdirSync(pdir, { recursive: true });
  const text = session(50, 1);
  for (let i = 0; i < 200; i++) writeFileSync(join(pdir, `s${i}.jsonl`), text);
  const list = await timed(() => listClaudeSessions(cwd, { HOME: home }), 3);
  if (list.value.length !== 200) throw new Error(`listed ${list.value.length}`);

  return {
    transcriptMB: +(statSync(whole).size / 1e6).toFixed(1),
    transcriptLines: base.value,
    parseOnlyMs: +base.ms.toFixed(0),
    import5000MessagesMs: +imp.ms.toFixed(0),
    importVsParseRatio: +(imp.ms / base.ms).toFixed(2),
    importHeldHeapMB: +heapMb.toFixed(1),
    import3CompactionsMs: +cimp.ms.toFixed(0),
    import3CompactionsMessages: cimp.value.history.length,
    list200SessionsMs: +list.ms.toFixed(0),
  };
}
