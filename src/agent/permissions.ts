// Why this file is long: the permission engine's decision order (deny, then ask, protected
// folders, allow, then the default) and the rule matching it relies on are audited together;
// split, a reader checks one half against the other. Bash parsing, path rules and rule sources
// are already their own files (bash/, pathRules.ts, ruleSources.ts).
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve, sep } from 'node:path';
import { sharedBashChecker, type BashChecker } from './bash/checker';
import type { PermissionEngine, PermissionVerdict } from './permissionBroker';
import { mcpAllowHint, mcpAskReason, mcpRuleCovers, serverRule } from './mcpRules';
import { parsePathPattern, pathPatternMatches, ruleForPath, under, type PathContext } from './pathRules';
import { describeSources, type DescribedRule, type RuleSource } from './ruleSources';
import { realLocation, toolPaths } from '../tools/paths';
import type { PermissionOutcome, Tool } from '../tools/types';
import type { SearchScope } from '../tools/walk';

export interface PermissionRules {
  allow: readonly string[];
  ask: readonly string[];
  deny: readonly string[];
}

export interface PermissionOptions {
  cwd: string;
  /** Read on every decision, so a settings change applies to the next call. */
  rules(): PermissionRules;
  /** Workspace Trust: an untrusted folder gets no tool that writes or executes. */
  trusted(): boolean;
  /** No one to ask (the CLI): what would ask is denied, with the reason. */
  headless?: boolean;
  /** Where rules() come from, named in messages: "--allowed-tools", "threadline.permissions". */
  rulesLabel?: string;
  /**
   * More sources: Claude Code's settings files, added folders. Read on every decision; a
   * source marked `project` applies only while the folder is trusted.
   */
  sources?(): readonly RuleSource[];
  /** Threadline's own files (its sessions, its settings): a write there always asks. */
  protectedPaths?: readonly string[];
  /** Default: the user's home folder (for `~/` patterns). */
  home?: string;
  /** Judges Bash commands on their parse tree; one shared parser unless a test gives its own. */
  bash?: BashChecker;
  /** Writes an allow rule to the user's own settings ("Allow this server"); without it the grant lasts the session. */
  saveUserRule?(rule: string): Promise<void>;
}

export interface ParsedRule {
  tool: string;
  /** undefined: every call of the tool. */
  pattern: string | undefined;
  source: string;
  /** Session grants name one exact command or path, never a pattern. */
  exact?: boolean;
  /** Where the rule was written: a settings file, a flag. */
  origin?: string;
  /** What a `/path` pattern is relative to (default: the workspace). */
  root?: string;
}

export class RuleSyntaxError extends Error {}

// `mcp__server__*` is the one name with a wildcard (every tool of an MCP server).
const RULE = /^([A-Za-z_][\w-]*(?:__\*)?)(?:\((.*)\))?$/s;

/** `Tool` or `Tool(pattern)`, as Claude Code writes them, so users' rules carry over. */
export function parseRule(source: string): ParsedRule {
  const m = RULE.exec(source.trim());
  if (!m) throw new RuleSyntaxError(`not a permission rule: ${JSON.stringify(source)} (expected Tool or Tool(pattern))`);
  const pattern = m[2]?.trim();
  return { tool: m[1]!, pattern: pattern === '' || pattern === '*' ? undefined : pattern, source };
}

/** Rule names of the built-in file tools: a rule names a tool, a call's tool is known by its traits. */
const EDIT_RULES = new Set(['Edit', 'Write']);
const isFileTool = (tool: Tool) => Boolean(tool.traits.readsFiles || tool.traits.writesFiles);
/** Writes inside these folders always ask, as the reference does even in its bypass mode. */
export const PROTECTED_DIRS: readonly string[] = ['.git', '.vscode', '.claude', '.idea'];

/**
 * Whether a rule written for `ruleTool` speaks for a call of `callTool`. As in the reference, an
 * Edit rule covers every tool that edits files and a Read rule the tools that read them (Grep,
 * Glob). A deny or ask rule reaches further: a Write deny also holds for Edit.
 */
