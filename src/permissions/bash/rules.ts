import { RE2JS } from 're2js';
import { commandBase, RUNNERS, type Words } from './commands';

/**
 * A Bash rule's pattern, as Claude Code writes them: `npm test:*` (the command, or the command
 * followed by more words), `git status` (exactly that), or a pattern with `*` wildcards
 * (`git * main`; a single trailing ` *` also matches nothing, so `ls *` matches `ls`).
 */
export type BashPattern =
  | { kind: 'prefix'; words: readonly string[] }
  | { kind: 'exact'; words: readonly string[] }
  | { kind: 'wildcard'; first: string | undefined; regex: { test(text: string): boolean }; literals: readonly string[] };

export type Match = 'yes' | 'maybe' | 'no';

/** Stands for a word the shell computes: only a `*` can match it. */
const COMPUTED = '\u0000';

/**
 * Run by RE2 (re2js), in time linear in the command's length: as a backtracking RegExp, each `*`
 * a `[\s\S]*`, a clone's deny rule `Bash(*e*e*e*e*e*e*e*e*e*e*e*e*Q)` held every command for
 * minutes, past SIGTERM (pass 38 C2).
 */
function wildcardRegex(p: string): { test(text: string): boolean } {
  const stars = (p.match(/(?<!\\)\*/g) ?? []).length;
  const optionalTail = stars === 1 && / \*$/.test(p) && !p.endsWith('\\ *');
  const body = optionalTail ? p.slice(0, -2) : p;
  let re = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && (body[i + 1] === '*' || body[i + 1] === '\\')) re += `\\${body[++i]}`;
    else if (c === '*') re += '[\\s\\S]*';
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return RE2JS.compile(`^${re}${optionalTail ? '(?: [\\s\\S]*)?' : ''}$`);
}

/** `split` turns the rule's text into words the way the shell would (quotes removed). */
export function compilePattern(pattern: string, split: (text: string) => string[]): BashPattern {
  if (pattern.endsWith(':*')) return { kind: 'prefix', words: split(pattern.slice(0, -2)) };
  if (/(?<!\\)\*/.test(pattern)) {
    const words = pattern.trim().split(/\s+/);
    const head = words[0] ?? '';
    return { kind: 'wildcard', first: head.includes('*') ? undefined : head, regex: wildcardRegex(pattern.trim()), literals: words.filter((w) => !w.includes('*')) };
  }
  return { kind: 'exact', words: split(pattern) };
}

const joined = (words: Words) => words.map((w) => w ?? COMPUTED).join(' ');

/** An allow rule covers a command as written: same name (no path, no wrapper), same leading words. */
export function allowCovers(p: BashPattern, words: Words): boolean {
  if (words.length === 0) return false;
  switch (p.kind) {
    case 'prefix':
      return p.words.length > 0 && p.words.length <= words.length && p.words.every((w, i) => words[i] === w);
    case 'exact':
      return p.words.length === words.length && p.words.every((w, i) => words[i] === w);
    case 'wildcard':
      // `Bash(* --help)` names no command, so it must not cover `bash -c '…' --help` or `sudo … --help`.
      if (words[0] === undefined || (p.first === undefined && RUNNERS.has(commandBase(words[0])))) return false;
      return p.regex.test(joined(words));
  }
}

/**
 * A deny or ask rule against one command the script may run (its name already reduced to a
 * base name). A prefix rule's later words may be separated by options (`git -C x push` is
 * `git push`). 'maybe': a computed word might complete the match.
 */
export function denyMatches(p: BashPattern, words: Words): Match {
  const name = words[0];
  if (name === undefined) return 'maybe';
  const computed = words.some((w) => w === undefined);
  if (p.kind === 'wildcard') {
    if (p.first !== undefined && commandBase(p.first) !== name) return 'no';
    // The command is known by its base name; the rule's regex spells the program as the rule does
    // (`/bin/rm * /`), so the text it is tried on must too, or such a rule would never match.
    const text = joined(p.first !== undefined ? [p.first, ...words.slice(1)] : words);
    if (p.regex.test(text)) return 'yes';
    return computed ? 'maybe' : 'no';
  }
  const [head, ...rest] = p.words;
  if (head === undefined || commandBase(head) !== name) return 'no';
  if (p.kind === 'exact') {
    if (rest.length === words.length - 1 && rest.every((w, i) => words[i + 1] === w)) return 'yes';
    return computed ? 'maybe' : 'no';
  }
  let at = 1;
  for (const want of rest) {
    while (at < words.length && words[at] !== want) at++;
    if (at >= words.length) return computed ? 'maybe' : 'no';
    at++;
  }
  return 'yes';
}
