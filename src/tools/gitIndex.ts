// The names in a repository's index, checked as git checks a path it is given. Git trusts its own
// index: an entry a downloaded `.git/index` names `../home/.ssh/id_rsa` was compared by `git diff`
// with the file outside, and written there by `git checkout -- .` (pass 57 C3, C4). So the index
// is read here (no program is run) and a name git would refuse from a user stops the command.
// Entries are read in order: every git Threadline starts is told `index.threads=1`, so git reads
// them in order too, not at the offsets an index's own IEOT extension gives (pass 60 C3).
import { join } from 'node:path';
import { folderNames } from '../fs/list';
import { readRegularFile } from '../fs/read';
import { inspect } from '../fs/stat';
import { JudgedFiles } from './judgedFiles';

/** Bytes of index read; a bigger one is not looked through (and stops the command). */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;
/** The longest name (git's PATH_MAX), and all names together. */
const MAX_NAME = 4096;
const MAX_NAMES_TOTAL = 64 * 1024 * 1024;

/** Why a name is not a path git would take inside its work tree, or undefined. */
export function badIndexName(name: string): string | undefined {
  // A sparse index keeps folders as entries ending in `/`.
  const plain = name.endsWith('/') ? name.slice(0, -1) : name;
  if (plain === '' || plain.startsWith('/')) return 'an empty or absolute name';
  for (const part of plain.split('/')) {
    if (part === '' || part === '.' || part === '..') return `a name with a ${part === '' ? 'doubled /' : `"${part}"`} part`;
    if (part.toLowerCase() === '.git') return 'a name inside a .git folder';
  }
  return undefined;
}

/** git's offset-encoded number (index version 4). */
function varint(b: Buffer, at: number): { value: number; next: number } | undefined {
  let i = at;
  if (i >= b.length) return undefined;
  let c = b[i++]!;
  let value = c & 127;
  while (c & 128) {
    if (i >= b.length) return undefined;
    c = b[i++]!;
    value = ((value + 1) << 7) | (c & 127);
  }
  return { value, next: i };
}

/** The first bad name in an index file's bytes, or why it cannot be read; undefined when every name is fine. */
export function indexProblem(b: Buffer, hashBytes = 20): string | undefined {
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'DIRC') return 'is not an index git wrote';
  const version = b.readUInt32BE(4);
  if (version < 2 || version > 4) return `is an index of version ${version}, which Threadline does not read`;
  const count = b.readUInt32BE(8);
  let at = 12;
  let previous = '';
  let total = 0;
  for (let n = 0; n < count; n++) {
    const fixed = 40 + hashBytes;
    if (at + fixed + 2 > b.length) return 'ends in the middle of an entry';
    const flags = b.readUInt16BE(at + fixed);
    let p = at + fixed + 2;
    // Git reads the extended flags wherever the bit is set, version 2 too (pass 60 C1).
    if (flags & 0x4000) p += 2;
    let name: string;
    if (version === 4) {
      const strip = varint(b, p);
      if (!strip || strip.value > previous.length) return 'has an entry Threadline cannot read';
      const end = b.indexOf(0, strip.next);
      if (end < 0) return 'ends in the middle of an entry';
      name = previous.slice(0, previous.length - strip.value) + b.toString('utf8', strip.next, end);
      at = end + 1;
    } else {
      const length = flags & 0xfff;
      const end = length < 0xfff ? p + length : b.indexOf(0, p);
      if (end < 0 || end > b.length) return 'ends in the middle of an entry';
      name = b.toString('utf8', p, end);
      // Entries are padded with NULs to a multiple of 8 bytes, at least one.
      at += (end - at + 8) & ~7;
    }
    // A name longer than a path can be is no file git would write; and a version-4 index builds
    // each name from the one before, so long names make the reading quadratic (pass 60 M1).
    if (name.length > MAX_NAME) return `names a path longer than ${MAX_NAME} bytes`;
    if ((total += name.length) > MAX_NAMES_TOTAL) return `names more than ${MAX_NAMES_TOTAL / 1024 / 1024} MB of paths, too much to look through`;
    const bad = badIndexName(name);
    if (bad) return `names ${JSON.stringify(name)} (${bad}), a file git would reach outside its work tree or inside its own folder`;
    previous = name;
  }
  return undefined;
}

/** Index files already judged, while unchanged. */
const judged = new JudgedFiles();

/** Why the index of a git folder (and a split index's shared parts) must stop the command, or undefined. */
export async function gitIndexProblem(gitDir: string, hashBytes = 20): Promise<string | undefined> {
  // `index` by its name: a listing capped at some count could leave it out (pass 66 C2); the shared
  // parts of a split index are listed, and too many to list is a refusal.
  const listed = await folderNames(gitDir, 100_000);
  if (listed.length >= 100_000) return `keeps more than 100,000 entries in ${gitDir}, too many to look through for its index`;
  const names = ['index', ...listed.filter((n) => n.startsWith('sharedindex.'))];
  for (const name of names) {
    const file = join(gitDir, name);
    const info = await inspect(file, { follow: false });
    if (info.kind === 'missing') continue;
    if (info.kind !== 'file') return `keeps ${file} as something other than a file`;
    const why = await judged.get(file, info, String(hashBytes), async () => {
      if (info.size > MAX_INDEX_BYTES) return `keeps an index of more than ${MAX_INDEX_BYTES / 1024 / 1024} MB, too big to look through`;
      const read = await readRegularFile(file, MAX_INDEX_BYTES);
      return read.ok ? indexProblem(read.bytes, hashBytes) : `keeps ${file}, which cannot be read (${read.reason})`;
    });
    if (why) return `has an index (${file}) that ${why}`;
  }
  return undefined;
}
