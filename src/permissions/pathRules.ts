// How a file rule's pattern names paths, as Claude Code's Read and Edit rules do (gitignore style):
//   //abs/path   an absolute path            Read(//etc/hosts)
//   ~/path       under the home folder       Read(~/.ssh/**)
//   /path        under the rule's root: the project a settings file belongs to, else the workspace
//   path, ./path under the workspace; a pattern with no '/' matches that name at any depth below it
// A pattern that names a folder also covers everything in it. Relative patterns never reach
// outside their root, so `Edit(*.md)` cannot match ~/.claude/CLAUDE.md.
import { sep } from 'node:path';
import { realLocation, relativeWithin } from '../fs/paths';
import { anchoredGlob, globToRegExp, type GlobMatcher } from '../tools/glob';

export interface PathContext {
  /** The workspace folder, real path. */
  cwd: string;
  home: string;
}

export type PathPattern =
  | { kind: 'absolute'; glob: string }
  /** `/path`: relative to `root` (see pathPatternMatches for deny and ask rules). */
  | { kind: 'rooted'; glob: string; root: string }
  | { kind: 'relative'; glob: string; root: string };

const toSlash = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/** Reads a rule's pattern; `root` is what `/path` is relative to. */
export function parsePathPattern(pattern: string, ctx: PathContext, root: string = ctx.cwd): PathPattern {
  const p = toSlash(pattern.trim());
  if (p.startsWith('//')) return { kind: 'absolute', glob: realBase(p.slice(1)) };
  if (p === '~' || p.startsWith('~/')) return { kind: 'absolute', glob: realBase(`${toSlash(ctx.home).replace(/\/$/, '')}${p.slice(1)}`) };
  if (p.startsWith('/')) return { kind: 'rooted', glob: p.slice(1), root };
  return { kind: 'relative', glob: p.replace(/^(\.\/)+/, ''), root: ctx.cwd };
}

/**
 * An absolute glob with its literal folders as they really are: paths are judged where they
 * really lead, so `Read(~/.ssh/**)` with a home reached through a link (`/home/me -> /data/me`)
 * must name `/data/me/.ssh` to match anything (pass 34 A1).
 */
function realBase(glob: string): string {
  const at = glob.search(/[*?[{\\]/);
  const literal = at < 0 ? glob : glob.slice(0, glob.lastIndexOf('/', at) + 1);
  const dir = literal.replace(/\/+$/, '');
  if (!dir.startsWith('/') || dir === '') return glob;
  const real = toSlash(realLocation(dir));
  return real === dir ? glob : `${real.replace(/\/$/, '')}${glob.slice(dir.length)}`;
}

/** The pattern and "everything inside what it names", as one test. */
function withContents(m: GlobMatcher, contents: GlobMatcher): GlobMatcher {
  return { test: (s) => m.test(s) || contents.test(s) };
}

// Not cached here: the compiled globs are, in the one glob cache (tools/glob.ts).
function matcher(glob: string, bareAnyDepth: boolean): GlobMatcher {
  const g = glob.replace(/\/+$/, '') || '**';
  const bare = bareAnyDepth && !g.includes('/');
  const compile = bare ? globToRegExp : anchoredGlob;
  return withContents(compile(g), compile(g === '**' || g.endsWith('/**') ? g : `${g}/**`));
}

/** `abs` relative to `root` in '/' form, or undefined when it is not under it (the gate's one containment rule). */
export const under = relativeWithin;

/**
 * Whether the pattern names `abs` (an absolute path). `wide` (deny and ask rules) also reads a
 * `/path` pattern as absolute: a user who wrote Read(/etc/passwd) meaning the system file is
 * protected either way, while an allow rule gets only the narrower, reference reading.
 */
export function pathPatternMatches(pattern: PathPattern, abs: string, wide = false): boolean {
  const a = toSlash(abs);
  if (pattern.kind === 'absolute') return matcher(pattern.glob, false).test(a);
  if (wide && pattern.kind === 'rooted' && matcher(`/${pattern.glob}`, false).test(a)) return true;
  const rel = under(pattern.root, abs);
  if (rel === undefined || rel === '') return rel === '' && (pattern.glob === '**' || pattern.glob === '');
  return matcher(pattern.glob, pattern.kind === 'relative').test(rel);
}

/** The rule text that allows exactly this path, in the form the reference reads. */
export function ruleForPath(tool: string, abs: string, ctx: PathContext): string {
  const rel = under(ctx.cwd, abs);
  if (rel !== undefined && rel !== '') return `${tool}(${rel})`;
  const home = under(ctx.home, abs);
  if (home !== undefined && home !== '') return `${tool}(~/${home})`;
  return `${tool}(/${toSlash(abs)})`;
}

/**
 * The folder a pattern's literal part names (absolute), where everything it can match lies: the
 * pattern up to its first glob character. A bare name matching at any depth has its root.
 */
export function patternBase(pattern: PathPattern): string {
  const g = pattern.glob;
  const glob = g.search(/[*?[{]/);
  const literal = glob < 0 ? g : g.slice(0, g.lastIndexOf('/', glob) + 1);
  if (pattern.kind === 'absolute') return literal.replace(/\/+$/, '') || '/';
  if (pattern.kind === 'relative' && !g.includes('/')) return pattern.root;
  return `${toSlash(pattern.root).replace(/\/$/, '')}/${literal}`.replace(/\/+$/, '');
}
