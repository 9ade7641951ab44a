import { promises as fs } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { resolveToolPath } from '../../tools/paths';
import type { Tool } from '../../tools/types';
import { z } from 'zod';
import { nonEmptyString, parseToolInput, pathField, toInputSchema } from '../../tools/schema';
import { displayPath, errorMessage, INTERRUPTED } from './util';
import { globToRegExp, MAGIC, normalizePattern } from '../../tools/glob';

export interface WalkedFile {
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

const MAX_RESULTS = 100;

const globInput = z.object({
  pattern: nonEmptyString('Glob pattern: ** any folders, * and ? within a name, {a,b} alternatives, [a-z] classes'),
  path: pathField('Folder to search in, absolute or relative to the workspace (default: the workspace)').optional(),
});
type GlobInput = z.output<typeof globInput>;

export const globTool: Tool<GlobInput> = {
  name: 'Glob',
  description: [
    'Find files by name with a glob pattern, e.g. "**/*.ts", "src/**/*.{ts,tsx}", "test/unit/*/[a-m]*.ts" or "package.json".',
    'A pattern without "/" matches file names at any depth. `path` is the folder to search (default: the workspace); the pattern is relative to it.',
    'Returns matching file paths (relative to the workspace), most recently modified first, at most 100; narrow the pattern when the list is cut.',
    '.git and node_modules are skipped unless the pattern names them. Use this instead of `find` or `ls` in Bash; use Grep to search inside files.',
  ].join(' '),
  inputSchema: toInputSchema(globInput),
  traits: { readsFiles: true, compactable: true, background: 'read' },
  parse: (input) => parseToolInput(globInput, input),
  isReadOnly: () => true,
  summarize: (i) => (i.path ? `${i.pattern} in ${i.path}` : i.pattern),
  paths: (i, cwd) => [resolveToolPath(cwd, i.path ?? '.')],
  async call(i, { cwd, signal }) {
    const root = resolveToolPath(cwd, i.path ?? '.');
    try {
      const st = await fs.stat(root);
      if (!st.isDirectory()) return { content: `${root} is not a folder; give a folder as path.`, isError: true };
    } catch (err) {
      return { content: `Cannot search ${root}: ${errorMessage(err)}.`, isError: true };
    }
    const files = await walkGlob(root, i.pattern, signal);
    if (signal.aborted) return INTERRUPTED;
    if (files.length === 0) return { content: `No files match ${i.pattern} in ${displayPath(cwd, root)}.` };
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    const lines = files.slice(0, MAX_RESULTS).map((f) => displayPath(cwd, f.abs));
    if (files.length > MAX_RESULTS) lines.push(`(${files.length - MAX_RESULTS} more matches not shown: only the ${MAX_RESULTS} newest are listed. Use a narrower pattern or path.)`);
    return { content: lines.join('\n') };
  },
};
