// Threadline's two ways through a session: the real CLI as a user runs it (every prompt after
// the first with --continue; session notes and memory extraction on, as by default), and the
// no-strategy baseline in process (no micro-compaction, no background forks; auto-compaction
// stays, since without it the long sessions cannot fit the window at all).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ContextService } from '../../src/context/contextService';
import { createStandinAgent } from '../../test/support/standinAgent';
import { MODEL, type Play, type PlayContext } from './measure';
import { cleanEnv, runProcess } from './process';
import { testHost } from '../../test/support/host';

const root = join(__dirname, '..', '..');
export const CLI_PATH = join(root, 'dist', 'cli.js');

/** The in-process baseline's turn limit: enough for a 60-read loop (the CLI has none by default). */
const BASELINE_MAX_TURNS = 100;

/** `threadline -p` for the first prompt, `threadline -c -p` for each one after. */
export const threadlineCli: Play = async (ctx) => {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run \`npm run build\` first (npm run bench does)`);
  const notes: string[] = [];
  const env = cleanEnv({ HOME: ctx.home, THREADLINE_STATE_DIR: ctx.state, ANTHROPIC_BASE_URL: ctx.url, ANTHROPIC_API_KEY: 'bench-key' });
  for (const [i, p] of ctx.session.prompts.entries()) {
    const args = [CLI_PATH, ...(i > 0 ? ['-c'] : []), '-p', p.text, '--cwd', ctx.cwd, '--model', MODEL, '--context-window', String(ctx.window), '--allowed-tools', 'Read', '--output-format', 'json'];
    const r = await runProcess(process.execPath, args, { cwd: ctx.cwd, env, timeoutMs: 15 * 60_000 });
    if (r.code !== 0) notes.push(`prompt ${i + 1}: exit ${r.code}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  }
  return notes;
};

/** The same turns through one in-process agent with no strategy: no micro-compaction, no forks. */
export const threadlineBaseline: Play = async (ctx: PlayContext) => {
  const context = new ContextService({ cwd: ctx.cwd, home: ctx.home, managedRoot: join(ctx.home, 'managed'), host: testHost() });
  const { agent } = createStandinAgent({
    url: ctx.url,
    cwd: ctx.cwd,
    settings: { model: MODEL, contextWindow: ctx.window, microCompact: false, autoCompact: true },
    rules: { allow: ['Read'] },
    headless: true,
    maxTurns: BASELINE_MAX_TURNS,
    extra: { context, rereadPointers: false },
  });
  for (const p of ctx.session.prompts) await agent.submit(p.text);
  await agent.drain();
  return [];
};
