// Why this file is long: it is the one walk that decides which instruction file is sent, and why
// each other one is not (levels, links, includes, approvals, deny rules, bounds); its files and
// budgets live apart (instructionFs.ts, instructionBudget.ts, instructionContent.ts, rulePaths.ts).
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';
import { estimateTokens } from '../conversation/tokens';
import { relativeWithin, within } from '../fs/paths';
import { applyInstructionBudget, CONDITIONAL_RULE_MAX_TOKENS, INSTRUCTION_BUDGET_TOKENS, trimTo } from './instructionBudget';
import { extractIncludes, parseInstructionContent } from './instructionContent';
import { globsMatch } from './rulePaths';
import { matchBudgetLeft, sharedMatchBudget } from '../fs/gitignore';
import { ahead, exists, FOLDER_FILES, foldersDownTo, listRules, locateAhead, MAX_FILE_BYTES, readInstructionFile, type RulesListing } from './instructionFs';

export { extractIncludes, parseInstructionContent } from './instructionContent';

export type InstructionKind = 'managed' | 'user' | 'project' | 'local';

const KIND_LABEL: Record<InstructionKind, string> = {
  managed: 'managed instructions for everyone on this machine',
  user: "the user's private instructions for all projects",
  project: 'project instructions, checked into the codebase',
  local: "the user's private instructions for this project, not checked in",
};

/** The preamble the seeds quote; Claude Code users' files were written against it. */
export const INSTRUCTIONS_PREAMBLE =
  'Codebase and user instructions are shown below. Be sure to adhere to these instructions. ' +
  'IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';

const MAX_INCLUDE_DEPTH = 5;
/** Include references followed in one load: depth left breadth free, and 600 files each naming all 600 stalled start-up (pass 38 C4). */
const MAX_INCLUDE_REFERENCES = 500;

