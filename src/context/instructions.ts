import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import matter from 'gray-matter';
import { Lexer, type Token } from 'marked';
import { globToRegExp } from '../tools/glob';
import { isWithin } from '../tools/paths';

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

export const MAX_INCLUDE_DEPTH = 5;
const MAX_FILE_BYTES = 512 * 1024;

export type SkipReason = 'missing' | 'cycle' | 'depth-cap' | 'external-not-approved' | 'untrusted-workspace' | 'unreadable' | 'binary';

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
  includedFrom?: string;
  tokensEstimate?: number;
  /** Something the user should know about an included file (capped, broken frontmatter). */
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
  /** The repository root (project files are read from here down to cwd); defaults to cwd. */
  projectRoot?: string;
  home?: string;
  /** Machine-wide file; undefined skips it. */
  managedPath?: string;
  /** Workspace Trust: an untrusted folder contributes no project or local files. */
  trusted?: boolean;
  /**
   * An @include outside the project (and outside ~/.claude) needs the user's approval, once.
   * The CLI passes a function that says no (and reports it).
   */
  approveExternal?(path: string, from: string): Promise<boolean>;
}

export const DEFAULT_MANAGED_PATH = process.platform === 'darwin' ? '/Library/Application Support/ClaudeCode/CLAUDE.md' : '/etc/claude-code/CLAUDE.md';

/** Strips frontmatter (keeping `paths:`) and block-level HTML comments outside code. */
export function parseInstructionContent(raw: string): { body: string; globs: string[] | undefined; warning?: string } {
  let body = raw;
  let globs: string[] | undefined;
  let warning: string | undefined;
  if (/^---\r?\n/.test(raw)) {
    try {
      const fm = matter(raw);
      body = fm.content;
      const paths: unknown = fm.data.paths;
      const list = typeof paths === 'string' ? paths.split(',') : Array.isArray(paths) ? paths : [];
      const clean = list.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter(Boolean);
      if (clean.length) globs = clean;
    } catch (e) {
      // Broken frontmatter: keep the file as written rather than lose its instructions.
      warning = `frontmatter could not be parsed (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the file is used as written`;
    }
  }
  const tokens = new Lexer({ gfm: true }).lex(body);
  const kept = tokens.filter((t) => !(t.type === 'html' && (t as { block?: boolean }).block !== false && /^\s*<!--[\s\S]*-->\s*$/.test(t.raw)));
  if (kept.length !== tokens.length) body = kept.map((t) => t.raw).join('').replace(/\n{3,}/g, '\n\n');
  return { body: body.trim(), globs, ...(warning ? { warning } : {}) };
}

