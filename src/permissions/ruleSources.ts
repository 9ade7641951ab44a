// Where permission rules come from: Threadline's own user settings or CLI flags, and Claude Code's
// settings files, read the way Claude Code reads them so that its users' rules carry over.
import { realLocation } from '../fs/paths';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { parseJsonText } from '../fs/jsonText';
import { readCappedSync } from '../fs/read';
import { printable } from '../base/printable';
import { applicablePart, type RuleBehavior, type RuleSource, type WithheldGrant } from './projectTrust';

export type { RuleBehavior, RuleSource } from './projectTrust';

export interface DescribedRule {
  behavior: RuleBehavior;
  rule: string;
  source: string;
  /** false: a grant from a project file, and the folder is not trusted. */
  active: boolean;
}

const MAX_SETTINGS_BYTES = 1024 * 1024;
/**
 * Entries read from one list of one file. Each path rule is two compiled globs, checked for every
 * path a decision meets: a clone's 12,000 deny rules (675 KB) froze every Glob for 80 s, as the
 * glob cache could not hold them and each was compiled again per path.
 */
export const MAX_RULES = 500;
/** The same for a workspace's own files, which a clone writes: 2,000 long rules cost 26 s to compile (pass 36 B1). */
export const MAX_PROJECT_RULES = 200;

/** The `permissions` object of one settings file; undefined when there is none to read. */
function readPermissions(file: string, warn: (message: string) => void, maxRules = MAX_RULES): Omit<RuleSource, 'label'> | undefined {
  // A FIFO or a device named settings.json would block the read: regular files only.
  const read = readCappedSync(file, { maxBytes: MAX_SETTINGS_BYTES });
  if (!read.ok) {
    if (read.reason === 'folder' || read.reason === 'not-regular') warn(`${file} is not a regular file; its rules are ignored`);
    return undefined;
  }
  if (read.capped) {
    warn(`${file} is larger than 1 MB; its rules are ignored`);
    return undefined;
  }
  // The shared reader: a byte order mark is allowed, nesting is bounded, and its message never quotes the file (linked to a secret, it would show part of it).
  const parsed = parseJsonText(read.bytes.toString('utf8'));
  if (!parsed.ok) {
    warn(`${file} is ${parsed.message}; its rules are ignored`);
    return undefined;
  }
  const json = parsed.value;
  const perms = typeof json === 'object' && json !== null ? (json as { permissions?: unknown }).permissions : undefined;
  if (perms === undefined) return {};
  if (typeof perms !== 'object' || perms === null || Array.isArray(perms)) {
    warn(`"permissions" in ${file} is not an object; ignored`);
    return undefined;
  }
  const p = perms as Record<string, unknown>;
  const list = (key: string): string[] | undefined => {
    const v = p[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
      warn(`"permissions.${key}" in ${file} is not a list of strings; ignored`);
      return undefined;
    }
    if (v.length > maxRules) {
      warn(`"permissions.${key}" in ${file} holds ${v.length} entries; only the first ${maxRules} are read`);
      return (v as string[]).slice(0, maxRules);
    }
    return v as string[];
  };
  const out: Omit<RuleSource, 'label'> = {};
  for (const key of ['allow', 'ask', 'deny', 'additionalDirectories'] as const) {
    const v = list(key);
    if (v) out[key] = v;
  }
  if (typeof p.defaultMode === 'string') out.defaultMode = p.defaultMode;
  return out;
}

export interface ClaudeSettingsOptions {
  /** The workspace folder: its `.claude/` holds the project and local files. */
  cwd: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Managed (enterprise) settings; default /etc/claude-code/managed-settings.json on Linux. */
  managedFile?: string;
  warn?(message: string): void;
}

/**
 * Claude Code's settings files, highest precedence first: managed, local project
 * (`.claude/settings.local.json`), project (`.claude/settings.json`), user
 * (`$CLAUDE_CONFIG_DIR` or `~/.claude`, `settings.json`). Rule lists merge across all of them;
 * a single value (defaultMode) comes from the highest file that sets it.
 */