/** Where the reference CLI looks for machine-wide instructions (its own code names these). */
export function defaultManagedRoot(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

export type SkipReason =
  | 'missing'
  | 'cycle'
  | 'depth-cap'
  | 'includes-capped'
  | 'read-denied'
  | 'external-not-approved'
  | 'untrusted-workspace'
  | 'unreadable'
  | 'binary'
  | 'not-a-file'
  // Rules discovery: a folder linked out of the places its level may read (not entered), or a bound met.
  | 'linked-folder-outside'
  | 'discovery-capped';

export interface InstructionFile {
  path: string;
  kind: InstructionKind;
  content: string;
  /** Set for .claude/rules files with `paths:`: injected only when a matching file is touched. */
  globs?: string[];
  /** The file that pulled this one in with @include. */
  includedFrom?: string;
  /** For rules: the folder their globs are relative to. */
  base?: string;
}

export interface InstructionReport {
  path: string;
  kind: InstructionKind;
  status: 'included' | 'conditional' | 'skipped';
  reason?: SkipReason | string;
  /** Why the file was looked at (or included) at all: which level of the hierarchy it is. */
  why: string;
  includedFrom?: string;
  /** Where a symlinked file or include really is, when that differs from `path`. */
  realPath?: string;
  tokensEstimate?: number;
  /** Something the user should know about a file (trimmed, capped, broken frontmatter). */
  warning?: string;
}

export interface InstructionSet {
  /** Always sent, lowest priority first. */
  files: InstructionFile[];
  /** Sent once a matching file is read or edited. */
  conditional: InstructionFile[];
  report: InstructionReport[];
}

export interface LoadOptions {
  cwd: string;
  /** The repository root (or cwd outside one): files there and below are the project. */
  projectRoot?: string;
  home?: string;
  /** The machine-wide folder (CLAUDE.md and .claude/rules/); null skips it. Default: the platform's. */
  managedRoot?: string | null;
  /** Where the walk up from cwd ends (that folder included). Default: cwd's filesystem root. */
  filesystemRoot?: string;
  /** Workspace Trust: an untrusted folder contributes only the managed and user files. */
  trusted?: boolean;
  /** Total tokens for the files sent with every request; the biggest are trimmed to fit. */
  budgetTokens?: number;
  /**
   * A file that really lies outside the places its level may read (a symlink, an `@~/…` or
   * absolute include) needs the user's approval, asked once per real path. The CLI says no.
   */
  approveExternal?(path: string, from: string): Promise<boolean>;
  /** Whether a Read deny rule covers the file: it is not sent, as an `@.env` include would send it (pass 43 E2). */
  readDenied?(path: string): boolean;
}

/** One level of the hierarchy: where its files may really live without asking. */
interface Scope {
  kind: InstructionKind;
  why: string;
  /** Real folders a file of this level (and its includes) may resolve into freely. */
  roots: string[];
}

function includeTarget(ref: string, fromFile: string, home: string): string {
  if (ref.startsWith('~/')) return resolve(home, ref.slice(2));
  if (isAbsolute(ref)) return resolve(ref);
  return resolve(dirname(fromFile), ref);
}

/**
 * Reads the instruction hierarchy as the reference CLI does, lowest priority first: managed
 * (the machine's CLAUDE.md and .claude/rules/), user (~/.claude/CLAUDE.md and rules/), then for
 * every folder from the filesystem root down to cwd, in or out of a repository: CLAUDE.md,
 * .claude/CLAUDE.md, .claude/rules/**, AGENTS.md, CLAUDE.local.md. Every file considered is in
 * the report with why it was looked at and, when skipped, why.
 */
export async function loadInstructions(opts: LoadOptions): Promise<InstructionSet> {
  const home = resolve(opts.home ?? homedir());
  const cwd = resolve(opts.cwd);
  const projectRoot = resolve(opts.projectRoot ?? cwd);
  const trusted = opts.trusted ?? true;
  const managedRoot = opts.managedRoot === null ? undefined : resolve(opts.managedRoot ?? defaultManagedRoot());
  const stop = resolve(opts.filesystemRoot ?? parse(cwd).root);
  const set: InstructionSet = { files: [], conditional: [], report: [] };
  const seen = new Set<string>();
  const folders = foldersDownTo(cwd, stop);
  const userDir = join(home, '.claude');
  const realpathAhead = locateAhead([projectRoot, home, join(userDir, 'CLAUDE.md'), ...(managedRoot ? [managedRoot, join(managedRoot, 'CLAUDE.md')] : []), ...folders.flatMap((d) => [d, ...FOLDER_FILES.map((n) => join(d, n))])]);
  const real = async (p: string) => (await realpathAhead(p)) ?? resolve(p);
  const realProject = await real(projectRoot);
  const realHome = await real(home);
  // Each folder's rules listing, started now too; its lines join the report in the folder's turn.
  const listings = new Map(folders.map((dir) => [dir, ahead(real(dir).then((r) => listRules(join(dir, '.claude', 'rules'), [realProject, r])))]));
  // Approvals asked during this load, so one file included twice is asked about once.
  const asked = new Map<string, boolean>();

  let includesLeft = MAX_INCLUDE_REFERENCES;
  const add = async (path: string, scope: Scope, depth: number, from: string | undefined): Promise<void> => {
    const abs = resolve(path);
    const at = { path: abs, kind: scope.kind, why: from ? `included by ${from}` : scope.why, ...(from ? { includedFrom: from } : {}) };
    const target = await realpathAhead(abs);
    // The top file counts as the first level, so at most five files deep in all.
    if (depth >= MAX_INCLUDE_DEPTH) {
      set.report.push({ ...at, status: 'skipped', reason: 'depth-cap' });
      return;
    }
    if (!target) {
      // A missing top-level file is the common case and not worth a line; a missing include
      // is, and so is a dangling link where a file was expected.
      if (from || (await exists(abs))) set.report.push({ ...at, status: 'skipped', reason: 'missing' });
      return;
    }
    const realPath = target !== abs ? { realPath: target } : {};
    if (opts.readDenied?.(abs) || opts.readDenied?.(target)) return void set.report.push({ ...at, ...realPath, status: 'skipped', reason: 'read-denied' });
    // Symlinks: one file is sent once, under the path that led to it first.
    if (seen.has(target)) {
      if (from) set.report.push({ ...at, ...realPath, status: 'skipped', reason: 'cycle' });
      return;
    }
    // Judged by where the file really is: a link or include may not pull a private file in.
    if (!scope.roots.some((r) => within(r, target))) {
      let ok = asked.get(target);
      if (ok === undefined) {
        ok = (await opts.approveExternal?.(target, from ?? abs).catch(() => false)) ?? false;
        asked.set(target, ok);
      }
      if (!ok) {
        set.report.push({ ...at, ...realPath, status: 'skipped', reason: 'external-not-approved' });
        return;
      }
    }
    const read = await readInstructionFile(abs);
    if ('skip' in read) {
      if (read.skip !== 'missing' || from) set.report.push({ ...at, ...realPath, status: 'skipped', reason: read.skip });
      return;
    }
    seen.add(target);
    const parsed = parseInstructionContent(read.text);
    const isRule = abs.split(sep).includes('rules') && abs.includes(`${sep}.claude${sep}`) && !from;
    const warnings: string[] = [];
    // As in the reference CLI: frontmatter that cannot be read counts as none, so a rule with it
    // applies everywhere; the report says so.
    if (parsed.markdownProblem) warnings.push(parsed.markdownProblem);
    if (parsed.frontmatterProblem) warnings.push(`${parsed.frontmatterProblem}; it is read as no frontmatter${isRule ? ', so the rule applies everywhere (as in Claude Code)' : ''}`);
    if (isRule && parsed.paths.kind === 'none' && parsed.paths.note) warnings.push(parsed.paths.note);
    let body = parsed.body;
    if (read.capped) {
      body += `\n\n(This file is longer than ${MAX_FILE_BYTES / 1024} KB; only its beginning is included.)`;
      warnings.push(`capped at ${MAX_FILE_BYTES / 1024} KB`);
    }
    const file: InstructionFile = { path: abs, kind: scope.kind, content: body, ...(from ? { includedFrom: from } : {}) };
    // A project rule's `paths:` globs are relative to the folder that holds its .claude directory;
    // a user or managed rule's to the working folder (as in the reference).
    if (isRule && scope.kind === 'project') file.base = abs.slice(0, abs.lastIndexOf(`${sep}.claude${sep}`)) || sep;
    const warning = warnings.length ? { warning: warnings.join('; ') } : {};
    if (isRule && parsed.paths.kind === 'globs') {
      const globs = parsed.paths.globs;
      file.globs = globs;
      if (estimateTokens(file.content) > CONDITIONAL_RULE_MAX_TOKENS) {
        file.content = trimTo(file.content, CONDITIONAL_RULE_MAX_TOKENS, `a conditional rule is sent with at most ${CONDITIONAL_RULE_MAX_TOKENS / 1000}k tokens`);
      }
      set.conditional.push(file);
      set.report.push({ ...at, ...realPath, status: 'conditional', reason: `applies to ${globs.join(', ')}`, ...warning });
    } else {
      set.files.push(file);
      set.report.push({ ...at, ...realPath, status: 'included', tokensEstimate: estimateTokens(body), ...warning });
    }
    for (const ref of extractIncludes(body)) {
      if (--includesLeft < 0) {
        if (includesLeft === -1) set.report.push({ ...at, ...realPath, status: 'skipped', reason: 'includes-capped' });
        break;
      }
      await add(includeTarget(ref, target, home), scope, depth + 1, abs);
    }
  };

  /** The rules under `dir` that its level may read; what discovery left out is reported, one line each. */
  const rulesIn = async (dir: string, scope: Scope, started?: Promise<RulesListing>): Promise<string[]> => {
    const listing = await (started ?? listRules(dir, scope.roots));
    for (const l of listing.left) set.report.push({ ...l, kind: scope.kind, why: scope.why, status: 'skipped' });
    return listing.files;
  };

  if (managedRoot) {
    const managed: Scope = { kind: 'managed', why: `managed: the machine-wide instructions in ${managedRoot}`, roots: [await real(managedRoot), realHome] };
    await add(join(managedRoot, 'CLAUDE.md'), managed, 0, undefined);
    for (const rule of await rulesIn(join(managedRoot, '.claude', 'rules'), managed)) await add(rule, { ...managed, why: `managed rule in ${join(managedRoot, '.claude', 'rules')}` }, 0, undefined);
  }
  const user: Scope = { kind: 'user', why: `user: your instructions for every project (${userDir})`, roots: [realHome] };
  await add(join(userDir, 'CLAUDE.md'), user, 0, undefined);
  for (const rule of await rulesIn(join(userDir, 'rules'), user)) await add(rule, { ...user, why: `user rule in ${join(userDir, 'rules')}` }, 0, undefined);

  for (const dir of folders) {
    const where = dir === cwd ? 'the working folder' : within(projectRoot, dir) ? 'a folder between the repository root and the working folder' : 'a folder above the project (every folder from the filesystem root down is read)';
    const roots = [realProject, await real(dir)];
    const project = (why: string): Scope => ({ kind: 'project', why, roots });
    const rules = await rulesIn(join(dir, '.claude', 'rules'), project(`project rule in ${where}`), listings.get(dir));
    const candidates: Array<[string, Scope]> = [
      [join(dir, 'CLAUDE.md'), project(`project: CLAUDE.md in ${where}`)],
      [join(dir, '.claude', 'CLAUDE.md'), project(`project: .claude/CLAUDE.md in ${where}`)],
      ...rules.map((p): [string, Scope] => [p, project(`project rule in ${where}`)]),
      [join(dir, 'AGENTS.md'), project(`project: AGENTS.md in ${where}`)],
      [join(dir, 'CLAUDE.local.md'), { kind: 'local', why: `local: CLAUDE.local.md in ${where}`, roots }],
    ];
    for (const [p, scope] of candidates) {
      if (!trusted) {
        if (await exists(p)) set.report.push({ path: p, kind: scope.kind, why: scope.why, status: 'skipped', reason: 'untrusted-workspace' });
        continue;
      }
      await add(p, scope, 0, undefined);
    }
  }

  const budget = opts.budgetTokens ?? INSTRUCTION_BUDGET_TOKENS;
  for (const t of applyInstructionBudget(set.files, budget)) {
    const f = set.files[t.index]!;
    const entry = set.report.find((r) => r.status === 'included' && r.path === f.path);
    if (!entry) continue;
    entry.tokensEstimate = t.toTokens;
    const note = `trimmed from about ${t.fromTokens} to ${t.toTokens} tokens: all instruction files together must fit ${budget} tokens`;
    entry.warning = entry.warning ? `${entry.warning}; ${note}` : note;
  }
  return set;
}

/** Conditional rules that apply to a file the agent is reading or editing. */
export function matchingRules(set: InstructionSet, filePath: string, cwd: string): InstructionFile[] {
  const abs = resolve(cwd, filePath);
  // One budget for all rule files: 500 files of costly patterns held each Read for minutes (pass 39 C3).
  return sharedMatchBudget(RULES_MATCH_BUDGET_MS, () =>
    set.conditional.filter((f) => {
      const rel = relativeWithin(f.base ?? cwd, abs);
      if (rel === undefined || !matchBudgetLeft()) return false; // past it, no matcher is even built
      return globsMatch(f.globs!, rel);
    }),
  );
}

const RULES_MATCH_BUDGET_MS = 250; // a real project's rules take a few milliseconds a file

export function formatInstructionFile(f: InstructionFile): string {
  return `Contents of ${f.path} (${KIND_LABEL[f.kind]}):\n\n${f.content}`;
}

/** One reminder block: the preamble, then each file under its header. */
export function formatInstructions(files: readonly InstructionFile[]): string | undefined {
  const nonEmpty = files.filter((f) => f.content.trim());
  if (!nonEmpty.length) return undefined;
  return [INSTRUCTIONS_PREAMBLE, ...nonEmpty.map(formatInstructionFile)].join('\n\n');
}
