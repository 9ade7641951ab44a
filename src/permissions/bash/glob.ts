import { mayMatchName } from '../../tools/glob';
import { askBash, withAskBudget } from './run';

// What a glob in a command stands for is asked of bash itself. A matcher of our own (picomatch)
// read `[!a]` as "a or !", and `[\t]`, `[[=t=]]`, `[[.t.]]` as matching nothing, where bash
// matches `t`; the word was then judged as written while bash handed the program a path through
// a link out of the workspace. Bash's own expansion has no such gap, whatever the pattern.

/** The characters that make a word a glob (unquoted). */
export const GLOB_CHARS = /[*?[]/;

/**
 * Whether one part of a glob may stand for `..`, as dash and bash told `+O globskipdots` expand
 * `.*` (passes 71 H2, M4): the /proc guard and the deny rules both read such a part as going up.
 */
export function mayClimb(part: string): boolean {
  return GLOB_CHARS.test(part) && mayMatchName(part, '..');
}

/** More matches than this and the glob counts as unknown (the command asks). */
export const GLOB_MAX_MATCHES = 5_000;

/** A glob over a huge tree (`/*\/*\/*`) is not waited for. */
const GLOB_TIME_MS = 3_000;

// The pattern arrives as $1 and is expanded unquoted with IFS empty: no splitting, no other
// expansion, only pathname expansion, with the options `bash -c` runs commands with (the Bash
// tool's), plus nullglob so that no match is no output.
const SCRIPT = 'shopt -s nullglob; IFS=; for m in $1; do printf "%s\\0" "$m"; done';

/** The locale decides ranges and equivalence classes (`[a-z]`, `[[=e=]]`): the Bash tool's is the host's. */
const LOCALE = ['LANG', 'LANGUAGE', 'LC_ALL', 'LC_COLLATE', 'LC_CTYPE'];

/**
 * The names bash expands `pattern` to in `cwd`, as it prints them (relative stays relative, `..`
 * stays in place); [] when nothing matches; undefined when bash cannot say within its bounds
 * (too many matches, too slow, no bash, a name that is not UTF-8).
 */
export function bashGlob(pattern: string, cwd: string): string[] | undefined {
  const key = `${cwd}\0${pattern}`;
  if (decision?.has(key)) return decision.get(key);
  const found = expand(pattern, cwd);
  decision?.set(key, found);
  return found;
}

/**
 * One decision asks about the same glob more than once (its files, then the /proc guard); each
 * ask is a bash process. Within `fn` the answers are kept; never across decisions, since a
 * command run in between may have made the very link a later glob leads through.
 */
let decision: Map<string, string[] | undefined> | undefined;
export function oneDecision<T>(fn: () => T): T {
  const outer = decision;
  decision = outer ?? new Map();
  try {
    return withAskBudget(fn);
  } finally {
    decision = outer;
  }
}

function expand(pattern: string, cwd: string): string[] | undefined {
  const env: Record<string, string> = {};
  for (const k of LOCALE) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  const raw = askBash(SCRIPT, { args: [pattern], cwd, env, timeoutMs: GLOB_TIME_MS });
  if (raw === undefined || raw.length > GLOB_MAX_MATCHES) return undefined;
  const out: string[] = [];
  for (const bytes of raw) {
    const name = bytes.toString('utf8');
    // A name that does not survive decoding could not be judged as the one bash passes.
    if (!Buffer.from(name, 'utf8').equals(bytes)) return undefined;
    out.push(name);
  }
  return out;
}

/** The pattern with its escapes removed: the word bash passes on when nothing matches. */
export function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, '$1');
}
