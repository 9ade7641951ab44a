import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentBlockParam, MessageParam } from '../../src/api/types';
import { appendUserContent } from '../../src/conversation/history';
import { cliSessionsDir } from '../../src/sessions/paths';
import { loadSession } from '../../src/sessions/sessionStore';
import { startStandin, type ScriptedTurn } from '../standin/server';
import { validateRequest } from '../standin/validate';

// kill -9 of the headless CLI at random points of a scripted multi-step turn, each followed by
// a reload from disk. Used by the unit test (100 kills) and the crash benchmark (more).

export interface KillFigures {
  runs: number;
  /** How many kills landed while the CLI started (0) and after request 1…n. */
  byStep: number[];
  /** Messages that were complete when the CLI was killed (all of the last request it had sent). */
  completedMessages: number;
  lostMessages: number;
  /** Runs whose saved session the API would take a next prompt on (or that had saved nothing yet). */
  resumed: number;
  /** Runs with no session file yet: killed before the prompt was written. */
  nothingSaved: number;
  cliResumes: number;
  resumedByCli: number;
  tornLines: number;
  invalidRequests: number;
  /** Tool calls of the script that were refused (the script's calls are all allowed: should be 0). */
  deniedCalls: number;
  failures: string[];
  ms: number;
}

export interface Turn {
  turns: ScriptedTurn[];
  files: Record<string, string>;
  steps: number;
}

/** A turn of `steps` model requests: Read, Grep and Bash calls, then a final answer. */
export function scriptedTurn(steps: number): Turn {
  const turns: ScriptedTurn[] = [];
  const files: Record<string, string> = {};
  for (let i = 1; i < steps; i++) {
    // Every fourth step runs a command (a real process group); the others read.
    const kind = i % 4 === 0 ? 'Bash' : i % 2 ? 'Read' : 'Grep';
    files[`f${i}.txt`] = `contents of file ${i}\n`.repeat(20);
    const input = kind === 'Bash' ? { command: `echo step ${i}` } : kind === 'Read' ? { file_path: `f${i}.txt` } : { pattern: `file ${i}`, path: `f${i}.txt` };
    turns.push({ content: [{ type: 'text', text: `Step ${i}: ${kind}.` }, { type: 'tool_use', id: `toolu_step${i}`, name: kind, input }], chunkDelayMs: 1, chunkChars: 16 });
  }
  turns.push({ content: [{ type: 'text', text: `All ${steps} steps are done.` }], chunkDelayMs: 1, chunkChars: 16 });
  return { turns, files, steps };
}

/** What identifies a message across the history and the request built from it (which adds reminders and cache marks). */
function keyOf(m: MessageParam): string {
  const blocks: ContentBlockParam[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  const ids = blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : b.type === 'tool_result' ? [b.tool_use_id] : []));
  if (ids.length) return `${m.role}:${ids.join(',')}`;
  const texts = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  return `${m.role}:${texts.at(-1) ?? ''}`;
}

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const accepts = (history: readonly MessageParam[]) => validateRequest({ model: 'm', max_tokens: 5, messages: appendUserContent(history, [{ type: 'text', text: 'go on' }]) }) === null;

interface Options {
  cli: string;
  runs: number;
  concurrency: number;
  turn: Turn;
  /** Every n-th run is also resumed by a real `--resume` run of the CLI. */
  cliResumeEvery?: number;
}

