// Continue's CLI (`cn -p`), pointed at the stand-in through a YAML config of its own.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runProcess } from '../process';
import { MODEL, type Play } from '../measure';

export function continueCli(bin: string): Play {
  return async (ctx) => {
    const notes: string[] = [];
    const config = join(ctx.home, 'continue.yaml');
    writeFileSync(
      config,
      [
        'name: bench',
        'version: 1.0.0',
        'schema: v1',
        'models:',
        `  - name: ${MODEL}`,
        '    provider: anthropic',
        `    model: ${MODEL}`,
        `    apiBase: ${ctx.url}/v1/`,
        '    apiKey: bench-key',
        `    defaultCompletionOptions:`,
        `      contextLength: ${ctx.window}`,
        '    roles: [chat, edit, apply]',
        '',
      ].join('\n'),
    );
    const env = cleanEnv({ HOME: ctx.home });
    for (const [i, p] of ctx.session.prompts.entries()) {
      const args = ['-p', p.text, '--config', config, '--allow', 'Read', ...(i > 0 ? ['--resume'] : [])];
      const r = await runProcess(bin, args, { cwd: ctx.cwd, env, timeoutMs: 20 * 60_000 });
      if (r.code !== 0) notes.push(`prompt ${i + 1}: exit ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`);
    }
    return notes;
  };
}
