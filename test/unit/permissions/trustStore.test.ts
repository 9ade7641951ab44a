import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { realFolder, TrustFileError, TrustStore } from '../../../src/permissions/trustStore';

const tmp = (tag: string) => realpathSync(mkdtempSync(join(tmpdir(), `tl-trust-${tag}-`)));

describe('the trust store', () => {
  it('remembers, lists and forgets folders by real path, in a private file', async () => {
    const store = new TrustStore(join(tmp('state'), 'nested'));
    const a = tmp('a');
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(await store.trust(a, new Date('2025-01-02T03:04:05Z')), { already: false });
    assert.deepEqual(await store.trust(a), { already: true });
    assert.deepEqual(await store.list(), [{ path: a, trustedAt: '2025-01-02T03:04:05.000Z' }]);
    assert.deepEqual(await store.isTrusted(a), { trusted: true });
    assert.equal(statSync(store.file).mode & 0o777, 0o600);
    assert.deepEqual(await store.revoke(a), { was: true });
    assert.deepEqual(await store.revoke(a), { was: false });
    assert.deepEqual(await store.isTrusted(a), { trusted: false });
  });

  it('a symlink to a folder names that folder; a child or a parent of a trusted folder is not trusted', async () => {
    const store = new TrustStore(tmp('state'));
    const parent = tmp('p');
    mkdirSync(join(parent, 'child'));
    const link = join(tmp('l'), 'link');
    symlinkSync(parent, link);
    assert.equal(await realFolder(link), parent);
    await store.trust((await realFolder(link))!);
    assert.equal((await store.isTrusted(parent)).trusted, true);
    assert.equal((await store.isTrusted(join(parent, 'child'))).trusted, false);
    assert.equal(await realFolder(join(parent, 'nope')), undefined);
    writeFileSync(join(parent, 'file'), 'x');
    assert.equal(await realFolder(join(parent, 'file')), undefined, 'a file is not a folder');
  });

  it('two runs trusting at once both land', async () => {
    const state = tmp('state');
    const dirs = Array.from({ length: 8 }, (_, i) => tmp(`c${i}`));
    await Promise.all(dirs.map((d) => new TrustStore(state).trust(d)));
    assert.deepEqual((await new TrustStore(state).list()).map((f) => f.path).sort(), [...dirs].sort());
  });

  it('a damaged file trusts nothing, says why, and is never overwritten', async () => {
    const state = tmp('state');
    const store = new TrustStore(state);
    for (const bad of ['{not json', '{"folders": "x"}', '{"folders": [{"path": "relative/path"}]}']) {
      writeFileSync(store.file, bad);
      const r = await store.isTrusted('/x');
      assert.equal(r.trusted, false);
      assert.match(r.problem ?? '', /trusted-folders\.json/);
      await assert.rejects(store.trust(tmp('d')), TrustFileError);
      await assert.rejects(store.revoke('/x'), TrustFileError);
      assert.equal(readFileSync(store.file, 'utf8'), bad);
    }
    mkdirSync(join(state, 'dir'));
    const asFolder = new TrustStore(join(state, 'dir', '..', 'dir', 'inner'));
    mkdirSync(asFolder.file, { recursive: true });
    assert.match((await asFolder.isTrusted('/x')).problem ?? '', /not a regular file/);
  });
});