const INCLUDE = /(?:^|[\s(])@((?:~\/|\.{1,2}\/|\/)?[^\s`"'<>()[\]]+)/g;

/** `@path` references in prose: never inside fenced or inline code. */
export function extractIncludes(markdown: string): string[] {
  const found: string[] = [];
  const scan = (text: string) => {
    for (const m of text.matchAll(INCLUDE)) {
      const p = m[1]!.replace(/[.,;:!?]+$/, '');
      // An e-mail address or a decorator is not an include.
      if (p.includes('@') || !/[./]/.test(p)) continue;
      found.push(p);
    }
  };
  const walk = (tokens: readonly Token[]) => {
    for (const t of tokens) {
      if (t.type === 'code' || t.type === 'codespan' || t.type === 'html') continue;
      const children = (t as { tokens?: Token[] }).tokens;
      const items = (t as { items?: Token[] }).items;
      if (items?.length) walk(items);
      if (children?.length) walk(children);
      else if (t.type === 'text') scan((t as { text: string }).text);
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return [...new Set(found)];
}

function resolveInclude(ref: string, fromFile: string, home: string): string {
  if (ref.startsWith('~/')) return resolve(home, ref.slice(2));
  if (isAbsolute(ref)) return resolve(ref);
  return resolve(dirname(fromFile), ref);
}

type ReadOutcome = { text: string; capped: boolean } | { skip: 'missing' | 'unreadable' | 'binary' };

async function readInstructionFile(p: string): Promise<ReadOutcome> {
  let handle;
  try {
    handle = await fs.open(p, 'r');
  } catch (e) {
    return { skip: (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'missing' : 'unreadable' };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { skip: 'missing' };
    // Read no more than the cap: a 10 MB file must not stall the turn.
    const buf = Buffer.alloc(Math.min(st.size, MAX_FILE_BYTES));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.subarray(0, 8192).includes(0)) return { skip: 'binary' };
    return { text: bytes.toString('utf8'), capped: st.size > MAX_FILE_BYTES };
  } catch {
    return { skip: 'unreadable' };
  } finally {
    await handle.close();
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}

async function listRules(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.md') && (e.isFile() || (e.isSymbolicLink() && (await fs.stat(p).then((st) => st.isFile(), () => false))))) out.push(p);
    }
  };
  await walk(dir);
  return out;
}

/** Directories from the project root down to cwd (cwd last: nearest is highest priority). */
function projectDirs(root: string, cwd: string): string[] {
  if (!isWithin(root, cwd)) return [cwd];
  const dirs = [root];
  const rel = relative(root, cwd);
  if (rel) {
    let cur = root;
    for (const part of rel.split(sep)) {
      cur = join(cur, part);
      dirs.push(cur);
    }
  }
  return dirs;
}

/**
 * Reads the instruction hierarchy, lowest priority first: managed, user, then for each folder
 * from the project root down to cwd its project files (CLAUDE.md, .claude/CLAUDE.md,
 * .claude/rules/**, AGENTS.md) and its local CLAUDE.local.md. Every file considered is in
 * the report, with why it was skipped when it was.
 */
export async function loadInstructions(opts: LoadOptions): Promise<InstructionSet> {
  const home = opts.home ?? homedir();
  const cwd = resolve(opts.cwd);
  const root = resolve(opts.projectRoot ?? cwd);
  const trusted = opts.trusted ?? true;
  const set: InstructionSet = { files: [], conditional: [], report: [] };
  const seen = new Set<string>();

  const add = async (path: string, kind: InstructionKind, depth: number, from: string | undefined, reportMissing: boolean): Promise<void> => {
    const abs = resolve(path);
    // Symlinks: one file is sent once, under the path that led to it first; its includes
    // resolve next to the real file, as Claude Code does.
    const real = await fs.realpath(abs).catch(() => abs);
    if (seen.has(real)) {
      if (from) set.report.push({ path: abs, kind, status: 'skipped', reason: 'cycle', includedFrom: from });
      return;
    }
    // The top file counts as the first level, so at most five files deep in all.
    if (depth >= MAX_INCLUDE_DEPTH) {
      set.report.push({ path: abs, kind, status: 'skipped', reason: 'depth-cap', ...(from ? { includedFrom: from } : {}) });
      return;
    }
    const read = await readInstructionFile(abs);
    if ('skip' in read) {
      if (read.skip !== 'missing' || reportMissing || from) set.report.push({ path: abs, kind, status: 'skipped', reason: read.skip, ...(from ? { includedFrom: from } : {}) });
      return;
    }
    seen.add(real);
    const parsed = parseInstructionContent(read.text);
    const { globs } = parsed;
    let body = parsed.body;
    const warnings = parsed.warning ? [parsed.warning] : [];
    if (read.capped) {
      body += `\n\n(This file is longer than ${MAX_FILE_BYTES / 1024} KB; only its beginning is included.)`;
      warnings.push(`capped at ${MAX_FILE_BYTES / 1024} KB`);
    }
    const warning = warnings.length ? warnings.join('; ') : undefined;
    const isRule = abs.split(sep).includes('rules') && abs.includes(`${sep}.claude${sep}`);
    const file: InstructionFile = { path: abs, kind, content: body, ...(from ? { includedFrom: from } : {}) };
    // A rule's `paths:` globs are relative to the folder that holds its .claude directory.
    if (isRule) file.base = abs.slice(0, abs.lastIndexOf(`${sep}.claude${sep}`)) || sep;
    if (isRule && globs) {
      file.globs = globs;
      set.conditional.push(file);
      set.report.push({ path: abs, kind, status: 'conditional', reason: `applies to ${globs.join(', ')}`, ...(from ? { includedFrom: from } : {}), ...(warning ? { warning } : {}) });
    } else {
      set.files.push(file);
      set.report.push({ path: abs, kind, status: 'included', tokensEstimate: Math.ceil(body.length / 4), ...(from ? { includedFrom: from } : {}), ...(warning ? { warning } : {}) });
    }
    for (const ref of extractIncludes(body)) {
      const target = resolveInclude(ref, real, home);
      // The user's and the machine's own files may include from the user's home; a project
      // file reaching outside the project needs approval (a cloned repository must not be
      // able to pull private files into the prompt).
      const internal = isWithin(root, target) || isWithin(join(home, '.claude'), target) || ((kind === 'user' || kind === 'managed') && isWithin(home, target));
      if (!internal) {
        const ok = (await opts.approveExternal?.(target, abs)) ?? false;
        if (!ok) {
          set.report.push({ path: target, kind, status: 'skipped', reason: 'external-not-approved', includedFrom: abs });
          continue;
        }
      }
      await add(target, kind, depth + 1, abs, true);
    }
  };

  if (opts.managedPath) await add(opts.managedPath, 'managed', 0, undefined, false);
  await add(join(home, '.claude', 'CLAUDE.md'), 'user', 0, undefined, false);
  for (const rule of await listRules(join(home, '.claude', 'rules'))) await add(rule, 'user', 0, undefined, false);

  for (const dir of projectDirs(root, cwd)) {
    const candidates: Array<[string, InstructionKind]> = [
      [join(dir, 'CLAUDE.md'), 'project'],
      [join(dir, '.claude', 'CLAUDE.md'), 'project'],
      ...(await listRules(join(dir, '.claude', 'rules'))).map((p): [string, InstructionKind] => [p, 'project']),
      [join(dir, 'AGENTS.md'), 'project'],
      [join(dir, 'CLAUDE.local.md'), 'local'],
    ];
    for (const [p, kind] of candidates) {
      if (!trusted) {
        if (await exists(p)) set.report.push({ path: p, kind, status: 'skipped', reason: 'untrusted-workspace' });
        continue;
      }
      await add(p, kind, 0, undefined, false);
    }
  }
  return set;
}

/** Conditional rules that apply to a file the agent is reading or editing. */
export function matchingRules(set: InstructionSet, filePath: string, cwd: string): InstructionFile[] {
  const abs = resolve(cwd, filePath);
  return set.conditional.filter((f) => {
    const rel = relative(f.base ?? cwd, abs);
    if (rel.startsWith('..') || isAbsolute(rel)) return false;
    const posix = rel.split(sep).join('/');
    return f.globs!.some((g) => globToRegExp(g).test(posix));
  });
}

export function formatInstructionFile(f: InstructionFile): string {
  return `Contents of ${f.path} (${KIND_LABEL[f.kind]}):\n\n${f.content}`;
}

/** One reminder block: the preamble, then each file under its header. */
export function formatInstructions(files: readonly InstructionFile[]): string | undefined {
  const nonEmpty = files.filter((f) => f.content.trim());
  if (!nonEmpty.length) return undefined;
  return [INSTRUCTIONS_PREAMBLE, ...nonEmpty.map(formatInstructionFile)].join('\n\n');
}