export function ruleCovers(ruleTool: string, call: Tool, mode: RuleMode = 'allow'): boolean {
  const mcp = mcpRuleCovers(ruleTool, call);
  if (mcp !== undefined) return mcp;
  if (ruleTool === call.name) return true;
  if (call.traits.writesFiles && (ruleTool === 'Edit' || (mode !== 'allow' && EDIT_RULES.has(ruleTool)))) return true;
  return ruleTool === 'Read' && Boolean(call.traits.readsFiles);
}

/** A path a call touches, as written (lexical) and where it really is (symlinks resolved). */
interface Touched {
  lexical: string;
  real: string;
}

function touchedPaths(tool: Tool, input: unknown, cwd: string): Touched[] {
  return toolPaths(tool, input, cwd).map((lexical) => ({ lexical, real: realLocation(lexical) }));
}

function bashCommand(input: unknown): string {
  const command = (input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : '';
}

/** A file rule's pattern against one absolute path (exact for a session grant). */
function patternMatches(rule: ParsedRule, subject: string, mode: RuleMode, ctx: PathContext): boolean {
  const p = rule.pattern!;
  if (rule.exact) return subject === p;
  return pathPatternMatches(parsePathPattern(p, ctx, rule.root), subject, mode !== 'allow');
}

type RuleMode = 'allow' | 'ask' | 'deny';

function defaultContext(cwd: string): PathContext {
  return { cwd: realLocation(resolve(cwd)), home: homedir() };
}

/**
 * Whether a rule matches a call. File rules are matched against the real path (symlinks
 * resolved): an allow rule must name where every touched file really is, while a deny or ask rule
 * catches the path as written too.
 */
export function ruleMatches(
  rule: ParsedRule,
  tool: Tool,
  input: unknown,
  cwd: string,
  mode: RuleMode = 'allow',
  bash: BashChecker = sharedBashChecker(),
  ctx?: PathContext,
  touched?: Touched[],
): boolean {
  if (!ruleCovers(rule.tool, tool, mode)) return false;
  if (rule.pattern === undefined) return true;
  if (tool.traits.runsCommands) {
    // Bash rules are judged on the parsed command (src/agent/bash/), never on its text.
    if (mode === 'allow') return 'rules' in bash.allowedBy([rule], bashCommand(input));
    return bash.matchedBy([rule], bashCommand(input))?.sure === true;
  }
  if (!isFileTool(tool)) return false;
  const c = ctx ?? defaultContext(cwd);
  const t = touched ?? touchedPaths(tool, input, cwd);
  if (t.length === 0) return false;
  if (mode === 'allow') return t.every((x) => patternMatches(rule, x.real, mode, c));
  return t.some((x) => patternMatches(rule, x.real, mode, c) || patternMatches(rule, x.lexical, mode, c));
}

/** Why a call asks, so a headless run can name the exact rule or flag that would allow it. */
type AskWhy =
  | { kind: 'outside'; path: string; readOnly: boolean }
  | { kind: 'addedFolder'; path: string }
  | { kind: 'protected'; path: string; dir: string }
  | { kind: 'askRule'; rule: ParsedRule }
  | { kind: 'mcp' }
  | { kind: 'default'; path?: string };

type Verdict = PermissionVerdict & { why?: AskWhy };

interface Collected {
  allow: ParsedRule[];
  ask: ParsedRule[];
  deny: ParsedRule[];
  /** Added folders, real paths, with where each was added. */
  dirs: Array<{ dir: string; source: string }>;
  mode?: { mode: string; source: string };
}

/**
 * Decides allow / ask / deny for one tool call: deny rules, then ask rules, then the folders
 * whose writes always ask, then allow rules and this session's grants, then the defaults
 * (read-only inside the workspace and added folders runs; edits, commands and anything outside
 * ask). Rules come from Threadline's own settings or flags and from Claude Code's settings files.
 */
export class Permissions implements PermissionEngine, SearchScope {
  private readonly grants: ParsedRule[] = [];
  private warned = new Set<string>();
  private context: PathContext | undefined;
  private readonly bash: BashChecker;

  constructor(
    private readonly opts: PermissionOptions,
    private readonly onBadRule: (message: string) => void = () => undefined,
  ) {
    // Starts loading the shell parser now, so it is ready by the first command.
    this.bash = opts.bash ?? sharedBashChecker();
  }

  /** Resolves once the shell parser has loaded (or failed to): Bash decisions wait for it. */
  async ready(): Promise<void> {
    await this.bash.ready();
  }

  private ctx(): PathContext {
    return (this.context ??= { cwd: realLocation(resolve(this.opts.cwd)), home: this.opts.home ?? homedir() });
  }

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.onBadRule(message);
  }

  private parsed(list: readonly string[], origin: string | undefined, root?: string): ParsedRule[] {
    const out: ParsedRule[] = [];
    for (const source of list) {
      try {
        out.push({ ...parseRule(source), ...(origin ? { origin } : {}), ...(root ? { root } : {}) });
      } catch (e) {
        // A typo in one rule must not stop the agent; say it once.
        this.warnOnce(e instanceof Error ? e.message : String(e));
      }
    }
    return out;
  }

  private label(): string {
    return this.opts.rulesLabel ?? (this.opts.headless ? '--allowed-tools' : 'Threadline settings');
  }

  /** The sources that apply now: project files only while the folder is trusted. */
  private activeSources(): RuleSource[] {
    const own = this.opts.rules();
    const label = this.label();
    const extra = this.opts.sources?.() ?? [];
    const trusted = this.opts.trusted();
    return [{ label, ...own }, ...extra.filter((s) => !s.project || trusted)];
  }

  private collect(): Collected {
    const out: Collected = { allow: [], ask: [], deny: [], dirs: [] };
    for (const [k, s] of this.activeSources().entries()) {
      const root = s.root ? realLocation(resolve(s.root)) : undefined;
      // Messages name the file a rule came from; the host's own rules are the ones the user set here.
      const origin = k === 0 ? undefined : s.label;
      for (const b of ['allow', 'ask', 'deny'] as const) out[b].push(...this.parsed(s[b] ?? [], origin, root).filter((r) => b !== 'allow' || !s.project || this.keepProjectAllow(r)));
      if (s.project && s.additionalDirectories?.length) this.warnOnce(`additionalDirectories in ${s.label} are ignored: a project file may not open folders outside itself`);
      for (const d of s.project ? [] : (s.additionalDirectories ?? [])) out.dirs.push({ dir: realLocation(resolve(this.opts.cwd, d)), source: s.label });
      if (s.defaultMode && !out.mode) out.mode = { mode: s.defaultMode, source: s.label };
    }
    if (out.mode && !['default', 'acceptEdits', 'dontAsk', 'plan'].includes(out.mode.mode)) {
      this.warnOnce(`defaultMode "${out.mode.mode}" in ${out.mode.source} is not honoured by Threadline; the default applies`);
      delete out.mode;
    }
    return out;
  }

  /**
   * A file that ships with the repository may allow things inside it, never reads or writes
   * elsewhere: trusting a folder should not hand it ~/.ssh. (The reference honours such rules.)
   */
  private keepProjectAllow(r: ParsedRule): boolean {
    if (r.pattern === undefined || !FILE_RULES.has(r.tool)) return true;
    const p = r.pattern.trim();
    if (!p.startsWith('//') && !p.startsWith('~') && !p.split('/').includes('..')) return true;
    this.warnOnce(`${r.source} in ${r.origin} is ignored: a project file may not allow paths outside the project`);
    return false;
  }

  /** A Bash command decided before `ready()` resolves asks, saying so. */
  decide(call: { tool: Tool; input: unknown }): PermissionVerdict {
    const collected = this.collect();
    const verdict = this.rawDecide(call, collected);
    if (verdict.behavior !== 'ask') return { behavior: verdict.behavior, reason: verdict.reason };
    if (this.opts.headless) return { behavior: 'deny', reason: this.refusal(verdict, call, 'a headless run cannot ask') };
    if (collected.mode?.mode === 'dontAsk') return { behavior: 'deny', reason: this.refusal(verdict, call, `defaultMode "dontAsk" in ${collected.mode.source} refuses what would ask`) };
    return { behavior: 'ask', reason: verdict.reason };
  }

  private rawDecide({ tool, input }: { tool: Tool; input: unknown }, c: Collected): Verdict {
    const { cwd } = this.opts;
    const ctx = this.ctx();
    // An MCP server's read-only hint is its own claim: its tools are decided by rules alone.
    const readOnly = !tool.traits.mcp && safeReadOnly(tool, input);
    if (!readOnly && !this.opts.trusted()) {
      return { behavior: 'deny', reason: `${tool.name} is not available in Restricted Mode: trust this folder to let Threadline edit files or run commands.` };
    }
    const isFile = isFileTool(tool);
    const touched = isFile ? touchedPaths(tool, input, cwd) : [];
    const match = (list: readonly ParsedRule[], mode: RuleMode) => list.find((r) => ruleMatches(r, tool, input, cwd, mode, this.bash, ctx, touched));
    // The Bash checker hands back the rules it was given, so their origin is still on them.
    const from = (r: object) => ('origin' in r && typeof r.origin === 'string' ? ` (${r.origin})` : '');
    const denied = match(c.deny, 'deny');
    if (denied) return { behavior: 'deny', reason: `Denied by the rule ${denied.source}${from(denied)}.` };
    const asked = match(c.ask, 'ask');
    if (asked) return { behavior: 'ask', reason: `The rule ${asked.source}${from(asked)} asks first.`, why: { kind: 'askRule', rule: asked } };
    if (!readOnly && c.mode?.mode === 'plan') return { behavior: 'deny', reason: `${tool.name} does not run in plan mode (defaultMode in ${c.mode.source}).` };
    if (tool.traits.mcp) {
      const allowed = match([...c.allow, ...this.grants], 'allow');
      return allowed ? { behavior: 'allow', reason: `Allowed by ${allowed.source}${from(allowed)}.` } : { behavior: 'ask', reason: mcpAskReason(tool), why: { kind: 'mcp' } };
    }
    if (tool.traits.runsCommands) {
      const unsure = this.bash.matchedBy([...c.deny, ...c.ask].filter((r) => r.tool === tool.name), bashCommand(input));
      if (unsure) return { behavior: 'ask', reason: `The rule ${unsure.rule.source}${from(unsure.rule)} may apply: ${unsure.why ?? 'it cannot be checked'}.`, why: { kind: 'default' } };
      const allowed = this.bash.allowedBy([...c.allow, ...this.grants].filter((r) => r.tool === tool.name), bashCommand(input));
      if ('rules' in allowed) return { behavior: 'allow', reason: `Allowed by ${allowed.rules.map((r) => `${r.source}${from(r)}`).join(', ')}.` };
      return { behavior: 'ask', reason: allowed.reason, why: { kind: 'default' } };
    }
    if (!readOnly && isFile) {
      for (const t of touched) {
        const dir = this.protectedDir(t);
        if (dir) return { behavior: 'ask', reason: `${t.real} is inside ${dir}; Threadline always asks before writing there.`, why: { kind: 'protected', path: t.real, dir } };
      }
    }
    const outside = touched.filter((t) => under(ctx.cwd, t.real) === undefined);
    // Outside the workspace only a rule naming a path reaches; a tool-wide rule does not.
    const allowList = [...c.allow, ...this.grants].filter((r) => outside.length === 0 || r.pattern !== undefined);
    const allowed = match(allowList, 'allow');
    if (allowed) return { behavior: 'allow', reason: `Allowed by ${allowed.source}${from(allowed)}.` };
    if (!readOnly && isFile && outside.length === 0 && c.mode?.mode === 'acceptEdits') return { behavior: 'allow', reason: `Edits are accepted (defaultMode in ${c.mode.source}).` };
    const inDirs = (t: Touched) => c.dirs.some((d) => under(d.dir, t.real) !== undefined);
    const beyond = outside.find((t) => !inDirs(t));
    if (beyond) return { behavior: 'ask', reason: `${beyond.real} is outside the workspace.`, why: { kind: 'outside', path: beyond.real, readOnly } };
    if (readOnly) return { behavior: 'allow', reason: outside.length ? 'Read-only, in an added folder.' : 'Read-only.' };
    if (outside[0]) return { behavior: 'ask', reason: `${outside[0].real} is in an added folder, where writes ask.`, why: { kind: 'addedFolder', path: outside[0].real } };
    return { behavior: 'ask', reason: tool.traits.runsCommands ? 'Runs a shell command.' : 'Changes files.', why: { kind: 'default', ...(touched[0] ? { path: touched[0].real } : {}) } };
  }

  /** The protected folder a write would land in, as a name for messages, or undefined. */
  private protectedDir(t: Touched): string | undefined {
    const ctx = this.ctx();
    for (const p of this.opts.protectedPaths ?? []) {
      const root = realLocation(resolve(p));
      if (under(root, t.real) !== undefined || under(resolve(p), t.lexical) !== undefined) return p;
    }
    const candidates: Array<[string, string]> = [
      [ctx.cwd, t.real],
      [resolve(this.opts.cwd), t.lexical],
    ];
    for (const [root, p] of candidates) {
      const rel = under(root, p);
      const segments = (rel ?? p.split(sep).join('/')).split('/');
      const hit = segments.find((s) => PROTECTED_DIRS.includes(s));
      if (hit) return `${hit}/`;
    }
    return undefined;
  }

  /** The denial a call that would ask gets when no one can be asked, naming what would allow it. */
  private refusal(v: Verdict, { tool, input }: { tool: Tool; input: unknown }, because: string): string {
    const ctx = this.ctx();
    const why = v.why;
    const label = this.label();
    // A flag is named as it is typed; a settings list by name.
    const rule = (r: string) => {
      const quoted = r.includes("'") ? JSON.stringify(r) : `'${r}'`;
      return label.startsWith('--') ? `${label} ${quoted}` : `the rule ${r} in ${label}`;
    };
    switch (why?.kind) {
      case 'outside': {
        const r = rule(ruleForPath(why.readOnly ? 'Read' : tool.name, why.path, ctx));
        if (!why.readOnly) return `${tool.name} of ${why.path} is outside the workspace, and ${because}; allow it with ${r}.`;
        const dir = isFolder(why.path) ? why.path : dirname(why.path);
        return `${tool.name} of ${why.path} is outside the workspace, and ${because}; allow it with ${this.opts.headless ? `--add-dir ${dir}` : `threadline.additionalDirectories (${dir})`} or ${r}.`;
      }
      case 'addedFolder':
        return `${tool.name} of ${why.path} is a write in an added folder, and ${because}; allow it with ${rule(ruleForPath(tool.name, why.path, ctx))}.`;
      case 'protected':
        return `${tool.name} of ${why.path} is refused: Threadline always asks before writing inside ${why.dir} (whatever the rules say), and ${because}.`;
      case 'askRule':
        return `${v.reason} Ask rules beat allow rules, and ${because}; remove the rule there to let it run.`;
      case 'mcp':
        return `${v.reason} It needs permission, and ${because}; ${mcpAllowHint(tool, rule)}.`;
      default: {
        if (tool.traits.runsCommands) {
          const command = bashCommand(input).trim();
          const exact = command && !command.includes('\n') ? rule(`${tool.name}(${command})`) : rule(`${tool.name}(...)`);
          return `${v.reason} It needs permission, and ${because}; allow it with ${exact}.`;
        }
        const exact = rule(why?.path ? ruleForPath(tool.name, why.path, ctx) : tool.name);
        return `${v.reason} It needs permission, and ${because}; allow it with ${exact} (or ${tool.name} for every file in the workspace).`;
      }
    }
  }

  /**
   * "Allow for this session": a command is granted exactly; file edits inside the workspace
   * are granted for the tool; a path outside the workspace is granted for that real path only.
   */
  grantForSession({ tool, input }: { tool: Tool; input: unknown }): void {
    const { cwd } = this.opts;
    if (tool.traits.runsCommands) {
      // Exactly this command; it is compared by its parsed form, so only a respelling of it matches.
      const command = bashCommand(input).trim();
      if (command) this.grants.push({ tool: tool.name, pattern: command, exact: true, source: `${tool.name}(${command}) for this session` });
      return;
    }
    const outside = touchedPaths(tool, input, cwd).filter((t) => under(this.ctx().cwd, t.real) === undefined);
    if (outside.length === 0) {
      this.grants.push({ tool: tool.name, pattern: undefined, source: `${tool.name} for this session` });
      return;
    }
    for (const t of outside) this.grants.push({ tool: tool.name, pattern: t.real, exact: true, source: `${tool.name}(${t.real}) for this session` });
  }

  /**
   * "Allow this server": every tool of the call's MCP server runs without asking, from now on in
   * this session and, through the host, in the user's own settings.
   */
  grantServer({ tool }: { tool: Tool; input: unknown }): void {
    const rule = serverRule(tool);
    if (!rule) return;
    this.grants.push({ tool: rule, pattern: undefined, source: `${rule} (allowed for this server)` });
    void this.opts.saveUserRule?.(rule).catch((err: unknown) => this.warnOnce(`could not save ${rule} to your settings: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Whether a read of this real path would run without asking (workspace, added folders, rules). */
  readable(real: string): boolean {
    const c = this.collect();
    const ctx = this.ctx();
    if (c.deny.some((r) => READ_RULES.has(r.tool) && (r.pattern === undefined || patternMatches(r, real, 'deny', ctx)))) return false;
    if (under(ctx.cwd, real) !== undefined || c.dirs.some((d) => under(d.dir, real) !== undefined)) return true;
    return [...c.allow, ...this.grants].some((r) => READ_RULES.has(r.tool) && r.pattern !== undefined && patternMatches(r, real, 'allow', ctx));
  }

  /** SearchScope: a file Grep or Glob found may be shown unless a read rule denies it or it leads out of every allowed place. */
  mayShow(real: string, realRoot: string): boolean {
    const c = this.collect();
    const ctx = this.ctx();
    if (c.deny.some((r) => READ_RULES.has(r.tool) && r.pattern !== undefined && patternMatches(r, real, 'deny', ctx))) return false;
    return under(realRoot, real) !== undefined || this.readable(real);
  }

  /**
   * The permission check of a background agent (memory extraction, session notes): nothing in
   * Restricted Mode; its own check first; then file tools only, writes only inside its own
   * `roots`, reads there or where the main agent could read without asking. Deny rules hold.
   */
  boundedCheck(roots: readonly string[], own: (tool: Tool, input: unknown) => PermissionOutcome): (tool: Tool, input: unknown) => PermissionOutcome {
    return (tool, input) => {
      if (!this.opts.trusted()) return { allowed: false, reason: 'Background agents do nothing in Restricted Mode.' };
      const mine = own(tool, input);
      if (!mine.allowed) return mine;
      if (!isFileTool(tool)) return { allowed: false, reason: `${tool.name} is not available to background agents.` };
      const c = this.collect();
      const ctx = this.ctx();
      const touched = touchedPaths(tool, input, this.opts.cwd);
      if (touched.length === 0) return { allowed: false, reason: 'The call names no path.' };
      const denied = c.deny.find((r) => ruleMatches(r, tool, input, this.opts.cwd, 'deny', this.bash, ctx, touched));
      if (denied) return { allowed: false, reason: `Denied by the rule ${denied.source}.` };
      const realRoots = roots.map((r) => realLocation(resolve(r)));
      const readOnly = safeReadOnly(tool, input);
      for (const t of touched) {
        if (realRoots.some((r) => under(r, t.real) !== undefined)) continue;
        if (readOnly && this.rawDecide({ tool, input }, c).behavior === 'allow') continue;
        return { allowed: false, reason: `${t.real} is outside what a background agent may touch (its own folder, and what the workspace's rules let it read).` };
      }
      return { allowed: true };
    };
  }

  /** Every rule in force (and those withheld in Restricted Mode), with the file or flag it came from. */
  describeRules(): { rules: DescribedRule[]; directories: Array<{ dir: string; source: string }>; defaultMode?: { mode: string; source: string } } {
    const own = this.opts.rules();
    const sources: RuleSource[] = [{ label: this.label(), ...own }, ...(this.opts.sources?.() ?? [])];
    const c = this.collect();
    return { rules: describeSources(sources, this.opts.trusted()), directories: c.dirs, ...(c.mode ? { defaultMode: c.mode } : {}) };
  }
}

/** Rules that speak for reading a file, whatever tool found it (a search's results). */
const READ_RULES = new Set(['Read', 'Grep', 'Glob']);
const FILE_RULES = new Set([...READ_RULES, ...EDIT_RULES]);

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function safeReadOnly(tool: Tool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input);
  } catch {
    return false;
  }
}
