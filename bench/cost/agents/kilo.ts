// Kilo's CLI (`kilo run`), pointed at the stand-in through its config file. Its model catalog
// assumes a 1M window for Sonnet unless told, so the config gives it the session's window.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runProcess } from '../process';
import { MODEL, type Play } from '../measure';

export function kilo(bin: string): Play {
  return async (ctx) => {
    const notes: string[] = [];
    const dir = join(ctx.home, '.config', 'kilo');
    mkdirSync(dir, { recursive: true });
    const config = { provider: { anthropic: { options: { baseURL: `${ctx.url}/v1`, apiKey: 'bench-key' }, models: { [MODEL]: { limit: { context: ctx.window, output: 64_000 } } } } } };
    writeFileSync(join(dir, 'kilo.json'), JSON.stringify(config, null, 2));
    const env = cleanEnv({ HOME: ctx.home, KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1' });
    for (const [i, p] of ctx.session.prompts.entries()) {
      const args = ['run', '--pure', '--auto', '-m', `anthropic/${MODEL}`, '--dir', ctx.cwd, ...(i > 0 ? ['-c'] : []), p.text];
      const r = await runProcess(bin, args, { cwd: ctx.cwd, env, timeoutMs: 20 * 60_000 });
      if (r.code !== 0) notes.push(`prompt ${i + 1}: exit ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`);
    }
    return notes;
  };
}
