// How a file rule's pattern names paths, as Claude Code's Read and Edit rules do (gitignore style):
//   //abs/path   an absolute path            Read(//etc/hosts)
//   ~/path       under the home folder       Read(~/.ssh/**)
//   /path        under the rule's root: the project a settings file belongs to, else the workspace
//   path, ./path under the workspace; a pattern with no '/' matches that name at any depth below it
// A pattern that names a folder also covers everything in it. Relative patterns never reach
// outside their root, so `Edit(*.md)` cannot match ~/.claude/CLAUDE.md.
import { posix, sep } from 'node:path';
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
  if (p.startsWith('//')) return { kind: 'absolute', glob: realBase(tidy(p.slice(1))) };
  if (p === '~' || p.startsWith('~/')) return { kind: 'absolute', glob: realBase(tidy(`${toSlash(ctx.home).replace(/\/$/, '')}${p.slice(1)}`)) };
  // Paths are matched in their plain form (no `.`, `..` or empty parts): a rule spelled with them
  // (`Read(.//secrets/**)`, `Read(a/../secrets/**)`) matched nothing, and said nothing (pass 52 L2).
  // One that climbs above its root names the folder it climbs to.
  const [glob, under] = p.startsWith('/') ? [tidy(p.slice(1)), root] : [tidy(p), ctx.cwd];
  if (glob === '..' || glob.startsWith('../')) return { kind: 'absolute', glob: realBase(posix.join(toSlash(under), glob)) };
  if (p.startsWith('/')) return { kind: 'rooted', glob, root };
  // `a/../x` names the workspace's x, not an x at any depth as the bare name would.
  const bare = !p.replace(/^(\.\/)+/, '').replace(/\/+$/, '').includes('/');
  return bare || glob.replace(/\/+$/, '').includes('/') ? { kind: 'relative', glob, root: ctx.cwd } : { kind: 'rooted', glob, root: ctx.cwd };
}

/** A pattern with its `.`, `..` and empty parts folded as text; a trailing `/` kept (it names a folder). */
function tidy(glob: string): string {
  const folded = posix.normalize(glob);
  return folded === '.' || folded === './' ? '' : folded.replace(/^\.\//, '');
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
 * `abs` under `root`, remembered for the last path asked: a search tests each file against every
 * rule, and each relative rule asks the same question of the same file.
 */
let lastUnder: { root: string; abs: string; rel: string | undefined } | undefined;
function underOnce(root: string, abs: string): string | undefined {
  if (lastUnder?.root === root && lastUnder.abs === abs) return lastUnder.rel;
  const rel = under(root, abs);
  lastUnder = { root, abs, rel };
  return rel;
}

/**
 * The test of whether the pattern names a path (absolute), its globs compiled once: a search
 * makes one per rule and runs it on every file it finds. `wide` (deny and ask rules) also reads a
 * `/path` pattern as absolute: a user who wrote Read(/etc/passwd) meaning the system file is
 * protected either way, while an allow rule gets only the narrower, reference reading. Throws
 * GlobSyntaxError for a pattern no glob can be made of.
 */
export function pathPatternTester(pattern: PathPattern, wide = false): (abs: string) => boolean {
  if (pattern.kind === 'absolute') {
    const m = matcher(pattern.glob, false);
    return (abs) => m.test(toSlash(abs));
  }
  const rootedWide = wide && pattern.kind === 'rooted' ? matcher(`/${pattern.glob}`, false) : undefined;
  const whole = pattern.glob === '**' || pattern.glob === '';
  const m = matcher(pattern.glob, pattern.kind === 'relative');
  // A deny or ask rule also names where its literal part really leads: `Read(./.env)` with
  // `.env -> env/prod.env` covers env/prod.env, `Read(secrets/**)` with `secrets -> private` covers
  // private/ (pass 55 M1), as an absolute rule's folders already were (realBase).
  const lexical = posix.join(toSlash(pattern.root), pattern.glob);
  const real = wide && !whole ? realBase(lexical) : lexical;
  const through = real !== lexical ? matcher(real, false) : undefined;
  // A deny or ask rule that matches at any depth (`.env`, `*.pem`, `**/.env`) holds in folders added
  // with --add-dir too, and wherever else a file is read (pass 58 L1): it names a kind of file.
  const anywhere = wide && pattern.kind === 'relative' && !whole && (!pattern.glob.replace(/\/+$/, '').includes('/') || pattern.glob.startsWith('**/')) ? m : undefined;
  return (abs) => {
    if (rootedWide?.test(toSlash(abs))) return true;
    if (through?.test(toSlash(abs))) return true;
    if (anywhere?.test(toSlash(abs).replace(/^\/+/, ''))) return true;
    const rel = underOnce(pattern.root, abs);
    if (rel === undefined || rel === '') return rel === '' && whole;
    return m.test(rel);
  };
}

/** Whether the pattern names `abs` (an absolute path); see pathPatternTester. */
export function pathPatternMatches(pattern: PathPattern, abs: string, wide = false): boolean {
  return pathPatternTester(pattern, wide)(abs);
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
