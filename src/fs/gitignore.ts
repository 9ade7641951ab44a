// .gitignore rules of the folders a walk meets, read through the gate: a .gitignore is whatever the
// repository put there (a FIFO, a link to /dev/zero, megabytes of patterns), and the walk reads it
// inside a synchronous callback, where a blocking open would freeze the host, signals included.
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readCappedSync } from './read';
import { isLinkSync } from './stat';

/**
 * A real .gitignore is a few hundred lines at most. Each rule is tested against every path the walk
 * meets, so the cost is rules × paths (1,000 rules cost about a second per 5,000 paths): rules past
 * these caps are not read.
 */
const GITIGNORE_MAX_BYTES = 64 * 1024;
export const GITIGNORE_MAX_LINES = 1000;

/**
 * `**` segments a pattern may hold once runs of them are folded into one. `ignore` makes each a
 * backtracking `(?:/[^/]+)*`, so a match costs about depth^globstars: 20 of them against a path
 * 30 folders deep never ended, with signals unserved (the match runs on the main thread). Three
 * cost milliseconds at 60 levels; a pattern with more is left out.
 */
const MAX_GLOBSTARS = 3;
/**
 * `*` characters a pattern may hold, those of `**` included: stars inside a name backtrack too, and
 * `a*a*a*a*a*` between three `**` against 60-character folder names held a match for minutes
 * (pass 37 B1).
 */
const MAX_STARS = 8;

/** The patterns with runs of `**` segments folded into one, and those with too many left out. */
export function boundedPatterns(lines: readonly string[]): string[] {
  return lines
    .map((line) => line.replace(/(^|\/)\*\*(?:\/\*\*)+(?=\/|$)/g, '$1**'))
    .filter((line) => (line.match(/\*{2,}/g)?.length ?? 0) <= MAX_GLOBSTARS && (line.match(/\*/g)?.length ?? 0) <= MAX_STARS);
}

/**
 * Folders deep a path may be for a pattern to be tried on it. Even three `**` cost depth^3.5: a
 * path 1,900 folders deep held one match for minutes (pass 34 A2). No real tree is that deep; a
 * deeper path is taken as matching no pattern (not ignored, no rule applies).
 */
export const MAX_MATCH_DEPTH = 64;

/**
 * Patterns per group, and the time one path's match may take. Each pattern's cost is bounded
 * (MAX_GLOBSTARS, MAX_STARS, MAX_MATCH_DEPTH) but not their number times their cost: 2,000
 * patterns of 30 ms each held a Read for a minute (pass 37 B1). Patterns are tried group by group,
 * in order (the last that matches decides, as in git), and past the time a path matches nothing.
 */
const GROUP = 8;
const MATCH_BUDGET_MS = 100;

/** The end of a budget several matchers share (see sharedMatchBudget); undefined outside one. */
let sharedUntil: number | undefined;

/**
 * Runs `fn` with one match budget of `ms` for every matcher it calls: one matcher's budget bounds
 * one set of patterns, not 500 rule files of them, one after another (pass 39 C3). Past it, every
 * path matches nothing. Synchronous, so no other caller's matching falls inside.
 */
export function sharedMatchBudget<T>(ms: number, fn: () => T): T {
  const outer = sharedUntil;
  sharedUntil = Math.min(outer ?? Infinity, performance.now() + ms);
  try {
    return fn();
  } finally {
    sharedUntil = outer;
  }
}

/** Whether the shared budget (if any) has time left: a caller skips building a matcher it could not use. */
export function matchBudgetLeft(): boolean {
  return sharedUntil === undefined || performance.now() <= sharedUntil;
}

/**
 * A gitignore-style matcher of `patterns` (one per line), bounded as boundedPatterns, MAX_MATCH_DEPTH and MATCH_BUDGET_MS say.
 * `group`: patterns tried between two looks at the clock (fewer: a closer stop, more calls).
 */
export function ignoreMatcher(patterns: string | readonly string[], { group = GROUP } = {}): Pick<Ignore, 'ignores'> {
  const lines = boundedPatterns(typeof patterns === 'string' ? patterns.split(/\r?\n/) : patterns).filter((l) => l.trim() !== '' && !l.startsWith('#'));
  const groups: Ignore[] = [];
  for (let i = 0; i < lines.length; i += group) groups.push(ignore().add(lines.slice(i, i + group)));
  return {
    ignores: (path: string) => {
      if (path.split('/').length > MAX_MATCH_DEPTH) return false;
      const until = Math.min(performance.now() + MATCH_BUDGET_MS, sharedUntil ?? Infinity);
      if (performance.now() > until) return false;
      let ignored = false;
      for (const g of groups) {
        const r = g.test(path);
        if (r.ignored) ignored = true;
        else if (r.unignored) ignored = false;
        if (performance.now() > until) return false;
      }
      return ignored;
    },
  };
}

/**
 * .gitignore rules of each folder met, applied to the paths below it (as git does). Each file is
 * read once: a walk that outlives an edit of a .gitignore keeps the rules it started with.
 */
/**
 * Time all of one walk's matches may take together. Each path's budget bounds one path, not
 * 20,000 of them: a clone's 1,000 costly patterns held one Glob for 117 s, signals unserved (pass
 * 55 M2). Past it, no path is matched any more (nothing more is ignored), and the walk says so.
 */
export const WALK_MATCH_BUDGET_MS = 2_000;

export class GitignoreRules {
  private readonly byDir = new Map<string, Pick<Ignore, 'ignores'>>();
  private readonly read = new Set<string>();
  /** Folders whose .gitignore was cut at the caps. */
  readonly capped: string[] = [];
  /** Matching took this walk's whole budget: later paths were not matched. */
  overBudget = false;
  private spent = 0;

  constructor(private readonly root: string) {}

  /** Reads `dirRel`/.gitignore if there is a regular one; cheap when there is not. */
  load(dirRel: string): void {
    if (this.read.has(dirRel)) return;
    this.read.add(dirRel);
    const file = join(this.root, dirRel, '.gitignore');
    // Git opens a .gitignore without following a link (2.32 on): one committed as a link to a
    // file elsewhere made its lines patterns, and what a Glob left out told them (pass 52 M2).
    if (isLinkSync(file)) return;
    const read = readCappedSync(file, { maxBytes: GITIGNORE_MAX_BYTES, maxLines: GITIGNORE_MAX_LINES });
    if (!read.ok) return;
    if (read.capped) this.capped.push(dirRel);
    let text = read.bytes.toString('utf8');
    // A cut in the middle of the last line leaves half a pattern: it goes.
    if (read.capped && !text.endsWith('\n')) text = text.slice(0, text.lastIndexOf('\n') + 1);
    this.byDir.set(dirRel, ignoreMatcher(text));
  }

  ignored(rel: string, isDir: boolean): boolean {
    if (this.overBudget) return false;
    const t0 = performance.now();
    try {
      return sharedMatchBudget(WALK_MATCH_BUDGET_MS - this.spent, () => {
        for (const [dir, ig] of this.byDir) {
          if (dir !== '' && !rel.startsWith(`${dir}/`)) continue;
          const sub = dir === '' ? rel : rel.slice(dir.length + 1);
          if (sub && ig.ignores(isDir ? `${sub}/` : sub)) return true;
        }
        return false;
      });
    } finally {
      this.spent += performance.now() - t0;
      if (this.spent >= WALK_MATCH_BUDGET_MS) this.overBudget = true;
    }
  }
}
