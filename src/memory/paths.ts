import { createHash } from 'node:crypto';
import { isAbsolute, join, normalize, parse, resolve } from 'node:path';

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/**
 * A memory folder becomes a place the agent may write without asking, so a setting that
 * points at `/`, a drive root, a UNC share or a relative path is refused outright.
 */
export function validateMemoryPath(raw: string): PathCheck {
  if (raw.includes('\0')) return { ok: false, reason: 'the path contains a NUL byte' };
  const trimmed = raw.trim();
  if (!trimmed) return { ok: false, reason: 'the path is empty' };
  if (/^\\\\|^\/\//.test(trimmed)) return { ok: false, reason: 'UNC and network paths are not allowed' };
  if (/^[a-zA-Z]:[\\/]?$/.test(trimmed)) return { ok: false, reason: 'a drive root is not allowed' };
  if (!isAbsolute(trimmed) && !/^[a-zA-Z]:[\\/]/.test(trimmed)) return { ok: false, reason: 'the path must be absolute' };
  const path = normalize(trimmed).replace(/[\\/]+$/, '') || parse(trimmed).root;
  const root = parse(path).root;
  if (path === root || path.length < 3) return { ok: false, reason: 'the filesystem root is not allowed' };
  // Near-root: a single top-level folder such as /etc or /home is too broad to hand over.
  const depth = path.slice(root.length).split(/[\\/]/).filter(Boolean).length;
  if (depth < 2) return { ok: false, reason: `${path} is too close to the filesystem root` };
  return { ok: true, path };
}

/** Folder-safe name for a repository root: readable tail plus a short hash for uniqueness. */
export function sanitizeKey(canonicalRoot: string): string {
  const tail = canonicalRoot.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'root';
  const hash = createHash('sha256').update(canonicalRoot).digest('hex').slice(0, 10);
  return `${tail}-${hash}`;
}

export interface MemoryDirInput {
  /** `threadline.memoryDirectory`; validated, wins when set. */
  setting?: string | undefined;
  /** Where the editor keeps per-user data (VS Code global storage, or ~/.threadline for the CLI). */
  globalStorageDir: string;
  /**
   * The repository's canonical root (the parent of the common git dir), shared by all its
   * worktrees; the working folder when not in a repository.
   */
  canonicalRoot: string;
}

export type MemoryDirResult = { ok: true; dir: string; source: 'setting' | 'default' } | { ok: false; reason: string };

export function resolveMemoryDir(input: MemoryDirInput): MemoryDirResult {
  if (input.setting && input.setting.trim()) {
    const check = validateMemoryPath(input.setting);
    if (!check.ok) return { ok: false, reason: `threadline.memoryDirectory refused: ${check.reason}` };
    return { ok: true, dir: check.path, source: 'setting' };
  }
  return { ok: true, dir: join(resolve(input.globalStorageDir), 'memory', sanitizeKey(resolve(input.canonicalRoot))), source: 'default' };
}
