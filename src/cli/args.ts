import { parseArgs } from 'node:util';
import { MIN_CONTEXT_WINDOW } from '../conversation/thresholds';
import { undoArgs, type CompactArgs, type DiffArgs, type RewindArgs } from './undoArgs';
import { UsageError } from './usage';
import { ALL_SPELLINGS, canonicalInline, LIST_FLAGS, PARSE_OPTIONS, VALUE_FLAGS } from './flags';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface PromptArgs {
  command: 'prompt';
  prompt: string;
  cwd: string;
  model: string | undefined;
  contextWindow: number | undefined;
  /** Undefined: no limit, as the reference's -p has none by default. */
  maxTurns: number | undefined;
  allowedTools: string[];
  /** --add-dir: folders where reads run like in the workspace (writes still ask). */
  addDirs: string[];
  outputFormat: OutputFormat;
  /** Continue the most recent session in this folder, or the one with this id. */
  resume: { latest: true } | { id: string } | undefined;
  mcp: McpArgs;
  /** --trust: the folder is trusted for this run (nothing is remembered). */
  trust: boolean;
}

/** Where MCP servers come from on this run, besides the files users already have. */
export interface McpArgs {
  /** --mcp-config: files or inline JSON, in the order given. */
  configs: string[];
  /** --strict-mcp-config: only the servers of --mcp-config. */
  strict: boolean;
}

/** A prompt run as parsed: no prompt yet when `-p` stood alone (it comes from stdin). */
export type ParsedPromptArgs = Omit<PromptArgs, 'prompt'> & { prompt: string | undefined };

export type CliArgs =
  | ParsedPromptArgs
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'context'; cwd: string; json: boolean; model: string | undefined; contextWindow: number | undefined; addDirs: string[]; mcp: McpArgs; trust: boolean }
  | { command: 'mcp'; cwd: string; json: boolean; action: 'list' | 'approve' | 'deny' | 'reset'; name?: string; mcp: McpArgs; trust: boolean }
  | { command: 'trust'; action: 'trust' | 'list' | 'revoke'; dir: string; json: boolean }
  | { command: 'sessions'; cwd: string; json: boolean; all: boolean }
  | { command: 'memory'; cwd: string; json: boolean; action: 'list' | 'show' | 'rm'; name?: string }
  | RewindArgs
  | DiffArgs
  | CompactArgs;

/** Which saved session an undo command works on: this folder's latest, or the one `-r ID` names. */
export type { CompactAction, CompactArgs, DiffArgs, RewindArgs, RewindMode, SessionPick } from './undoArgs';

