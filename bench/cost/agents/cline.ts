// Cline's CLI (a compiled binary from npm), pointed at the stand-in through its provider file.
// A one-prompt session runs as `cline PROMPT --json` (tools approved by default).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CannotPlay, MODEL, type Play, type PlayContext } from '../measure';
import { cleanEnv, runProcess } from '../process';

/**
 * Why a chat cannot be played: checked by hand on 3.0.65. `--id` resumes a session only in the
 * interactive terminal UI ("interactive mode requires a TTY"; with --json, "JSON output mode
 * requires a prompt argument or piped stdin"), and the editor protocol (`--acp`) starts no
 * session before `authenticate`, whose only methods are Cline, ClinePass and ChatGPT sign-ins.
 */
export const CLINE_CHAT_UNSUPPORTED =
  'Cline 3.0.65 cannot continue a session headless: --id resumes only in its interactive terminal UI ("interactive mode requires a TTY"), and --acp requires a Cline, ClinePass or ChatGPT sign-in before any session';

function configure(ctx: PlayContext): string {
  const data = join(ctx.home, '.cline', 'data');
  mkdirSync(join(data, 'settings'), { recursive: true });
  // Without updatedAt the CLI rewrites the entry and drops the key.
  const settings = { provider: 'anthropic', apiKey: 'bench-key', model: MODEL, baseUrl: `${ctx.url}/v1` };
  writeFileSync(join(data, 'settings', 'providers.json'), JSON.stringify({ version: 1, lastUsedProvider: 'anthropic', modes: {}, providers: { anthropic: { settings, updatedAt: new Date().toISOString(), tokenSource: 'manual' } } }, null, 2));
  return data;
}

export function cline(bin: string): Play {
  return async (ctx) => {
    if (ctx.session.prompts.length > 1) throw new CannotPlay(CLINE_CHAT_UNSUPPORTED);
    const data = configure(ctx);
    const p = ctx.session.prompts[0]!;
    const r = await runProcess(bin, ['--data-dir', data, '-P', 'anthropic', '-m', MODEL, '-c', ctx.cwd, '--json', p.text], { cwd: ctx.cwd, env: cleanEnv({ HOME: ctx.home }), timeoutMs: 20 * 60_000 });
    return r.code === 0 ? [] : [`exit ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`];
  };
}
