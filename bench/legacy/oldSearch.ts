// The hand-rolled glob compiler and walk that Glob and Grep used before picomatch, RE2 and fdir,
// kept only as the baseline the search benchmark measures the new ones against in the same run.
import { promises as fs } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
// Glob patterns as Claude Code's rules and tools write them, compiled to regular expressions.

/** Characters that make a path segment a pattern rather than a literal name. */
const MAGIC = /[*?[{\\]/;
const cache = new Map<string, RegExp>();

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** Patterns as written on this platform, in '/' form, without a leading './'. */
export function normalizePattern(pattern: string): string {
  let p = process.platform === 'win32' ? pattern.replace(/\\/g, '/') : pattern;
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

/** `[...]` starting at `start`: the RegExp class and where the glob continues, or null if unclosed. */
function charClass(p: string, start: number): { re: string; end: number } | null {
  let j = start + 1;
  let negate = false;
  if (p[j] === '!' || p[j] === '^') {
    negate = true;
    j++;
  }
  let body = '';
  let first = true;
  while (j < p.length) {
    const c = p[j]!;
    if (c === ']' && !first) return { re: negate ? `[^/${body}]` : `[${body}]`, end: j + 1 };
    first = false;
    if (c === '\\' && j + 1 < p.length) {
      body += `\\${p[j + 1]}`;
      j += 2;
      continue;
    }
    body += c === '-' ? '-' : /[\]\\^[]/.test(c) ? `\\${c}` : c;
    j++;
  }
  return null;
}

/** Index of the `}` closing the `{` at `start`, or -1. */
function braceEnd(p: string, start: number): number {
  let depth = 0;
  for (let j = start; j < p.length; j++) {
    const c = p[j];
    if (c === '\\') j++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j;
  }
  return -1;
}

function compile(p: string): string {
  let i = 0;
  const sequence = (inBraces: boolean): string => {
    let out = '';
    while (i < p.length) {
      const c = p[i]!;
      if (inBraces && (c === ',' || c === '}')) return out;
      if (c === '\\' && i + 1 < p.length) {
        out += escapeChar(p[i + 1]!);
        i += 2;
      } else if (c === '*') {
        let j = i;
        while (p[j] === '*') j++;
        const wholeSegment = j - i >= 2 && (i === 0 || p[i - 1] === '/') && (j === p.length || p[j] === '/');
        if (wholeSegment && p[j] === '/') {
          out += '(?:[^/]*/)*'; // `**/`: any number of folders, none included
          i = j + 1;
        } else if (wholeSegment) {
          out += '.*'; // a final `**`: anything below
          i = j;
        } else {
          out += '[^/]*';
          i = j;
        }
      } else if (c === '?') {
        out += '[^/]';
        i++;
      } else if (c === '[') {
        const cls = charClass(p, i);
        if (cls) {
          out += cls.re;
          i = cls.end;
        } else {
          out += '\\[';
          i++;
        }
      } else if (c === '{' && braceEnd(p, i) > 0) {
        i++;
        const alternatives: string[] = [];
        for (;;) {
          alternatives.push(sequence(true));
          const stop = p[i];
          i++;
          if (stop !== ',') break;
        }
        out += `(?:${alternatives.join('|')})`;
      } else {
        out += escapeChar(c);
        i++;
      }
    }
    return out;
  };
  return sequence(false);
}

/**
 * A glob as a RegExp over '/'-separated paths. `**` (a whole segment) spans any number of
 * folders, `*` and `?` stay within one segment, `{a,b}` picks alternatives (nesting allowed),
 * `[abc]`, `[a-z]` and `[!x]` are classes, and `\` escapes. A pattern with no '/' matches the
 * file name at any depth, so `*.ts` finds `src/a.ts`.
 */
export function globToRegExp(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let p = normalizePattern(pattern);
  if (!p.includes('/')) p = `**/${p}`;
  const re = new RegExp(`^${compile(p)}$`);
  if (cache.size > 500) cache.clear();
  cache.set(pattern, re);
  return re;
}

interface WalkedFile {
  /** Relative to the walk's root, '/'-separated. */
  rel: string;
  abs: string;
  mtimeMs: number;
  size: number;
}

const SKIPPED_DIRS = ['.git', 'node_modules'];

/** The folders at the start of the pattern that hold no wildcards, and what follows them. */
function splitLiteralPrefix(p: string): { prefix: string; rest: string } {
  if (!p.includes('/')) return { prefix: '', rest: p };
  const segments = p.split('/');
  let k = 0;
  while (k < segments.length - 1 && !MAGIC.test(segments[k]!)) k++;
  return { prefix: segments.slice(0, k).join('/') || (p.startsWith('/') ? '/' : ''), rest: segments.slice(k).join('/') };
}

/** Whether the pattern has `name` as a whole path segment (or one brace alternative): `.git/**`, not `*.gitignore`. */
function namesSegment(pattern: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[/{,])${escaped}(?:$|[/},])`).test(pattern);
}

const toSlash = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/**
 * Files under `root` matching `pattern` (relative to `root`, or absolute). Skips `.git` and
 * `node_modules` unless the pattern names them, does not follow symlinked folders (a symlinked
 * file is reported), stops when aborted or after `limit` files. Order is the walk's; sort it.
 */
export async function walkGlob(root: string, pattern: string, signal?: AbortSignal, limit = 100_000): Promise<WalkedFile[]> {
  const p = normalizePattern(pattern);
  const re = globToRegExp(pattern);
  const absolutePattern = isAbsolute(p);
  const { prefix, rest } = splitLiteralPrefix(p);
  const base = resolve(root, prefix);
  // With no `**`, a match can be no deeper than the pattern has slashes.
  const maxDepth = rest.includes('**') || !p.includes('/') ? Infinity : rest.split('/').length;
  const skip = new Set(SKIPPED_DIRS.filter((d) => !namesSegment(p, d)));
  const out: WalkedFile[] = [];
  const stack: Array<{ dir: string; depth: number }> = [{ dir: base, depth: 1 }];
  while (stack.length) {
    if (signal?.aborted || out.length >= limit) break;
    const { dir, depth } = stack.pop()!;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue; // missing or unreadable: nothing to find there
    }
    for (const e of entries) {
      if (out.length >= limit) break;
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name) && depth < maxDepth) stack.push({ dir: abs, depth: depth + 1 });
        continue;
      }
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      const rel = toSlash(relative(root, abs));
      if (!re.test(absolutePattern ? toSlash(abs) : rel)) continue;
      try {
        const st = await fs.stat(abs);
        if (st.isFile()) out.push({ rel, abs, mtimeMs: st.mtimeMs, size: st.size });
      } catch {
        // gone since the listing, or a dangling link
      }
    }
  }
  return out;
}