export { UsageError } from './usage';

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} takes a positive whole number, got ${JSON.stringify(raw)}`);
  return n;
}

interface Gathered {
  argv: string[];
  /** Arguments a multi-value flag took, so an error can say the prompt may be among them. */
  taken: Array<{ flag: string; values: string[] }>;
  /** `-p` with no value of its own (last, or before another flag or `--`): the reference's print mode, prompt from the rest or stdin. */
  printAlone: boolean;
}

const PRINT = new Set(['-p', '--print']);

function gatherLists(argv: readonly string[]): Gathered {
  const out: string[] = [];
  const taken: Gathered['taken'] = [];
  let printAlone = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (PRINT.has(a) && (next === undefined || next === '--' || isKnownFlag(next))) {
      printAlone = true;
      continue;
    }
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const canonical = LIST_FLAGS.get(a);
    if (canonical) {
      const values: string[] = [];
      // An inline --mcp-config is a JSON object, which may start with anything but "-".
      while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) values.push(argv[++i]!);
      if (!values.length) throw new UsageError(canonical === '--add-dir' ? `${a} needs a folder` : canonical === '--mcp-config' ? `${a} needs a file (or a JSON object)` : `${a} needs at least one tool rule, e.g. ${a} Read "Bash(npm test:*)"`);
      // One spelling from here on, so the values keep the order they were written in.
      out.push(...values.map((v) => `${canonical}=${v}`));
      taken.push({ flag: a, values });
    } else if (canonicalInline(a)) {
      out.push(canonicalInline(a)!);
    } else if (VALUE_FLAGS.has(a) && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) {
      out.push(a, argv[++i]!);
    } else {
      out.push(a);
    }
  }
  return { argv: out, taken, printAlone };
}

/** A flag of ours, in either spelling (`--model=x` too): after a lone -p it is not the prompt. */
function isKnownFlag(arg: string): boolean {
  return ALL_SPELLINGS.has(arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg);
}

// Tool names are capitalised (Read, Bash, WebFetch) or MCP's `mcp__server__tool`; a lowercase
// word in a tool list is far more likely a piece of a prompt.
const TOOL_RULE = /^(?:[A-Z][A-Za-z0-9_]*|mcp__[A-Za-z0-9_-]+(?:__\*)?)(?:\(.*\))?$/s;

function checkRules(rules: string[], taken: Gathered['taken']): void {
  for (const r of rules) {
    if (TOOL_RULE.test(r)) continue;
    const flag = taken.find((t) => t.values.some((v) => v.includes(r)))?.flag;
    const hint = flag ? `; ${flag} takes every argument up to the next flag, so give the prompt with -p, before ${flag}, or after --` : '';
    throw new UsageError(`${JSON.stringify(r)} is not a tool rule (rules look like Read or "Bash(npm test:*)")${hint}`);
  }
}

/** Claude Code users already know these flags; keep their names and meanings. */
export function parseCliArgs(argv: string[], cwd: string): CliArgs {
  const gathered = gatherLists(argv);
  let parsed;
  try {
    parsed = parseArgs({
      args: gathered.argv,
      allowPositionals: true,
      strict: true,
      options: PARSE_OPTIONS,
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
  if (contextWindow !== undefined && contextWindow < MIN_CONTEXT_WINDOW) {
    throw new UsageError(`--context-window is in tokens and must be at least ${MIN_CONTEXT_WINDOW}, got ${contextWindow}${contextWindow < 1000 ? ` (for ${contextWindow}k, give ${contextWindow * 1000})` : ''}`);
  }
  const [first, ...rest] = parsed.positionals;
  const mcp: McpArgs = { configs: v['mcp-config'] ?? [], strict: Boolean(v['strict-mcp-config']) };
  if (mcp.strict && !mcp.configs.length) throw new UsageError('--strict-mcp-config uses only the servers of --mcp-config, and none was given');
  if (first === 'context') {
    if (rest.length) throw new UsageError(`unexpected arguments after context: ${rest.join(' ')}`);
    return { command: 'context', cwd: dir, json: Boolean(v.json), model, contextWindow, addDirs: v['add-dir'] ?? [], mcp, trust: Boolean(v.trust) };
  }
  if (first === 'trust') {
    if (v.list && v.revoke) throw new UsageError('use either --list or --revoke, not both');
    if (rest.length > 1) throw new UsageError(`trust takes one folder, got ${rest.length}: ${rest.join(' ')}`);
    if (v.list && rest.length) throw new UsageError('trust --list takes no folder');
    return { command: 'trust', action: v.list ? 'list' : v.revoke ? 'revoke' : 'trust', dir: rest[0] ?? dir, json: Boolean(v.json) };
  }
  if (first === 'mcp') return mcpCommand(rest, dir, Boolean(v.json), mcp, Boolean(v.trust));
  if (first === 'memory') {
    const [action = 'list', name, ...extra] = rest;
    if (action !== 'list' && action !== 'show' && action !== 'rm') throw new UsageError(`memory takes list, show NAME or rm NAME, got ${JSON.stringify(action)}`);
    if (action !== 'list' && !name) throw new UsageError(`memory ${action} needs a memory name`);
    if (extra.length || (action === 'list' && name)) throw new UsageError('too many arguments for memory');
    return { command: 'memory', cwd: dir, json: Boolean(v.json), action, ...(name ? { name } : {}) };
  }
  if (first === 'sessions') {
    if (rest.length) throw new UsageError(`unexpected arguments after sessions: ${rest.join(' ')}`);
    return { command: 'sessions', cwd: dir, json: Boolean(v.json), all: Boolean(v.all) };
  }
  if (v.continue && v.resume !== undefined) throw new UsageError('use either --continue or --resume, not both');
  if (first === 'rewind' || first === 'diff' || first === 'compact') return undoArgs(first, rest, v, dir, model, contextWindow);
  const undoFlag = (['code', 'conversation', 'both', 'dry-run', 'force', 'from', 'up-to', 'focus', 'undo'] as const).find((f) => v[f] !== undefined);
  if (undoFlag) throw new UsageError(`--${undoFlag} belongs to threadline rewind or threadline compact`);
  const resume = v.continue ? ({ latest: true } as const) : v.resume !== undefined ? { id: v.resume } : undefined;
  const allowedTools = (v['allowed-tools'] ?? []).flatMap((s) => splitToolList(s)).filter(Boolean);
  checkRules(allowedTools, gathered.taken);
  // Words the user wrote never just vanish: with -p, the prompt is its value and nothing else.
  if (v.print !== undefined && parsed.positionals.length) {
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])}: the prompt is the value of -p (quote a prompt of several words)`);
  }
  const prompt = v.print ?? (parsed.positionals.length ? parsed.positionals.join(' ') : undefined);
  if (prompt === undefined && gathered.taken.length) {
    const t = gathered.taken[0]!;
    throw new UsageError(`no prompt: ${t.flag} took every argument after it (${t.values.join(' ')}); give the prompt with -p, before ${t.flag}, or after --`);
  }
  if (prompt === undefined && !gathered.printAlone) return { command: 'help' };
  if (prompt !== undefined && !prompt.trim()) throw new UsageError('the prompt is empty');
  const format = v['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'stream-json') {
    throw new UsageError(`--output-format must be text, json or stream-json, got ${JSON.stringify(format)}`);
  }
  return {
    command: 'prompt',
    prompt,
    cwd: dir,
    model,
    contextWindow,
    maxTurns: positiveInt('--max-turns', v['max-turns']),
    allowedTools,
    addDirs: v['add-dir'] ?? [],
    outputFormat: format,
    resume,
    mcp,
    trust: Boolean(v.trust),
  };
}

function mcpCommand(rest: string[], cwd: string, json: boolean, mcp: McpArgs, trust: boolean): CliArgs {
  const [action = 'list', name, ...extra] = rest;
  if (action !== 'list' && action !== 'approve' && action !== 'deny' && action !== 'reset') throw new UsageError(`mcp takes list, approve NAME, deny NAME or reset [NAME], got ${JSON.stringify(action)}`);
  if ((action === 'approve' || action === 'deny') && !name) throw new UsageError(`mcp ${action} needs a server name (see threadline mcp list)`);
  if (extra.length || (action === 'list' && name)) throw new UsageError('too many arguments for mcp');
  return { command: 'mcp', cwd, json, action, ...(name ? { name } : {}), mcp, trust };
}


/** `rewind`, `diff` and `compact`: the session is the latest of the folder unless `-r ID` names one. */

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
