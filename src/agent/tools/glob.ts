import { promises as fs } from 'node:fs';
import { join, relative, sep } from 'node:path';

const cache = new Map<string, RegExp>();

/**
 * A glob as a RegExp over '/'-separated relative paths: `**` any depth, `*` and `?` within a
 * segment, `{a,b}` alternatives, `[...]` classes. A pattern without '/' matches the file name
 * at any depth, as .gitignore-style users expect (`*.ts` finds src/a.ts).
 */
export function globToRegExp(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let p = pattern.replace(/\\/g, '/').replace(/^\.\//, '');
  if (!p.includes('/')) p = `**/${p}`;
  let re = '';
  let inBraces = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*') {
      if (p[i + 1] === '*') {
        const slashAfter = p[i + 2] === '/';
        re += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = p.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        let cls = p.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
        re += `[${cls}]`;
        i = end;
      }
    } else if (c === '{') {
      inBraces++;
      re += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces--;
      re += ')';
    } else if (c === ',' && inBraces > 0) re += '|';
    else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  const out = new RegExp(`^${re}$`);
  cache.set(pattern, out);
  return out;
}

const SKIP_DIRS = new Set(['.git', 'node_modules']);

export interface WalkedFile {
  /** '/'-separated, relative to the root. */
  rel: string;
  abs: string;
  mtimeMs: number;
  size: number;
}

/** Files under `root` whose relative path matches; skips .git and node_modules unless named. */
export async function walkGlob(root: string, pattern: string, signal?: AbortSignal, limit = 100_000): Promise<WalkedFile[]> {
  const re = globToRegExp(pattern);
  const namesSkipped = [...SKIP_DIRS].filter((d) => pattern.includes(d));
  const skip = new Set([...SKIP_DIRS].filter((d) => !namesSkipped.includes(d)));
  const out: WalkedFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    if (signal?.aborted || out.length >= limit) return;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (signal?.aborted || out.length >= limit) return;
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name)) await walk(abs);
      } else if (e.isFile()) {
        const rel = relative(root, abs).split(sep).join('/');
        if (!re.test(rel)) continue;
        try {
          const st = await fs.stat(abs);
          out.push({ rel, abs, mtimeMs: st.mtimeMs, size: st.size });
        } catch {
          // vanished while walking
        }
      }
    }
  };
  await walk(root);
  return out;
}
