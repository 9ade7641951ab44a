import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { settingRefusal } from '../../../src/tools/gitSettings';

const ctx = { workspace: '/ws/proj', top: '/ws/proj', home: '/home/u' };

// Every setting git documents as naming a file it reads: each is judged by where the file is,
// whether it is on the short list or caught by its name.
const FILE_SETTINGS = [
  'commit.template', 'blame.ignoreRevsFile', 'core.excludesFile', 'diff.orderFile', 'format.signatureFile', 'init.templateDir',
  'mailmap.file', 'gpg.ssh.allowedSignersFile', 'http.cookieFile', 'http.sslCert', 'http.sslKey', 'http.sslCAInfo',
  'http.sslCAPath', 'sendemail.aliasesFile', 'http.https://example.com.sslCert',
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
});
