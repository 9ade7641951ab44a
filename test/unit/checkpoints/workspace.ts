// A real workspace (a git repository with a commit) and a store folder for the checkpoint tests.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CheckpointStore, type CheckpointStoreOptions } from '../../../src/checkpoints/store';

export const tmp = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function write(root: string, rel: string, text: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
}

/** A repository with these files committed; returns its real path. */
export async function repo(files: Record<string, string>): Promise<string> {
  const root = tmp('tl-cp-ws-');
  git(root, 'init', '-q');
  for (const [rel, text] of Object.entries(files)) write(root, rel, text);
  // git trusts a file's stat only when it is older than the index (else "racily clean").
  await sleep(30);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial', '--allow-empty');
  return root;
}

export async function openStore(workspace: string, extra: Partial<CheckpointStoreOptions> = {}, dir = tmp('tl-cp-store-')) {
  const opened = await CheckpointStore.open({ dir, workspace, ...extra });
  return { ...opened, dir };
}

/** What a path holds: 'absent', 'link:<text>', or the file's bytes as hex-tagged text. */
export function state(path: string): string {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return 'absent';
  }
  if (st.isSymbolicLink()) return `link:${readlinkSync(path)}`;
  if (st.isDirectory()) return 'dir';
  return `file:${(st.mode & 0o777).toString(8)}:${readFileSync(path).toString('base64')}`;
}

/** A hash of every entry under `dir` (names, kinds, bytes): whether anything in it changed. */
export function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      h.update(`${p}\0${st.isDirectory() ? 'd' : st.isSymbolicLink() ? `l${readlinkSync(p)}` : readFileSync(p).toString('base64')}\0`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return h.digest('hex');
}
