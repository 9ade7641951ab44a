import { displayRel, imageOf, type StoreCore } from './core';
import { sameImage, type Image } from './manifest';
import { lineCounts, type LineCounts } from './textDiff';

export interface SessionDiffEntry extends LineCounts {
  path: string;
  rel: string;
  status: 'added' | 'deleted' | 'modified';
  /** The first copy kept in this session (a blob), or why there is none. */
  before: Image;
  now: Image;
  /** The first copy's bytes and the file's bytes now, where they are files (for a unified diff). */
  beforeBytes?: Buffer;
  nowBytes?: Buffer;
}

/**
 * Every file this session changed, against how it was before its first change the store still
 * holds (the oldest retained checkpoint), as it is now. Files changed and then changed back are
 * left out; a file whose first change came from Bash with no copy kept is listed with `before`
 * unknown and no counts.
 */
export async function sessionDiff(core: StoreCore): Promise<SessionDiffEntry[]> {
  const out: SessionDiffEntry[] = [];
  for (const [path, { image: before }] of core.ledger.firstImages()) {
    const now = await imageOf(path, core.maxFileBytes);
    if (before.k !== 'unknown' && sameImage(before, now.image)) continue;
    const beforeBytes = before.k === 'file' ? await core.blobs.get(before.h) : undefined;
    const status = before.k === 'absent' ? 'added' : now.image.k === 'absent' ? 'deleted' : 'modified';
    const counts = before.k === 'unknown' || now.image.k === 'unknown' ? { added: 0, removed: 0, binary: false, approximate: true } : lineCounts(beforeBytes, now.bytes);
    out.push({ path, rel: displayRel(core.workspace, path), status, before, now: now.image, ...counts, ...(beforeBytes ? { beforeBytes } : {}), ...(now.bytes ? { nowBytes: now.bytes } : {}) });
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : 1));
}
