// Cline's CLI (a compiled binary from npm), pointed at the stand-in through its provider file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runProcess } from '../threadline';
import { MODEL, type Play } from '../measure';

export function cline(bin: string): Play {
  return async (ctx) => {
    const notes: string[] = [];
    const data = join(ctx.home, '.cline', 'data');
    mkdirSync(join(data, 'settings'), { recursive: true });
    // Without updatedAt the CLI rewrites the entry and drops the key.
    const settings = { provider: 'anthropic', apiKey: 'bench-key', model: MODEL, baseUrl: `${ctx.url}/v1` };
    writeFileSync(join(data, 'settings', 'providers.json'), JSON.stringify({ version: 1, lastUsedProvider: 'anthropic', modes: {}, providers: { anthropic: { settings, updatedAt: new Date().toISOString(), tokenSource: 'manual' } } }, null, 2));
    const env = cleanEnv({ HOME: ctx.home });
    let sessionId: string | undefined;
    for (const [i, p] of ctx.session.prompts.entries()) {
      const args = ['--data-dir', data, '-P', 'anthropic', '-m', MODEL, '-c', ctx.cwd, '--json', ...(i > 0 && sessionId ? ['--id', sessionId] : []), p.text];
      const r = await runProcess(bin, args, { cwd: ctx.cwd, env, timeoutMs: 20 * 60_000 });
      sessionId ??= /"(?:sessionId|session_id|taskId)"\s*:\s*"([^"]+)"/.exec(r.stdout)?.[1];
      if (r.code !== 0) notes.push(`prompt ${i + 1}: exit ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`);
      if (i === 0 && ctx.session.prompts.length > 1 && !sessionId) notes.push(`no session id in the output: ${r.stdout.slice(0, 300)}`);
    }
    return notes;
  };
}
