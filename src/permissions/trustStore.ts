// The folders the user trusts, remembered in the user's own state folder: never in the folder
// itself, so a repository cannot declare itself trusted. A folder is known by its real path, and
// trusting one trusts that folder only: a clone made later inside a trusted folder is a stranger.
import { join, resolve } from 'node:path';
import { parseJsonText } from '../fs/jsonText';
import { withFileLock } from '../fs/lock';
import { realPathOf } from '../fs/paths';
import { readRegularFile } from '../fs/read';
import { inspect } from '../fs/stat';
import { writeFileAtomic } from '../fs/write';

const TRUST_FILE = 'trusted-folders.json';
const MAX_BYTES = 1024 * 1024;

export interface TrustedFolder {
  /** The folder's real path. */
  path: string;
  /** ISO time the user trusted it. */
  trustedAt: string;
}

/** The trust file exists but cannot be used: nothing is trusted, and nothing overwrites it. */
export class TrustFileError extends Error {}

/** The real path of a folder, or undefined when it is not one. */
export async function realFolder(dir: string): Promise<string | undefined> {
  const real = await realPathOf(resolve(dir));
  return real !== undefined && (await inspect(real)).kind === 'folder' ? real : undefined;
}

function parse(text: string, file: string): TrustedFolder[] {
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new TrustFileError(`${file} is ${parsed.message}`);
  const json = parsed.value;
  const folders = typeof json === 'object' && json !== null ? (json as { folders?: unknown }).folders : undefined;
  if (!Array.isArray(folders)) throw new TrustFileError(`${file} has no "folders" list`);
  const out: TrustedFolder[] = [];
  for (const f of folders) {
    const path = (f as { path?: unknown } | null)?.path;
    const at = (f as { trustedAt?: unknown } | null)?.trustedAt;
    // A path that is not absolute could only ever match by accident.
    if (typeof path !== 'string' || (!path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path))) throw new TrustFileError(`${file} lists a folder that is not an absolute path: ${JSON.stringify(path)}`);
    out.push({ path, trustedAt: typeof at === 'string' ? at : '' });
  }
  return out;
}

/**
 * `<state>/trusted-folders.json`: `{"version":1,"folders":[{"path":"/real/path","trustedAt":"…"}]}`,
 * replaced atomically under a lock, so two runs trusting at once both land.
 */
export class TrustStore {
  readonly file: string;

  constructor(readonly stateDir: string) {
    this.file = join(stateDir, TRUST_FILE);
  }

  /** Every trusted folder. Throws TrustFileError when the file is there but unusable. */
  async list(): Promise<TrustedFolder[]> {
    const read = await readRegularFile(this.file, MAX_BYTES);
    if (!read.ok) {
      if (read.reason === 'missing') return [];
      throw new TrustFileError(`${this.file} cannot be read (${read.reason === 'too-large' ? 'larger than 1 MB' : read.reason === 'unreadable' ? (read.error?.code ?? 'unreadable') : 'not a regular file'})`);
    }
    return parse(read.bytes.toString('utf8'), this.file);
  }

  /** Whether this real path is trusted; a damaged file trusts nothing (the error says why). */
  async isTrusted(realPath: string): Promise<{ trusted: boolean; problem?: string }> {
    try {
      return { trusted: (await this.list()).some((f) => f.path === realPath) };
    } catch (err) {
      if (err instanceof TrustFileError) return { trusted: false, problem: err.message };
      throw err;
    }
  }

  private async update(change: (folders: TrustedFolder[]) => TrustedFolder[] | undefined): Promise<void> {
    await withFileLock(`${this.file}.lock`, async () => {
      // Read under the lock: a damaged file throws here and is left as it is.
      const next = change(await this.list());
      if (next) await writeFileAtomic(this.file, `${JSON.stringify({ version: 1, folders: next }, null, 2)}\n`);
    });
  }

  /** Trusts a folder (its real path). `already`: it was trusted before. */
  async trust(realPath: string, now = new Date()): Promise<{ already: boolean }> {
    let already = false;
    await this.update((folders) => {
      already = folders.some((f) => f.path === realPath);
      return already ? undefined : [...folders, { path: realPath, trustedAt: now.toISOString() }];
    });
    return { already };
  }

  /** Forgets a folder, by its real path or, for one that no longer exists, the path as trusted. */
  async revoke(path: string): Promise<{ was: boolean }> {
    let was = false;
    await this.update((folders) => {
      const rest = folders.filter((f) => f.path !== path);
      was = rest.length !== folders.length;
      return was ? rest : undefined;
    });
    return { was };
  }
}
