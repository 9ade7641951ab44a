import { askBash } from './run';

// Brace expansion is asked of bash itself, as globs are (glob.ts). brace-expansion, the library,
// differed from bash in forms an attacker picks: it gave up on `{a}}…},x}` past 1,000 rewrites,
// left `{+1..1}` and `{1..1..+1}` whole, and expanded `{a..c..99999999999999999999}`, which bash
// passes on as written; each time the checks judged a different word from the one bash passed.

/** Longer words than this, and what they expand to is unknown. */
const MAX_CHARS = 4_096;
/** More words than this from one word, and it is unknown (bash would pass them all). */
const MAX_WORDS = 1_000;
const BRACE_TIME_MS = 3_000;

/** Characters left for bash to read in the word: those brace expansion is made of. */
const BRACE_SYNTAX = /[A-Za-z0-9_{},.+-]/;

/**
 * The words bash makes of `pattern` (see `Word.pattern`: escapes mark what was quoted) by brace
 * expansion alone, each still a pattern; undefined when bash cannot say within the bounds.
 */
export function braceWords(pattern: string): string[] | undefined {
  if (!/(^|[^\\])\{/.test(pattern)) return [pattern];
  if (pattern.length > MAX_CHARS || /[\n\0]/.test(pattern)) return undefined;
  // Every character but brace syntax is quoted for bash, so nothing but brace expansion can
  // happen (no glob, tilde, variable or command); an escaped pair comes back still escaped.
  let word = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      word += `\\\\\\${pattern[++i]}`;
      continue;
    }
    word += BRACE_SYNTAX.test(c) ? c : `\\${c}`;
  }
  const raw = askBash(`set -f; for w in ${word}; do printf '%s\\0' "$w"; done`, { env: { LC_ALL: 'C' }, timeoutMs: BRACE_TIME_MS });
  if (raw === undefined || raw.length === 0 || raw.length > MAX_WORDS) return undefined;
  return raw.map((b) => b.toString('utf8'));
}
