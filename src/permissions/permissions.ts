// Why this file is long: it is the permission engine's decision order (deny, then ask, protected
// folders, allow, then the default) and the checks that reuse it (searches, background agents),
// read and audited as one. What it relies on has its own files: rule parsing and matching (ruleMatch.ts), Bash
// parsing (bash/), the files Bash commands name (bashPaths.ts), path rules (pathRules.ts), rule
// sources (ruleSources.ts), the agent's own /proc entries (ownProcess.ts), headless refusals
// (refusal.ts).
import { homedir } from 'node:os';
import { basename, resolve, sep } from 'node:path';
import { sharedBashChecker, type BashChecker } from './bash/checker';
import { oneDecision } from './bash/glob';
import { deniedFilesFinding, outsideFinding, type PathScope } from './bashPaths';
import { ownProcessFinding } from './bashProc';
import { changesMachine, programTakingFromFolder, untrustedHazard } from './bash/untrustedFolder';
import { deniedEntryInside } from './bash/walkLinks';
import { isOwnProcessPath, ownProcessRefusal } from '../fs/ownProcess';
import type { PermissionEngine, PermissionVerdict } from './permissionBroker';
import { mcpAskReason, serverRule } from './mcpRules';
import { parsePathPattern, patternBase, under, type PathContext } from './pathRules';
import { refusal, type Verdict } from './refusal';
import { bashCommand, isFileTool, parseRule, patternMatches, patternTester, ruleMatches, touchedPaths, type ParsedRule, type RuleMode, type Touched } from './ruleMatch';
import { describeSources, type DescribedRule, type RuleSource } from './ruleSources';
import { applicablePart, projectMayAllow, withheldGrants, type WithheldGrant } from './projectTrust';
import { realLocation } from '../fs/paths';
import { existsSync } from '../fs/stat';
import type { PermissionOutcome, Tool } from '../tools/types';
import type { SearchFilter, SearchScope } from '../tools/walk';


/** Where the built-in rule on Threadline's checkpoint copies says it comes from. */
const CHECKPOINT_COPIES = 'Threadline (its checkpoint copies)';
/** Any state folder's copies and their list (which names each copied file and the hash of its text), by their layout. */
const ANY_CHECKPOINT_COPIES: ReadonlySet<string> = new Set(['Read(//**/checkpoints/*/blobs/**)', 'Read(//**/checkpoints/*/manifest.jsonl)']);
export { parseRule, ruleCovers, ruleMatches, RuleSyntaxError, type ParsedRule } from './ruleMatch';

export interface PermissionRules {
  allow: readonly string[];
  ask: readonly string[];
  deny: readonly string[];
}

export interface PermissionOptions {
  cwd: string;
  /** Read on every decision, so a settings change applies to the next call. */
  rules(): PermissionRules;
  /** The user trusts the folder: its project files may grant (allow, acceptEdits), not only restrict. */
  trusted(): boolean;
  /**
   * VS Code's Restricted Mode: no tool that writes or executes, no background agent. Default:
   * while not trusted. The CLI never restricts its tools this way; its flags are the user's own.
   */
  restrictedMode?(): boolean;
  /** No one to ask (the CLI): what would ask is denied, with the reason. */
  headless?: boolean;
  /** Where rules() come from, named in messages: "--allowed-tools", "threadline.permissions". */
  rulesLabel?: string;
  /**
   * More sources: Claude Code's settings files, added folders. Read on every decision; from a
   * source marked `project` only what restricts applies while the folder is not trusted.
   */
  sources?(): readonly RuleSource[];
  /** Threadline's own files (its sessions, its settings): a write there always asks. */
  protectedPaths?: readonly string[];
  /** Every other Threadline state folder known on this machine (sessions/stateFolders.ts): their checkpoint copies are denied to Read, walks included. */
  stateFolders?(): readonly string[];
  /** Default: the user's home folder (for `~/` patterns). */
  home?: string;
  /** Judges Bash commands on their parse tree; one shared parser unless a test gives its own. */
  bash?: BashChecker;
  /**
   * Remembers the rule of "Allow this server" for this folder (the host keeps it and gives it
   * back through sources()); without it the grant lasts the session.
   */
  saveServerRule?(rule: string): Promise<void>;
}

