// Programs that run a language or settings of their own (pass 27's C4, C5, C6, C11): a rule
// naming ssh, scp, sftp, openssl, sqlite3 or ed covers only what is known to stay inside what the
// command shows. ssh's -o ProxyCommand, openssl's -engine, sqlite3's `.shell` and readfile(), and
// ed's `!` had been allowed by `Bash(ssh:*)` and the like. Where the program is here, the
// harm is shown too, so the test keeps proving the danger is real and not only that we ask.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { sqlWords } from '../../src/permissions/bash/sqlProgram';
import { bashEngine, hasProgram, runBash, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

const ws = tempDir('langs');
writeFileSync(join(ws, 'app.db'), '');
writeFileSync(join(ws, 'q.sql'), '.shell touch pwned\n');
const rules = { allow: ['ssh', 'scp', 'sftp', 'openssl', 'sqlite3', 'ed', 'echo', 'cat'].map((p) => `Bash(${p}:*)`) };
const decide = (command: string) => bashEngine(ws, rules, checker).decide(command).behavior;

function verdicts(commands: string[]): Record<string, string> {
  return Object.fromEntries(commands.map((c) => [c, decide(c)]));
}
const all = (commands: string[], behavior: string) => Object.fromEntries(commands.map((c) => [c, behavior]));

const has = hasProgram;

describe('ssh, scp and sftp: settings that run programs or load code', () => {
  const asks = [
    "ssh -o ProxyCommand='touch pwned' h",
    'ssh -oProxyCommand=x h',
    'ssh -o "LocalCommand x" -o PermitLocalCommand=yes h',
    'ssh -o KnownHostsCommand=./x h',
    'ssh -o PKCS11Provider=./p.so h',
    'ssh -Ao ProxyCommand=x h',
    'ssh -o ConnectTimeout=$X h',
    'ssh -o "Port=%d" h',
    'ssh -F ./cfg h',
    'ssh -I ./p.so h',
    'ssh -J x h',
    'ssh -E log h',
    'ssh -S sock h',
    'scp -S ./evil a h:b',
    'scp -o ProxyCommand=x a h:b',
    'scp -D ./server a h:b',
    'scp -F cfg a h:b',
    'sftp -b batch h',
    'sftp -S ./evil h',
    "echo '!touch pwned' | sftp h",
  ];
  const allows = ['ssh -o BatchMode=yes -p 22 h uptime', "ssh -o 'ConnectTimeout 5' -l u h", 'ssh -oStrictHostKeyChecking=no -qT h', 'scp -P 2222 -r a h:b', 'sftp -P 22 h'];

  it('ask', () => assert.deepEqual(verdicts(asks), all(asks, 'ask')));
  it('connection settings still pass', () => assert.deepEqual(verdicts(allows), all(allows, 'allow')));
  it('ProxyCommand runs a program here, before any connection', { skip: !has('ssh') }, async () => {
    const cwd = tempDir('ssh');
    await runBash(cwd, "ssh -o BatchMode=yes -o ProxyCommand='touch pwned' nohost.invalid true");
    assert.ok(existsSync(join(cwd, 'pwned')));
  });
});

describe('openssl: engines, providers, settings and the environment', () => {
  const asks = [
    'openssl req -engine ./e.so -new',
    'openssl x509 -in c.pem --engine x',
    'openssl req -verify -engine x',
    'openssl req -config ./c.cnf -new',
    'openssl list -provider-path . -provider p',
    'openssl enc -aes-256-cbc -pass env:ANTHROPIC_API_KEY -P',
    'openssl rand -writerand ../x 8',
    'openssl s_client -connect h:443 -keylogfile k',
    'openssl x509 -engine=x -in c.pem',
  ];
  const allows = [
    'openssl version',
    'openssl x509 -in c.pem -noout -text',
    'openssl dgst -sha256 app.db',
    'openssl rand -hex 16',
    'openssl enc -aes-256-cbc -pbkdf2 -pass pass:x -in app.db -out x.enc',
    'openssl s_client -connect h:443 -servername h -showcerts',
    'openssl req -new -newkey rsa:2048 -nodes -keyout k.pem -out r.csr -subj /CN=x',
  ];
  it('ask', () => assert.deepEqual(verdicts(asks), all(asks, 'ask')));
  it('ordinary use still passes', () => assert.deepEqual(verdicts(allows), all(allows, 'allow')));
});

describe('sqlite3: dot-commands, file functions and fed scripts', () => {
  const asks = [
    "sqlite3 app.db '.shell touch pwned'",
    "sqlite3 app.db '.system touch pwned'",
    "sqlite3 app.db $'.sh\\x65ll touch pwned'",
    "sqlite3 app.db '.read q.sql'",
    "sqlite3 app.db '.output ../x'",
    "sqlite3 app.db \"select readfile('/etc/passwd')\"",
    'sqlite3 app.db \'select "READFILE"(1)\'',
    "sqlite3 app.db 'select [writefile](1, 2)'",
    "sqlite3 -safe app.db \"select data from fsdir('/etc/hostname')\"",
    "sqlite3 app.db \"attach '/tmp/x' as y\"",
    "sqlite3 app.db \"vacuum into '/tmp/x'\"",
    "sqlite3 app.db \"select load_extension('./x')\"",
    "sqlite3 app.db 'create virtual table t using fsdir'",
    "sqlite3 app.db 'select 1' -cmd '.shell id'",
    'sqlite3 -init q.sql app.db',
    'sqlite3 -A -cf x.zip ~/.ssh',
    "sqlite3 'file:/etc/x.db?vfs=unix' 'select 1'",
    "sqlite3 app.db \"select 'never ends\"",
    "echo '.shell touch pwned' | sqlite3 app.db",
    'sqlite3 app.db < q.sql',
    "sqlite3 app.db <<< '.shell touch pwned'",
    'sqlite3 app.db "$Q"',
  ];
  const allows = ["sqlite3 app.db 'select 1'", "sqlite3 -json app.db 'select * from t where a = 1; select count(*) from u'", 'sqlite3 app.db .tables', "sqlite3 -header app.db '.schema t'", "sqlite3 app.db \"select 'a;b' -- readme\""];
  it('ask', () => assert.deepEqual(verdicts(asks), all(asks, 'ask')));
  it('queries that reach only the database still pass', () => assert.deepEqual(verdicts(allows), all(allows, 'allow')));
  it('-safe does not keep fsdir from reading a file', { skip: !has('sqlite3') }, () => {
    const out = execFileSync('sqlite3', ['-safe', ':memory:', `select cast(data as text) from fsdir('${join(ws, 'q.sql')}')`], { encoding: 'utf8' });
    assert.match(out, /touch pwned/);
  });
  it('words of SQL are read as SQLite reads them', () => {
    assert.deepEqual(sqlWords(`select "a""b", [c d], 'it''s', x -- y\n/* z */ w`), ['select', 'a"b', 'c d', "it's", 'x', 'w']);
    assert.equal(sqlWords("select 'open"), undefined);
  });
});

describe('ed: commands fed to it', () => {
  const asks = ["ed -s app.db <<< '!touch pwned'", "echo 'r /etc/passwd' | ed -s app.db", 'ed -s app.db < q.sql'];
  it('ask', () => assert.deepEqual(verdicts(asks), all(asks, 'ask')));
  it('ed with nothing fed to it reads nothing', () => assert.equal(decide('ed -s app.db'), 'allow'));
});

describe('pass 29 F10: man and roff read what a page .so-includes', () => {
  const ask = ['man ./evil.1', 'man -l evil.1', 'man --local-file=evil.1', 'groff -man evil.1', 'nroff -man x/evil.1', "echo '.so /etc/passwd' | groff", 'mandoc evil.1'];
  const allow = ['man ls', 'man 5 crontab', 'man -k printf', 'groff -v'];
  const d = (c: string) => bashEngine(ws, { allow: ['Bash(man:*)', 'Bash(groff:*)', 'Bash(nroff:*)', 'Bash(mandoc:*)', 'Bash(echo:*)'] }, checker).decide(c).behavior;
  it('ask', () => assert.deepEqual(Object.fromEntries(ask.map((c) => [c, d(c)])), all(ask, 'ask')));
  it('pages by name still pass', () => assert.deepEqual(Object.fromEntries(allow.map((c) => [c, d(c)])), all(allow, 'allow')));
  it('man really inlines the file a local page names', { skip: !has('man') }, () => {
    const page = join(ws, 'evil.1');
    writeFileSync(join(ws, 'canary'), 'CANARY-51e\n');
    writeFileSync(page, `.TH X 1\n.SH NAME\nx \\- y\n.SH DESC\n.so ${join(ws, 'canary')}\n`);
    const out = execFileSync('man', ['-l', page], { encoding: 'utf8', env: { ...process.env, MANPAGER: 'cat', PAGER: 'cat' } });
    assert.match(out, /CANARY-51e/);
  });
});
