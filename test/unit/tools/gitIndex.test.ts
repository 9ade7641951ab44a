// The index names a downloaded git folder holds (tools/gitIndex.ts): pass 57 C3, C4 (an entry named
// `../home/.ssh/id_rsa`), pass 60 C1 (the extended-flags bit in a version-2 index moves the name),
// C3 (index.threads and a forged IEOT: every git is told to read in order), M1 (long names).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badIndexName, indexProblem } from '../../../src/tools/gitIndex';
import { bashGitSettings } from '../../../src/tools/gitGuard';

/** A version-2 index of one entry, as git lays it out (its checksum is not read here). */
function indexWith(name: string, { extended = false } = {}): Buffer {
  const bytes = Buffer.from(name);
  const fixed = Buffer.alloc(60);
  fixed.writeUInt32BE(0o100644, 24);
  const flags = Buffer.alloc(2);
  flags.writeUInt16BE((extended ? 0x4000 : 0) | Math.min(bytes.length, 0xfff));
  let entry = Buffer.concat([fixed, flags, extended ? Buffer.alloc(2) : Buffer.alloc(0), bytes]);
  entry = Buffer.concat([entry, Buffer.alloc(8 - (entry.length % 8))]);
  const header = Buffer.alloc(12);
  header.write('DIRC');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(1, 8);
  return Buffer.concat([header, entry, Buffer.alloc(20)]);
}

describe('the names in a git index', () => {
  it('names git would refuse from a user are found, ordinary ones pass', () => {
    for (const name of ['../home/.ssh/id_rsa', 'a/../../x', '/etc/passwd', '.git/config', 'a/.GIT/hooks/x', 'a//b']) assert.ok(badIndexName(name), name);
    for (const name of ['src/a.ts', 'dir/', 'a..b/c', 'back\\slash']) assert.equal(badIndexName(name), undefined, name);
    assert.equal(indexProblem(indexWith('src/a.ts')), undefined);
    assert.match(indexProblem(indexWith('../home/.ssh/id_rsa')) ?? '', /\.\.\/home/);
  });

  it('60 C1: an entry with the extended-flags bit is read past its two flag bytes, version 2 too', () => {
    assert.match(indexProblem(indexWith('../home/.ssh/id_rsa', { extended: true })) ?? '', /\.\.\/home/);
    assert.equal(indexProblem(indexWith('src/a.ts', { extended: true })), undefined);
  });

  it('60 M1: a name longer than a path can be stops the reading', () => {
    assert.match(indexProblem(indexWith(`${'a/'.repeat(2500)}x`)) ?? '', /longer than/);
  });

  it('60 C3: every git a Bash command starts reads the index in order', () => {
    assert.ok(bashGitSettings([]).some(([k, v]) => k === 'index.threads' && v === '1'));
  });
});