export async function killRuns(o: Options): Promise<KillFigures> {
  const f: KillFigures = { runs: o.runs, byStep: Array.from({ length: o.turn.steps + 1 }, () => 0), completedMessages: 0, lostMessages: 0, resumed: 0, nothingSaved: 0, cliResumes: 0, resumedByCli: 0, tornLines: 0, invalidRequests: 0, deniedCalls: 0, failures: [], ms: 0 };
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < o.runs; k = next++) {
      try {
        await oneRun(k, o, f);
      } catch (err) {
        f.failures.push(`run ${k}: ${err instanceof Error ? err.stack : String(err)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  f.ms = performance.now() - started;
  return f;
}

function runCliProcess(cli: string, args: string[], env: NodeJS.ProcessEnv) {
  const p = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const exit = new Promise<number | null>((resolve) => p.once('close', (code) => resolve(code)));
  return { p, exit, err: () => err };
}

async function oneRun(k: number, o: Options, f: KillFigures): Promise<void> {
  const standin = await startStandin();
  try {
    const cwd = tmp('tl-kill-');
    for (const [name, text] of Object.entries(o.turn.files)) writeFileSync(join(cwd, name), text);
    const stateDir = tmp('tl-kill-state-');
    const env = { PATH: process.env.PATH, HOME: cwd, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, THREADLINE_STATE_DIR: stateDir, THREADLINE_AUTO_MEMORY: '0' };
    standin.enqueue(...o.turn.turns);
    const run = runCliProcess(o.cli, ['-p', `Run ${k}: do the steps`, '--allowed-tools', 'Read,Grep,Bash', '--cwd', cwd, '--max-turns', '40'], env);
    let exited = false;
    void run.exit.then(() => (exited = true));
    // A random step (0: while it starts), then a random moment within it.
    const step = Math.floor(Math.random() * (o.turn.steps + 1));
    if (step === 0) await sleep(Math.random() * 300);
    else {
      while (standin.requests.length < step && !exited) await sleep(2);
      await sleep(Math.random() * 30);
    }
    run.p.kill('SIGKILL');
    await run.exit;
    // The kill cuts the scripted turn short: its later steps were never meant to be asked for.
    standin.discardScript();
    f.byStep[step]!++;
    f.invalidRequests += standin.requests.filter((r) => r.validationError !== null).length;
    const sent = standin.requests.at(-1)?.body as { messages?: MessageParam[] } | undefined;
    const expected = sent?.messages ?? [];
    f.deniedCalls += (JSON.stringify(expected).match(/Permission denied/g) ?? []).length;
    f.completedMessages += expected.length;

    const dir = cliSessionsDir(cwd, env);
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
    } catch {
      // no folder yet
    }
    if (!files.length) {
      if (expected.length) {
        f.lostMessages += expected.length;
        f.failures.push(`run ${k} (step ${step}): no transcript, ${expected.length} messages had been sent`);
      } else {
        f.nothingSaved++;
        f.resumed++;
      }
      return;
    }
    const file = join(dir, files[0]!);
    if (!readFileSync(file).subarray(-1).equals(Buffer.from('\n'))) f.tornLines++;
    let loaded;
    try {
      loaded = await loadSession(file);
    } catch (err) {
      // Killed inside the very first write: its header is torn, and nothing had been sent.
      if (expected.length) f.failures.push(`run ${k} (step ${step}): ${String(err)}`);
      f.lostMessages += expected.length;
      if (!expected.length) f.resumed++;
      return;
    }
    const lost = expected.filter((m, i) => !loaded.history[i] || keyOf(loaded.history[i]!) !== keyOf(m)).length;
    f.lostMessages += lost;
    if (lost) f.failures.push(`run ${k} (step ${step}): lost ${lost}: sent ${expected.map(keyOf).join(' | ')}; saved ${loaded.history.map(keyOf).join(' | ')}`);
    if (accepts(loaded.history)) f.resumed++;
    else f.failures.push(`run ${k} (step ${step}): the saved history would be refused: ${validateRequest({ model: 'm', max_tokens: 5, messages: appendUserContent(loaded.history, [{ type: 'text', text: 'go on' }]) })}`);

    if (o.cliResumeEvery && k % o.cliResumeEvery === 0) {
      f.cliResumes++;
      standin.reset();
      standin.enqueue({ content: [{ type: 'text', text: 'Carrying on.' }] });
      const again = runCliProcess(o.cli, ['-p', 'go on', '--resume', loaded.meta.id, '--cwd', cwd], env);
      const code = await again.exit;
      const after = await loadSession(file);
      if (code === 0 && standin.requests.length === 1 && standin.requests[0]!.validationError === null && after.skipped.length === 0) f.resumedByCli++;
      else f.failures.push(`run ${k}: --resume exit ${code}, ${standin.requests.map((r) => r.validationError).join(', ')}, skipped ${JSON.stringify(after.skipped)}: ${again.err()}`);
    }
  } finally {
    await standin.close();
  }
}
