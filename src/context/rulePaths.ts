import { ignoreMatcher } from '../fs/gitignore';

// A rule's `paths:` frontmatter read, and matched, the way the reference CLI (Claude Code) does,
// checked form by form against it (test/fixtures/instructions/paths-forms, scripts/
// compareReference.mjs): what it sends up front, Threadline sends up front; what it injects after
// a file is read, Threadline injects.

/** What a rule's `paths:` says: nothing (the rule is sent up front), or the globs it applies to. */
export type PathsField = { kind: 'none'; note?: string } | { kind: 'globs'; globs: string[] };

// The reference's own limits on brace expansion; past them a pattern is used unexpanded.
const MAX_PATTERNS = 1000;
const MAX_BYTES = 4 * 1024 * 1024;
/** Items of `paths:` read (lists and strings), whatever their braces: the frontmatter's own bound is the first. */
const MAX_ITEMS = 1_000;

/**
 * Reads `paths:`. No value, or a false one (`null`, `""`, `0`), or one that yields no glob (an
 * empty list, a number, a mapping), or only `**`: the rule applies everywhere and is sent up front.
 * Strings are split on commas outside braces; lists are read item by item, skipping what is not
 * text; `{a,b}` is expanded; a trailing `/**` is dropped (the matcher takes a folder for all below).
 */
export function readPathsField(data: Record<string, unknown>): PathsField {
  if (!Object.prototype.hasOwnProperty.call(data, 'paths')) return { kind: 'none' };
  const value: unknown = data.paths;
  if (!value) return { kind: 'none', note: 'paths: is empty, so the rule applies everywhere (as in Claude Code)' };
  const budget = { patterns: MAX_PATTERNS, bytes: MAX_BYTES, items: MAX_ITEMS };
  const globs = splitPatterns(value, budget)
    .map((g) => (g.endsWith('/**') ? g.slice(0, -3) : g))
    .filter((g) => g.length > 0);
  if (globs.every((g) => g === '**')) {
    return { kind: 'none', note: globs.length ? undefined : 'paths: names no glob, so the rule applies everywhere (as in Claude Code)' };
  }
  return { kind: 'globs', globs };
}

function splitPatterns(value: unknown, budget: { patterns: number; bytes: number; items: number }): string[] {
  // Each item read counts, braces or not: a list past the budget is read no further.
  if (--budget.items < 0) return [];
  if (Array.isArray(value)) return value.flatMap((v) => splitPatterns(v, budget));
  if (typeof value !== 'string') return [];
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      // Each glob a string holds is an item too: one string of 40,000 of them filled the heap (pass 38 C1).
      if (current.trim() && --budget.items >= 0) parts.push(current.trim());
      current = '';
    } else current += ch;
    if (budget.items < 0) break;
  }
  if (current.trim() && budget.items >= 0) parts.push(current.trim());
  return parts.flatMap((p) => expandBraces(p, budget));
}

/**
 * `src/*.{ts,tsx}` → `src/*.ts`, `src/*.tsx`: one group at a time, left to right, commas only
 * (no ranges, no nesting), exactly as the reference expands them, so both match the same files.
 */
function expandBraces(pattern: string, budget: { patterns: number; bytes: number }): string[] {
  if (!pattern.includes('{')) return [pattern];
  const out: string[] = [];
  const stack = [pattern];
  for (let p = stack.pop(); p !== undefined; p = stack.pop()) {
    const m = /^([^{]*)\{([^}]+)\}(.*)$/.exec(p);
    if (!m) {
      out.push(p);
      continue;
    }
    const [, head = '', inner = '', tail = ''] = m;
    const options = inner.split(',').map((o) => o.trim());
    budget.bytes -= p.length;
    const count = out.length + stack.length + options.length;
    if (budget.bytes < 0 || count > budget.patterns || count * pattern.length > budget.bytes) return [pattern];
    for (let i = options.length - 1; i >= 0; i--) stack.push(head + options[i] + tail);
  }
  budget.patterns -= out.length;
  budget.bytes -= out.length * pattern.length;
  return out;
}

/**
 * Whether a rule's globs take a file, given as a path relative to the rule's base folder (with
 * `/`): .gitignore semantics, as the reference matches them (`*.json` at any depth, `src` for
 * everything below it, `/x` anchored, `!` to exclude).
 */
export function globsMatch(globs: readonly string[], relativePath: string): boolean {
  // Callers hand a path already known to be inside (fs/paths relativeWithin); a name that merely
  // starts with two dots (`..notes/a.md`) is inside too.
  if (!relativePath || relativePath === '..' || relativePath.startsWith('../') || relativePath.startsWith('/')) return false;
  try {
    return matcherFor(globs).ignores(relativePath);
  } catch {
    return false;
  }
}

/**
 * Compiled matchers by their globs: rule files' `paths:` were compiled again on every file read,
 * 28 s of CPU per Read with 100 rule files of 9,000 patterns (pass 33 A3).
 */
const matchers = new Map<string, ReturnType<typeof ignoreMatcher>>();
const MATCHERS = 256;
let builds = 0;
/** How many matchers were built so far (each set of globs once, while it stays in use). */
export const matcherBuilds = () => builds;

function matcherFor(globs: readonly string[]): ReturnType<typeof ignoreMatcher> {
  const key = globs.join('\n');
  let m = matchers.get(key);
  if (m) {
    matchers.delete(key);
  } else {
    // One pattern between looks at the clock: one costly pattern on a deep path is a tenth of a second (pass 39 C3).
    m = ignoreMatcher(globs, { group: 1 });
    builds++;
    if (matchers.size >= MATCHERS) matchers.delete(matchers.keys().next().value!);
  }
  matchers.set(key, m);
  return m;
}