/** Writes inside these folders always ask, as the reference does even in its bypass mode. */
const PROTECTED_DIRS: readonly string[] = ['.git', '.vscode', '.claude', '.idea'];

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
    return (this.context ??= { cwd: realLocation(resolve(this.opts.cwd)), home: realLocation(this.opts.home ?? homedir()) });
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

  private restricted(): boolean {
    return this.opts.restrictedMode ? this.opts.restrictedMode() : !this.opts.trusted();
  }

  /** The sources that apply now: of a project file in an untrusted folder, only what restricts. */
  private activeSources(): RuleSource[] {
    const own = this.opts.rules();
    const label = this.label();
    const extra = this.opts.sources?.() ?? [];
    const trusted = this.opts.trusted();
    return [{ label, ...own }, ...extra.map((s) => applicablePart(s, trusted))];
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
    // Code checkpoints keep byte-for-byte copies of the files edits replaced, Read-denied ones too:
    // no tool reads them, wherever the state folder lies (a workspace or added folder holding it, pass 79 H1).
    // Another state folder's copies too (VS Code's storage, an earlier THREADLINE_STATE_DIR): by their layout (pass 82 H1).
    // The layout rules judge files named only (a walk of every tree for them cost each recursive command): a folder walked
    // is judged by the state folders each Threadline lists where it starts (pass 85 H1).
    const stateFolders = new Set([...(this.opts.protectedPaths ?? []), ...(this.opts.stateFolders?.() ?? [])].map((p) => realLocation(resolve(p))));
    out.deny.push(...this.parsed([...[...stateFolders].map((p) => `Read(/${p}/**/checkpoints/**)`), ...ANY_CHECKPOINT_COPIES], CHECKPOINT_COPIES));
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
    if (projectMayAllow(r)) return true;
    this.warnOnce(`${r.source} in ${r.origin} is ignored: a project file may not allow paths outside the project`);
    return false;
  }

  /** Whether a file rule asks before the call (an ask rule on Read of that file): what includes and indirect reads hold to as well. */
  askedByRule(call: { tool: Tool; input: unknown }): boolean {
    const c = this.collect();
    const touched = touchedPaths(call.tool, call.input, this.opts.cwd);
    return c.ask.some((r) => ruleMatches(r, call.tool, call.input, this.opts.cwd, 'ask', this.bash, this.ctx(), touched));
  }

  deniedOutright(call: { tool: Tool; input: unknown }): boolean {
    return oneDecision(() => this.rawDecide(call, this.collect())).behavior === 'deny';
  }

  /** A Bash command decided before `ready()` resolves asks, saying so. */
  decide(call: { tool: Tool; input: unknown }): PermissionVerdict {
    const collected = this.collect();
    const verdict = oneDecision(() => this.rawDecide(call, collected));
    if (verdict.behavior !== 'ask') return { behavior: verdict.behavior, reason: verdict.reason };
    const refuse = (because: string) => refusal(verdict, { tool: call.tool, command: bashCommand(call.input) }, because, { label: this.label(), headless: Boolean(this.opts.headless), paths: this.ctx() });
    if (this.opts.headless) return { behavior: 'deny', reason: refuse('a headless run cannot ask') };
    if (collected.mode?.mode === 'dontAsk') return { behavior: 'deny', reason: refuse(`defaultMode "dontAsk" in ${collected.mode.source} refuses what would ask`) };
    return { behavior: 'ask', reason: verdict.reason };
  }

  private rawDecide({ tool, input }: { tool: Tool; input: unknown }, c: Collected): Verdict {
    const { cwd } = this.opts;
    const ctx = this.ctx();
    // An MCP server's read-only hint is its own claim: its tools are decided by rules alone.
    const readOnly = !tool.traits.mcp && safeReadOnly(tool, input);
    if (!readOnly && this.restricted()) {
      return { behavior: 'deny', reason: `${tool.name} is not available in Restricted Mode: trust this folder to let Threadline edit files or run commands.` };
    }
    const isFile = isFileTool(tool);
    const touched = isFile ? touchedPaths(tool, input, cwd) : [];
    const match = (list: readonly ParsedRule[], mode: RuleMode) => list.find((r) => ruleMatches(r, tool, input, cwd, mode, this.bash, ctx, touched));
    // The Bash checker hands back the rules it was given, so their origin is still on them.
    const from = (r: object) => ('origin' in r && typeof r.origin === 'string' ? ` (${r.origin})` : '');
    const denied = match(c.deny, 'deny');
    if (denied) return { behavior: 'deny', reason: `Denied by the rule ${denied.source}${from(denied)}.` };
    // An edit that finds its text is a read by success or failure: one guess a character read a file back (pass 46 F1).
    const readRule = (mode: 'deny' | 'ask') => (tool.traits.matchesText ? c[mode].find((r) => READ_RULES.has(r.tool) && r.pattern !== undefined && touched.some((t) => patternMatches(r, t.real, mode, ctx) || patternMatches(r, t.lexical, mode, ctx))) : undefined);
    const unreadable = readRule('deny');
    if (unreadable) return { behavior: 'deny', reason: `Denied by the rule ${unreadable.source}${from(unreadable)}: ${tool.name} finds its text in the file, which tells what the file holds.` };
    // Write over a file a Read rule denies: whether it can (a non-UTF-8 file refuses non-ASCII text) tells of the text (pass 64 L2, 88 L1, 97 L1).
    const replaced = tool.traits.writesFiles && !tool.traits.matchesText && !tool.traits.runsCommands ? touched.filter((t) => existsSync(t.real)) : [];
    const hidden = replaced.length ? c.deny.find((r) => READ_RULES.has(r.tool) && r.pattern !== undefined && replaced.some((t) => patternMatches(r, t.real, 'deny', ctx) || patternMatches(r, t.lexical, 'deny', ctx))) : undefined;
    if (hidden) return { behavior: 'deny', reason: `Denied by the rule ${hidden.source}${from(hidden)}: ${tool.name} would replace a file you may not read, and whether it can tells something of what the file holds.` };
    const askedRead = readRule('ask');
    if (askedRead) return { behavior: 'ask', reason: `The rule ${askedRead.source}${from(askedRead)} asks first: ${tool.name} finds its text in the file, which tells what the file holds.`, why: { kind: 'askRule', rule: askedRead } };
    const own = touched.find((t) => isOwnProcessPath(t.lexical, 'agent') || isOwnProcessPath(t.real, 'agent'));
    if (own) return { behavior: 'deny', reason: ownProcessRefusal(own.lexical) };
    const analysis = tool.traits.runsCommands ? this.bash.analyze(bashCommand(input)) : undefined;
    const ownInCommand = analysis && !('unavailable' in analysis) ? ownProcessFinding(analysis, bashCommand(input), { ...ctx, env: process.env }) : undefined;
    if (ownInCommand) {
      // Both ask: a deny rule that may apply says more about what the command may run.
      const unsure = ownInCommand.behavior === 'ask' ? this.bash.matchedBy([...c.deny, ...c.ask].filter((r) => r.tool === tool.name), bashCommand(input)) : undefined;
      if (unsure) return { behavior: 'ask', reason: `The rule ${unsure.rule.source}${from(unsure.rule)} may apply: ${unsure.why ?? 'it cannot be checked'}.`, why: { kind: 'default' } };
      return { behavior: ownInCommand.behavior, reason: ownInCommand.reason, why: { kind: 'default' } };
    }
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
      // The script as parsed, where a rule allows it: what every check below judges.
      const parsed = 'rules' in allowed && analysis && !('unavailable' in analysis) ? analysis : undefined;
      const untrusted = !this.opts.trusted();
      const patterned = 'rules' in allowed ? allowed.patterned : [];
      // A rule naming a command lets it touch files inside the workspace (reads: and added folders) only.
      // Untrusted, every command is held to the workspace, Bash itself and exact rules too: the model
      // could otherwise plant what runs the folder's code later (`>> ~/.gitconfig` an alias, pass 41 G3).
      const outside = parsed ? outsideFinding(parsed, untrusted ? parsed.commands : patterned, this.pathScope(c)) : undefined;
      if (outside?.behavior === 'deny') return { behavior: 'deny', reason: outside.reason };
      if (outside) return { behavior: 'ask', reason: outside.reason, why: { kind: 'bashFile', write: Boolean(outside.write), ...(outside.path ? { path: outside.path } : {}) } };
      // Bash as a whole and exact rules judge no file for being outside, but the file deny rules hold.
      // Your own file rules turn on the stricter reading of Bash; the rule on checkpoint copies alone
      // does not (copies of denied files exist only where you have such rules).
      const fileDenies = [...c.deny, ...c.ask].some((r) => r.pattern !== undefined && r.origin !== CHECKPOINT_COPIES && (READ_RULES.has(r.tool) || WRITE_RULES.has(r.tool)));
      const denied = fileDenies && parsed ? deniedFilesFinding(parsed, this.pathScope(c), bashCommand(input)) : undefined;
      if (denied?.behavior === 'deny') return { behavior: 'deny', reason: denied.reason };
      if (denied) return { behavior: 'ask', reason: denied.reason, why: { kind: 'bashFile', write: Boolean(denied.write), ...(denied.path ? { path: denied.path } : {}) } };
      // An untrusted folder's files may steer what the rule allows (bash/untrustedFolder.ts).
      const steered = parsed && untrusted ? programTakingFromFolder(parsed) : undefined;
      if (steered) return { behavior: 'ask', reason: `This folder is not trusted, and ${steered} may take settings or code from the folder it runs in.`, why: { kind: 'untrusted' } };
      const hazard = parsed && untrusted ? untrustedHazard(parsed) : undefined;
      if (hazard) return { behavior: 'ask', reason: `This folder is not trusted, and the command has ${hazard}, which no rule covers here.`, why: { kind: 'untrusted' } };
      const machine = parsed && untrusted ? changesMachine(parsed) : undefined;
      if (machine) return { behavior: 'ask', reason: `This folder is not trusted, and the command runs ${machine}, which no rule covers here.`, why: { kind: 'untrusted' } };
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

  /** Where a Bash command allowed by a rule naming it may read and write files. */
  private pathScope(c: Collected): PathScope {
    const ctx = this.ctx();
    const cwd = resolve(this.opts.cwd);
    const fileRules = (list: readonly ParsedRule[], write: boolean) => list.filter((r) => r.pattern !== undefined && (write ? WRITE_RULES : READ_RULES).has(r.tool));
    const fileDeny = (write: boolean) => fileRules(c.deny, write);
    const fileAsk = (write: boolean) => fileRules(c.ask, write);
    return {
      cwd,
      home: ctx.home,
      env: process.env,
      readRoots: [cwd, ...c.dirs.map((d) => d.dir)],
      writeRoots: [cwd],
      protectedDir: (abs, real) => this.protectedDir({ lexical: resolve(abs), real }),
      deniedBy: (real, write) => fileDeny(write).find((r) => patternMatches(r, real, 'deny', ctx))?.source,
      askedBy: (real, write) => fileAsk(write).find((r) => patternMatches(r, real, 'ask', ctx))?.source,
      // A rule whose folder lies inside the one given, or one that matches at any depth below a folder
      // holding the one given (`.env`, `**/.env`, `*.pem`): `grep -r x packages` reads packages/api/.env (pass 46 F2).
      deniedInside: (folder, write = false, only) => {
        // The layout rules on checkpoint copies judge files named, not folders walked: a walk of every tree for them cost each recursive command.
        const rules = [...fileDeny(write), ...fileAsk(write)].filter((r) => !r.exact && !ANY_CHECKPOINT_COPIES.has(r.source));
        const reaching: ParsedRule[] = [];
        for (const r of rules) {
          const pattern = parsePathPattern(r.pattern!, ctx, r.root);
          const base = patternBase(pattern);
          // With `only`, a rule inside is looked for among the files it accepts, as one reaching in is.
          if (under(folder, base) !== undefined) {
            if (!only || write) return r.source;
            reaching.push(r);
            // Such a rule matches below any folder, as Read and `cat` judge it: an added folder or any
            // other (`grep -r x DIR`, `rm -r DIR`, pass 76 C1, M1); the look below tells whether one is there.
          } else if (anyDepth(pattern)) reaching.push(r);
        }
        // A write may bring the name in; a read reaches only what is there, looked for within a
        // bound, once for all the rules (200 of a clone's own, each walking, held a grep 333 s: pass 48 F2).
        if (!reaching.length) return undefined;
        if (write) return reaching[0]!.source;
        let hit: ParsedRule | undefined;
        // Entries times rules, bounded: past it the folder counts as holding such a file (it asks).
        let checks = MAX_RULE_CHECKS;
        const tests = reaching.map((r) => ({ r, test: patternTester(r, c.ask.includes(r) ? 'ask' : 'deny', ctx) }));
        const found = deniedEntryInside(folder, (p) => (only !== undefined && !only(basename(p)) ? false : (checks -= reaching.length) < 0 || (hit = tests.find((t) => t.test(p))?.r) !== undefined));
        return found === undefined ? undefined : (hit ?? reaching[0]!).source;
      },
    };
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
      // By any case: `.GIT/hooks` is `.git/hooks` on a file system that folds case (pass 40 K1).
      const hit = segments.find((s) => PROTECTED_DIRS.includes(s.toLowerCase()));
      if (hit) return `${hit}/`;
    }
    return undefined;
  }

  /**
   * "Allow for this session": a command is granted exactly; file edits inside the workspace are
   * granted as an Edit rule, which covers every tool that edits files (allowing a Write then
   * covers the next Edit, as the reference's "allow all edits during this session" does); a path
   * outside the workspace is granted for that real path only. `sessionGrant` says the same in words.
   */
  grantForSession({ tool, input }: { tool: Tool; input: unknown }): void {
    const scope = this.sessionScope(tool, input);
    if (scope.kind === 'command') {
      // Exactly this command; it is compared by its parsed form, so only a respelling of it matches.
      if (scope.command) this.grants.push({ tool: tool.name, pattern: scope.command, exact: true, source: `${tool.name}(${scope.command}) for this session` });
      return;
    }
    if (scope.kind === 'tool') {
      this.grants.push({ tool: scope.rule, pattern: undefined, source: `${scope.rule} for this session` });
      return;
    }
    for (const real of scope.paths) this.grants.push({ tool: tool.name, pattern: real, exact: true, source: `${tool.name}(${real}) for this session` });
  }

  /** What "Allow for this session" would cover for this call: a short label for the button and a sentence. */
  sessionGrant({ tool, input }: { tool: Tool; input: unknown }): { label: string; scope: string } {
    const scope = this.sessionScope(tool, input);
    if (scope.kind === 'command') return { label: 'Allow this command for this session', scope: `This exact command runs without asking until the session ends; other commands still ask.` };
    if (scope.kind === 'tool') {
      return scope.rule === 'Edit'
        ? { label: 'Allow all edits for this session', scope: 'Every file edit in this workspace (Write and Edit) runs without asking until the session ends; commands still ask.' }
        : { label: `Allow ${tool.name} for this session`, scope: `Every ${tool.name} call in this workspace runs without asking until the session ends.` };
    }
    return { label: `Allow ${tool.name} there for this session`, scope: `${tool.name} of ${scope.paths.join(', ')} runs without asking until the session ends; other paths outside the workspace still ask.` };
  }

  private sessionScope(tool: Tool, input: unknown): { kind: 'command'; command: string } | { kind: 'tool'; rule: string } | { kind: 'paths'; paths: string[] } {
    if (tool.traits.runsCommands) return { kind: 'command', command: bashCommand(input).trim() };
    const outside = touchedPaths(tool, input, this.opts.cwd).filter((t) => under(this.ctx().cwd, t.real) === undefined);
    if (outside.length === 0) return { kind: 'tool', rule: tool.traits.writesFiles ? 'Edit' : tool.name };
    return { kind: 'paths', paths: outside.map((t) => t.real) };
  }

  /**
   * "Allow this server": every tool of the call's MCP server runs without asking, from now on in
   * this session and, through the host, in this folder (not in the user's settings: a rule names
   * a server by its name, and another folder's server of that name is not the one allowed).
   */
  grantServer({ tool }: { tool: Tool; input: unknown }): void {
    const rule = serverRule(tool);
    if (!rule) return;
    this.grants.push({ tool: rule, pattern: undefined, source: `${rule} (allowed for this server)` });
    void this.opts.saveServerRule?.(rule).catch((err: unknown) => this.warnOnce(`could not remember ${rule} for this folder: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Whether a read of this real path would run without asking (workspace, added folders, rules). */
  readable(real: string): boolean {
    return this.readableIn(this.collect(), real);
  }

  private readableIn(c: Collected, real: string): boolean {
    const ctx = this.ctx();
    if (isOwnProcessPath(real, 'agent')) return false;
    if (c.deny.some((r) => READ_RULES.has(r.tool) && (r.pattern === undefined || patternMatches(r, real, 'deny', ctx)))) return false;
    // A search cannot ask file by file: a file a Read ask rule covers is left out too (pass 49 G4).
    if (c.ask.some((r) => READ_RULES.has(r.tool) && r.pattern !== undefined && patternMatches(r, real, 'ask', ctx))) return false;
    if (under(ctx.cwd, real) !== undefined || c.dirs.some((d) => under(d.dir, real) !== undefined)) return true;
    return [...c.allow, ...this.grants].some((r) => READ_RULES.has(r.tool) && r.pattern !== undefined && patternMatches(r, real, 'allow', ctx));
  }

  /**
   * SearchScope: a file Grep or Glob found may be shown unless a read rule denies it or it leads
   * out of every allowed place. The rule sources are read once for the whole search (a search
   * finds thousands of files; reading them per file cost more than the walk).
   */
  forSearch(): SearchFilter {
    const c = this.collect();
    const held = this.withheldBy(c);
    const show = (real: string, realRoot: string, spelled?: string) => {
      if (isOwnProcessPath(real, 'agent')) return false;
      if (held(real, spelled)) return false;
      return under(realRoot, real) !== undefined || this.readableIn(c, real);
    };
    return Object.assign(show, { withheld: held });
  }

  /**
   * A search cannot ask file by file: a file a Read ask rule covers is left out as a denied one
   * is, inside the search's root too (pass 52 H1; 49 G4 had held only outside it). Each rule is
   * compiled once for the whole search (pass 52 M1).
   */
  private withheldBy(c: Collected): (real: string, spelled?: string) => boolean {
    const ctx = this.ctx();
    const tests = [
      ...c.deny.filter((r) => READ_RULES.has(r.tool) && r.pattern !== undefined).map((r) => patternTester(r, 'deny', ctx)),
      ...c.ask.filter((r) => READ_RULES.has(r.tool) && r.pattern !== undefined).map((r) => patternTester(r, 'ask', ctx)),
    ];
    const held = (p: string) => tests.some((t) => t(p));
    return (real, spelled) => held(real) || (spelled !== undefined && held(resolve(spelled)));
  }

  /** One found file, judged on the rules as they are now. */
  mayShow(real: string, realRoot: string): boolean {
    return this.forSearch()(real, realRoot);
  }

  /**
   * The permission check of a background agent (memory extraction, session notes): nothing in
   * Restricted Mode; its own check first; then file tools only, writes only inside its own
   * `roots`, reads there or where the main agent could read without asking. Deny rules hold.
   */
  boundedCheck(roots: readonly string[], own: (tool: Tool, input: unknown) => PermissionOutcome): (tool: Tool, input: unknown) => PermissionOutcome {
    return (tool, input) => {
      if (this.restricted()) return { allowed: false, reason: 'Background agents do nothing in Restricted Mode.' };
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

  /** Every rule in force, and the grants withheld because the folder is not trusted, with the file or flag each came from. */
  describeRules(): { rules: DescribedRule[]; directories: Array<{ dir: string; source: string }>; defaultMode?: { mode: string; source: string }; withheld: WithheldGrant[] } {
    const own = this.opts.rules();
    const sources: RuleSource[] = [{ label: this.label(), ...own }, ...(this.opts.sources?.() ?? [])];
    const c = this.collect();
    const trusted = this.opts.trusted();
    return { rules: describeSources(sources, trusted), directories: c.dirs, ...(c.mode ? { defaultMode: c.mode } : {}), withheld: withheldGrants(sources, trusted) };
  }
}

/** Rules that speak for reading a file, whatever tool found it (a search's results). */
const READ_RULES = new Set(['Read', 'Grep', 'Glob']);
const WRITE_RULES = new Set(['Edit', 'Write']);

/** Pattern checks one look into a folder may make (entries times the rules that reach it). */
const MAX_RULE_CHECKS = 100_000;

/**
 * A pattern that may match below its base in folders other than the one it spells: a name without
 * `/` (`.env`), `**`, or any wildcard in a folder part (`packages/*\/.env`, `{api,web}/.env`, pass 49 G5).
 * The bounded look for matching files (deniedEntryInside) then decides.
 */
function anyDepth(p: ReturnType<typeof parsePathPattern>): boolean {
  return (p.kind === 'relative' && !p.glob.replace(/^\.\//, '').includes('/')) || /[*?[{]/.test(p.glob);
}

function safeReadOnly(tool: Tool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input);
  } catch {
    return false;
  }
}
