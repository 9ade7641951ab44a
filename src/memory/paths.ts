import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { isAbsolute, join, normalize, parse, resolve } from 'node:path';
import { realLocation, relativeWithin, within } from '../fs/paths';

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Folders a memory folder may never be in: the agent writes there without asking. System
 * folders (a write there changes the machine), and, under the home folder, credential stores
 * and the settings of the editors and agents that decide what runs without asking.
 */
const SYSTEM_FOLDERS: readonly string[] = [
  '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/dev', '/proc', '/sys', '/var', '/run', '/snap', '/root',
  '/System', '/Library', '/Applications', '/private/etc', '/private/var',
  'C:\\Windows', 'C:\\Program Files', 'C:\\Program Files (x86)', 'C:\\ProgramData',
];

/** Relative to the home folder. ~/.claude is refused too, except its per-project memory folders. */
const HOME_FOLDERS: readonly string[] = [
  '.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.pki', '.password-store',
  '.config/gcloud', '.config/gh', '.local/share/keyrings',
  '.claude',
  '.vscode', '.vscode-server', '.config/Code', '.config/Code - Insiders', '.config/VSCodium', '.cursor', '.config/Cursor',
  'Library/Application Support/Code', 'AppData/Roaming/Code',
];

/** `~/.claude/projects/<project>/memory`: the reference CLI's own memory folders. */
function isClaudeMemoryFolder(path: string, home: string): boolean {
  const rel = relativeWithin(join(home, '.claude', 'projects'), path);
  if (!rel) return false;
  const parts = rel.split('/');
  return parts.length >= 2 && parts[1] === 'memory';
}

const sameOrUnder = within;

/** Why `path` (absolute, normalised) may not hold memories, or undefined when it may. */
function refusal(path: string, home: string): string | undefined {
  const homeIsRoot = within('/root', home);
  for (const f of SYSTEM_FOLDERS) {
    if (f === '/root' && homeIsRoot) continue;
    if (sameOrUnder(f, path)) return `${path} is inside the system folder ${f}`;
  }
  if (resolve(path) === resolve(home)) return 'the home folder itself is too broad';
  // Files under any .claude folder are instructions or settings (a project's rules, say).
  if (path.split(/[\\/]/).some((part) => part.toLowerCase() === '.claude') && !isClaudeMemoryFolder(path, home)) {
    return `${path} is inside a .claude folder, whose files are instructions and settings`;
  }
  for (const f of HOME_FOLDERS) {
    const abs = join(home, f);
    if (!sameOrUnder(abs, path)) continue;
    if (f === '.claude' && isClaudeMemoryFolder(path, home)) continue;
    return `${path} is inside ${abs}, which holds credentials or settings that decide what runs`;
  }
  return undefined;
}

export interface MemoryPathOptions {
  home?: string;
  /** Resolves symlinks (tests inject one); default: the real location on disk. */
  realLocation?(path: string): string;
}

/**
 * A memory folder becomes a place the agent may write without asking, so a setting that
 * points at `/`, a drive root, a UNC share, a relative path, a system folder or a credential
 * store (directly or through a symlink) is refused outright.
 */
export function validateMemoryPath(raw: string, opts: MemoryPathOptions = {}): PathCheck {
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
  const home = resolve(opts.home ?? homedir());
  const lexical = refusal(path, home);
  if (lexical) return { ok: false, reason: lexical };
  // Judged again where it really is: a harmless-looking path may be a link into ~/.ssh.
  const real = (opts.realLocation ?? realLocation)(path);
  if (real !== path) {
    const viaLink = refusal(real, (opts.realLocation ?? realLocation)(home));
    if (viaLink) return { ok: false, reason: `${path} leads to ${real}: ${viaLink}` };
  }
  return { ok: true, path };
}

/** Folder-safe name for a repository root: readable tail plus a short hash for uniqueness. */
function sanitizeKey(canonicalRoot: string): string {
  const tail = canonicalRoot.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'root';
  const hash = createHash('sha256').update(canonicalRoot).digest('hex').slice(0, 10);
  return `${tail}-${hash}`;
}

export interface MemoryDirInput {
  /** `threadline.memoryDirectory` (its user-level value only); validated, wins when set. */
  setting?: string | undefined;
  /** Where the editor keeps per-user data (VS Code global storage, or ~/.threadline for the CLI). */
  globalStorageDir: string;
  /**
   * The repository's canonical root (the parent of the common git dir), shared by all its
   * worktrees; the working folder when not in a repository.
   */
  canonicalRoot: string;
  home?: string;
}

export type MemoryDirResult = { ok: true; dir: string; source: 'setting' | 'default' } | { ok: false; reason: string };

export function resolveMemoryDir(input: MemoryDirInput): MemoryDirResult {
  if (input.setting && input.setting.trim()) {
    const check = validateMemoryPath(input.setting, input.home ? { home: input.home } : {});
    if (!check.ok) return { ok: false, reason: `threadline.memoryDirectory refused: ${check.reason}` };
    return { ok: true, dir: check.path, source: 'setting' };
  }
  return { ok: true, dir: join(resolve(input.globalStorageDir), 'memory', sanitizeKey(resolve(input.canonicalRoot))), source: 'default' };
}
