import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { archiveTabName } from '../../../src/sessions/archiveName';

describe('archiveTabName', () => {
  const at = new Date(2026, 10, 23, 9, 5).getTime();

  it('names the tab after the session and the date, not the file id', () => {
    assert.equal(archiveTabName('Fix the login form', at), 'Fix the login form — archived 2026-11-23 09:05.md');
  });

  it('keeps nothing a path or a URI could split on, and stays short', () => {
    const name = archiveTabName('a/b\\c:d?e#f%g\u0007h', at);
    const titlePart = name.split(' — archived ')[0]!;
    assert.ok(![...'/\\:?#%\u0007'].some((c) => titlePart.includes(c)), titlePart);
    assert.equal(titlePart, 'a b c d e f g h');
    assert.ok(archiveTabName('x'.repeat(500), at).length < 100);
    assert.match(archiveTabName('   ', at), /^Untitled session — /);
  });
});
