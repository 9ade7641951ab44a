// What a folder's own settings may do. They may hold the agent back at any time (deny and ask
// rules, the plan and dontAsk modes); they may let it do more (allow rules, acceptEdits, added
// folders, MCP servers) only in a folder the user trusts. A cloned repository is hostile until
// then: its `.claude/settings.json` could otherwise allow itself Bash. This module is the one
// place that draws the line; the permission engine, `threadline context`, the CLI's notice and
// MCP ask it.
import { printable } from '../base/printable';
import { parseRule, type ParsedRule } from './rules';

export type RuleBehavior = 'allow' | 'ask' | 'deny';

export interface RuleSource {
  /** Shown with every rule and denial: "~/.claude/settings.json", "--allowed-tools". */
  label: string;
  /** What a `/path` pattern is relative to (default: the workspace). */
  root?: string;
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
  additionalDirectories?: readonly string[];
  defaultMode?: string;
  /** A file the folder itself provides: it restricts always, and grants only when the folder is trusted. */
  project?: boolean;
  /** A project file read through a link (`.claude -> src/cfg`): it restricts only, as if untrusted. */
  linked?: boolean;
}

/** Modes that let nothing more run than the default does; any other (acceptEdits, a typo) is a grant. */
const RESTRICTING_MODES = new Set(['default', 'plan', 'dontAsk']);

/** Rules that read or write files, which a project file may never point outside the project. */
const FILE_RULES = new Set(['Read', 'Grep', 'Glob', 'Edit', 'Write']);

/**
 * Whether an allow rule from a project file can ever apply: one that names a path outside the
 * project (`//…`, `~…`, `..`; for Bash, in any argument) cannot, trusted or not. Trusting a folder should not hand it ~/.ssh.
 */
export function projectMayAllow(rule: Pick<ParsedRule, 'tool' | 'pattern'>): boolean {
  if (rule.pattern === undefined) return true;
  const p = rule.pattern.trim();
  if (FILE_RULES.has(rule.tool)) return !p.startsWith('//') && !p.startsWith('~') && !p.split('/').includes('..');
  // A Bash rule's arguments too (`Bash(cat ~/.ssh/id_rsa)`, `Bash(cat ../../x)`, pass 51 N2): any
  // word, or value glued to an option, that is a path from the root, the home folder or above.
  if (rule.tool === 'Bash') return !p.split(/\s+/).slice(1).some((w) => /(^|=)(\/|~)/.test(w) || w.split(/[/=]/).includes('..'));
  return true;
}

/**
 * The part of a source that applies: all of it, unless it is a project file and the folder is
 * not trusted; then only what restricts (deny, ask, a mode that is not a grant).
 */
export function applicablePart(s: RuleSource, trusted: boolean): RuleSource {
  // A project file reached through a link grants nothing, trusted or not (pass 81 C1).
  if (!s.project || (trusted && !s.linked)) return s;
  const out: RuleSource = { label: s.label, project: true };
  if (s.root !== undefined) out.root = s.root;
  if (s.deny) out.deny = s.deny;
  if (s.ask) out.ask = s.ask;
  if (s.defaultMode !== undefined && RESTRICTING_MODES.has(s.defaultMode)) out.defaultMode = s.defaultMode;
  return out;
}

/** One thing a project file would grant, held back because the folder is not trusted. */
export interface WithheldGrant {
  /** The file: ".claude/settings.json", ".mcp.json". */
  source: string;
  /** What it would grant, as a person reads it: "allow Bash", "defaultMode acceptEdits", "MCP server db". */
  grant: string;
}

/** What trusting the folder would add from these sources (nothing when it is trusted). */
export function withheldGrants(sources: readonly RuleSource[], trusted: boolean): WithheldGrant[] {
  if (trusted) return [];
  const out: WithheldGrant[] = [];
  for (const s of sources) {
    if (!s.project) continue;
    for (const rule of s.allow ?? []) {
      let parsed;
      try {
        parsed = parseRule(rule);
      } catch {
        continue;
      }
      if (projectMayAllow(parsed)) out.push({ source: s.label, grant: `allow ${rule}` });
    }
    // bypassPermissions is honoured nowhere, so trust would not apply it either.
    if (s.defaultMode === 'acceptEdits') out.push({ source: s.label, grant: `defaultMode ${s.defaultMode}` });
  }
  return out;
}

/** "from .claude/settings.json: allow Bash, defaultMode acceptEdits; from .mcp.json: MCP server db", printable. */
export function describeWithheld(withheld: readonly WithheldGrant[]): string {
  const bySource = new Map<string, string[]>();
  for (const w of withheld) bySource.set(w.source, [...(bySource.get(w.source) ?? []), w.grant]);
  return [...bySource].map(([source, grants]) => printable(`from ${source}: ${grants.join(', ')}`)).join('; ');
}