export function readClaudeSettings(opts: ClaudeSettingsOptions): RuleSource[] {
  const home = opts.home ?? homedir();
  const env = opts.env ?? process.env;
  const warn = opts.warn ?? (() => undefined);
  const userDir = env.CLAUDE_CONFIG_DIR && isAbsolute(env.CLAUDE_CONFIG_DIR) ? env.CLAUDE_CONFIG_DIR : join(home, '.claude');
  const managed = opts.managedFile ?? (process.platform === 'linux' ? '/etc/claude-code/managed-settings.json' : undefined);
  const files: Array<{ file: string; label: string; project: boolean }> = [
    ...(managed ? [{ file: managed, label: managed, project: false }] : []),
    { file: join(opts.cwd, '.claude', 'settings.local.json'), label: '.claude/settings.local.json', project: true },
    { file: join(opts.cwd, '.claude', 'settings.json'), label: '.claude/settings.json', project: true },
    { file: join(userDir, 'settings.json'), label: userDir === join(home, '.claude') ? '~/.claude/settings.json' : join(userDir, 'settings.json'), project: false },
  ];
  const out: RuleSource[] = [];
  for (const f of files) {
    const read = readPermissions(f.file, warn, f.project ? MAX_PROJECT_RULES : MAX_RULES);
    if (!read) continue;
    // A project file reached through a link (`.claude -> src/cfg`, checked out by a pull, pass 81 C1)
    // is text someone else chose where to keep: it may restrict, never grant.
    const linked = f.project && realLocation(f.file) !== join(realLocation(opts.cwd), '.claude', basename(f.file));
    if (linked && (read.allow?.length || read.defaultMode || read.additionalDirectories?.length)) warn(`${f.label} is reached through a link; only its deny and ask rules apply`);
    const perms = linked ? { ...read, linked: true } : read;
    const dirs = perms.additionalDirectories?.map((d) => (d === '~' || d.startsWith('~/') ? join(home, d.slice(1)) : resolve(opts.cwd, d)));
    out.push({ ...perms, ...(dirs ? { additionalDirectories: dirs } : {}), label: f.label, root: opts.cwd, ...(f.project ? { project: true } : {}) });
  }
  return out;
}

/** Every rule of every source, in evaluation order (deny, ask, allow), with where it came from. */
export function describeSources(sources: readonly RuleSource[], trusted: boolean): DescribedRule[] {
  const out: DescribedRule[] = [];
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    for (const s of sources) {
      const applied = applicablePart(s, trusted)[behavior] ?? [];
      for (const rule of s[behavior] ?? []) out.push({ behavior, rule, source: s.label, active: applied.includes(rule) });
    }
  }
  return out;
}

/** The allow rules that apply (a project file's only while the folder is trusted), with where each is written. */
export function activeAllowRules(sources: readonly RuleSource[], trusted: boolean): Array<{ rule: string; source: string }> {
  return describeSources(sources, trusted)
    .filter((r) => r.behavior === 'allow' && r.active)
    .map((r) => ({ rule: r.rule, source: r.source }));
}

const NOT_TRUSTED = ' (not applied: the folder is not trusted)';

/** The rule list as lines for `threadline context` and Show Context; rules come from files, so they are made printable. */
export function formatRules(rules: readonly DescribedRule[], dirs: readonly { dir: string; source: string }[] = [], withheld: readonly WithheldGrant[] = []): string {
  const modes = withheld.filter((w) => w.grant.startsWith('defaultMode '));
  if (!rules.length && !dirs.length && !modes.length) return 'Permission rules: none (reads inside the workspace run; edits, commands and anything outside ask).';
  const lines = ['Permission rules (deny beats ask beats allow):'];
  for (const r of rules) lines.push(printable(`  ${r.behavior.padEnd(5)} ${r.rule}  — ${r.source}${r.active ? '' : NOT_TRUSTED}`));
  for (const d of dirs) lines.push(printable(`  folder ${d.dir}  — ${d.source}`));
  for (const m of modes) lines.push(printable(`  ${m.grant}  — ${m.source}${NOT_TRUSTED}`));
  return lines.join('\n');
}
