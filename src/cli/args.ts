import { parseArgs } from 'node:util';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface PromptArgs {
  command: 'prompt';
  prompt: string;
  cwd: string;
  model: string | undefined;
  contextWindow: number | undefined;
  maxTurns: number;
  allowedTools: string[];
  /** --add-dir: folders where reads run like in the workspace (writes still ask). */
  addDirs: string[];
  outputFormat: OutputFormat;
  /** Continue the most recent session in this folder, or the one with this id. */
  resume: { latest: true } | { id: string } | undefined;
}

export type CliArgs =
  | PromptArgs
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'context'; cwd: string; json: boolean; model: string | undefined; contextWindow: number | undefined; addDirs: string[] }
  | { command: 'sessions'; cwd: string; json: boolean }
  | { command: 'memory'; cwd: string; json: boolean; action: 'list' | 'show' | 'rm'; name?: string };

export class UsageError extends Error {}

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} takes a positive whole number, got ${JSON.stringify(raw)}`);
  return n;
}

/** Claude Code users already know these flags; keep their names and meanings. */
export function parseCliArgs(argv: string[], cwd: string): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        print: { type: 'string', short: 'p' },
        cwd: { type: 'string' },
        model: { type: 'string' },
        'context-window': { type: 'string' },
        'max-turns': { type: 'string' },
        'allowed-tools': { type: 'string', multiple: true },
        allowedTools: { type: 'string', multiple: true },
        'add-dir': { type: 'string', multiple: true },
        'output-format': { type: 'string' },
        json: { type: 'boolean' },
        continue: { type: 'boolean', short: 'c' },
        resume: { type: 'string', short: 'r' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const v = parsed.values;
  if (v.help) return { command: 'help' };
  if (v.version) return { command: 'version' };
  const dir = v.cwd ?? cwd;
  const model = v.model?.trim() || undefined;
  const contextWindow = positiveInt('--context-window', v['context-window']);
  const [first, ...rest] = parsed.positionals;
  if (first === 'context') {
    if (rest.length) throw new UsageError(`unexpected arguments after context: ${rest.join(' ')}`);
    return { command: 'context', cwd: dir, json: Boolean(v.json), model, contextWindow, addDirs: v['add-dir'] ?? [] };
  }
  if (first === 'memory') {
    const [action = 'list', name, ...extra] = rest;
    if (action !== 'list' && action !== 'show' && action !== 'rm') throw new UsageError(`memory takes list, show NAME or rm NAME, got ${JSON.stringify(action)}`);
    if (action !== 'list' && !name) throw new UsageError(`memory ${action} needs a memory name`);
    if (extra.length || (action === 'list' && name)) throw new UsageError('too many arguments for memory');
    return { command: 'memory', cwd: dir, json: Boolean(v.json), action, ...(name ? { name } : {}) };
  }
  if (first === 'sessions') {
    if (rest.length) throw new UsageError(`unexpected arguments after sessions: ${rest.join(' ')}`);
    return { command: 'sessions', cwd: dir, json: Boolean(v.json) };
  }
  if (v.continue && v.resume !== undefined) throw new UsageError('use either --continue or --resume, not both');
  const resume = v.continue ? ({ latest: true } as const) : v.resume !== undefined ? { id: v.resume } : undefined;
  const prompt = v.print ?? (parsed.positionals.length ? parsed.positionals.join(' ') : undefined);
  if (prompt === undefined) return { command: 'help' };
  if (!prompt.trim()) throw new UsageError('the prompt is empty');
  const format = v['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'stream-json') {
    throw new UsageError(`--output-format must be text, json or stream-json, got ${JSON.stringify(format)}`);
  }
  const allowedTools = [...(v['allowed-tools'] ?? []), ...(v.allowedTools ?? [])]
    .flatMap((s) => splitToolList(s))
    .filter(Boolean);
  return {
    command: 'prompt',
    prompt,
    cwd: dir,
    model,
    contextWindow,
    maxTurns: positiveInt('--max-turns', v['max-turns']) ?? 50,
    allowedTools,
    addDirs: v['add-dir'] ?? [],
    outputFormat: format,
    resume,
  };
}

/** Splits "Read,Bash(npm test:*) Edit" on commas and spaces outside parentheses. */
export function splitToolList(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || ch === ' ')) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
