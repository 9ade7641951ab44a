// The reference: the Claude Code CLI from npm, run as a user runs it headless.
import { cleanEnv, runProcess } from '../process';
import { MODEL, type Play } from '../measure';

export function claudeCode(bin: string): Play {
  return async (ctx) => {
    const notes: string[] = [];
    const env = cleanEnv({ HOME: ctx.home, ANTHROPIC_BASE_URL: ctx.url, ANTHROPIC_API_KEY: 'bench-key', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' });
    for (const [i, p] of ctx.session.prompts.entries()) {
      const args = [...(i > 0 ? ['-c'] : []), '-p', p.text, '--model', MODEL, '--allowedTools', 'Read', '--output-format', 'json'];
      const r = await runProcess(bin, args, { cwd: ctx.cwd, env, timeoutMs: 20 * 60_000 });
      if (r.code !== 0) notes.push(`prompt ${i + 1}: exit ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`);
    }
    return notes;
  };
}
