import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LOCAL_REMOTE, settingRefusal } from '../../../src/tools/gitSettings';

const ctx = { workspace: '/ws/proj', top: '/ws/proj', home: '/home/u' };

// Every setting git documents as naming a file it reads: each is judged by where the file is,
// whether it is on the short list or caught by its name.
const FILE_SETTINGS = [
  'commit.template', 'blame.ignoreRevsFile', 'core.excludesFile', 'diff.orderFile', 'format.signatureFile', 'init.templateDir',
  'mailmap.file', 'gpg.ssh.allowedSignersFile', 'http.cookieFile', 'http.sslCert', 'http.sslKey',
  'sendemail.aliasesFile', 'http.https://example.com.sslCert',
];

describe('which repository settings git may obey inside Bash', () => {
  for (const name of FILE_SETTINGS) {
    it(`${name} naming a file outside the workspace stops the command; inside, it passes`, () => {
      const entry = (value: string) => ({ name: name.toLowerCase(), value });
      for (const value of ['/etc/passwd', '~/.ssh/id_rsa', '../../secret']) {
        const why = settingRefusal(entry(value), ctx);
        assert.ok(why && why.includes(value), `${name}=${value}: ${why}`);
      }
      assert.equal(settingRefusal(entry('notes/tmpl.txt'), ctx), undefined);
    });
  }

  // Git expands these before it opens the file; what it then opens cannot be known exactly here
  // (its install folder, another user's home from the password database, its own /proc/self).
  it('a path spelled with %(prefix)/, ~user/, ~, :(optional) or through /proc/self is judged as git expands it', () => {
    for (const value of ['%(prefix)/../proc/self/cwd/../.ssh/id_rsa', '%(prefix)/share/x', '%(prefix)//etc/passwd', '~root/x', '~nobody', '~', ':(optional)/etc/passwd', ':(optional)~/.ssh/id_rsa', ':(optional)%(prefix)/x', '/proc/self/cwd/x', '/proc/thread-self/cwd/x']) {
      for (const name of ['commit.template', 'core.excludesfile', 'blame.ignorerevsfile', 'http.sslkey']) {
        const why = settingRefusal({ name, value }, ctx);
        assert.ok(why && why.includes(value), `${name}=${value}: ${why}`);
      }
    }
    // What git reads as plain relative names stays inside: `./` before `%(prefix)` is git's own escape.
    for (const value of [':(optional)notes/t.txt', './%(prefix)/t', '%(prefix)', 'a~b/t']) assert.equal(settingRefusal({ name: 'commit.template', value }, ctx), undefined, value);
  });

  // Pass 51 N1: fetch.fsck.skipList = ~/.git-credentials made `git fetch` print its first line.
  // Git reads paths under names no suffix gives away; any value spelled as a path is judged.
  it('a value spelled as a path outside the workspace stops the command, whatever its key', () => {
    for (const name of ['fetch.fsck.skiplist', 'receive.fsck.skiplist', 'fetch.bundleuri', 'gc.somefuturekey', 'transfer.x']) {
      for (const value of ['~/.git-credentials', '/home/u/.npmrc', '../../.netrc', 'file:///home/u/.pgpass', 'a/../../../x']) {
        const why = settingRefusal({ name, value }, ctx);
        assert.ok(why && why.includes(value), `${name}=${value}: ${why}`);
      }
    }
    for (const [name, value] of [['fetch.fsck.skiplist', 'skip.txt'], ['fetch.fsck.skiplist', './a/../skip.txt'], ['user.name', 'A B'], ['remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'], ['branch.main.merge', 'refs/heads/main']] as const) {
      assert.equal(settingRefusal({ name, value }, ctx), undefined, `${name}=${value}`);
    }
  });

  // Pass 54 P1: a path need not look like one: a work-tree name that is a committed link, or %(prefix)//.
  it('every value is judged as the path git would open: a link in the work tree, %(prefix)//', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-54p1-')));
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'ci'), { recursive: true });
    writeFileSync(join(root, '.git-credentials'), 'https://u:t@h\n');
    symlinkSync('../../.git-credentials', join(ws, 'ci', 'k3'));
    writeFileSync(join(ws, 'skip.txt'), '');
    const here = { workspace: ws, top: ws, home: join(root, 'home') };
    for (const value of ['ci/k3', './ci/k3', '%(prefix)//etc/passwd']) {
      const why = settingRefusal({ name: 'fetch.fsck.skiplist', value }, here);
      assert.ok(why && why.includes(value), `${value}: ${why}`);
    }
    for (const value of ['skip.txt', 'true', 'refs/heads/main']) assert.equal(settingRefusal({ name: 'fetch.fsck.skiplist', value }, here), undefined, value);
    // Pass 57 C1: git keeps a quoted tab or a no-break space that trim() drops.
    for (const name of ['\tk', 'k\u00a0']) {
      symlinkSync('../.git-credentials', join(ws, name));
      const why = settingRefusal({ name: 'fetch.fsck.skiplist', value: name }, here);
      assert.ok(why?.includes('outside'), `${JSON.stringify(name)}: ${why}`);
    }
    // Pass 57 M1: a path of a thousand parts is not walked.
    assert.match(settingRefusal({ name: 'fetch.fsck.skiplist', value: `${'d/'.repeat(1000)}${'../'.repeat(1000)}x` }, here) ?? '', /too long/);
  });

  it('a remote on this machine spelled with ~user/ or %(prefix)/ turns local transport off', () => {
    for (const value of ['~root/repo', '%(prefix)/../srv/repo', '~/other']) assert.equal(settingRefusal({ name: 'remote.origin.url', value }, ctx), LOCAL_REMOTE, value);
    assert.equal(settingRefusal({ name: 'remote.origin.url', value: 'vendor/lib.git' }, ctx), undefined);
  });

  // Your credential helper answers for the host git talks to; a proxy, a certificate authority or
  // a name-to-address map of the repository's own decides who is on the other end (pass 22, G6).
  it("settings that choose where git's connections go, or whom they trust, stop the command wherever their files are", () => {
    const stopped = [
      ['http.proxy', 'http://127.0.0.1:9'],
      ['http.https://github.com.proxy', 'http://127.0.0.1:9'],
      ['http.https://github.com/.proxy', 'socks5://evil:1080'],
      ['remote.origin.proxy', 'http://127.0.0.1:9'],
      ['remote.origin.proxyauthmethod', 'basic'],
      ['http.sslverify', 'false'],
      ['http.https://github.com.sslverify', '0'],
      ['http.sslverify', 'no'],
      ['http.sslcainfo', 'ca.pem'],
      ['http.sslcapath', 'certs'],
      ['http.proxysslcainfo', 'ca.pem'],
      ['http.proxysslcert', 'c.pem'],
      ['http.proxysslkey', 'k.pem'],
      ['http.curloptresolve', 'github.com:443:127.0.0.1'],
      ['http.sslcipherlist', 'NULL'],
      ['http.somethingnew', 'x'],
      ['remote.origin.somethingnew', 'x'],
    ];
    for (const [name, value] of stopped) {
      const why = settingRefusal({ name: name!, value }, ctx);
      assert.ok(why && why.includes(name!), `${name}=${value}: ${why}`);
    }
    const plain = [
      ['http.postbuffer', '524288000'],
      ['http.sslverify', 'true'],
      ['http.https://github.com.sslverify', 'yes'],
      ['http.version', 'HTTP/1.1'],
      ['http.extraheader', 'X-A: b'],
      ['http.lowspeedlimit', '1000'],
      ['remote.origin.url', 'https://github.com/a/b.git'],
      ['remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'],
      ['remote.origin.prune', 'true'],
      ['remote.origin.tagopt', '--no-tags'],
      ['remote.origin.promisor', 'true'],
      ['remote.origin.partialclonefilter', 'blob:none'],
    ];
    for (const [name, value] of plain) assert.equal(settingRefusal({ name: name!, value }, ctx), undefined, `${name}=${value}`);
  });
});
