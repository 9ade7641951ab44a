// Pass 37, B2 (medium): a deny rule under `~` (`Read(~/**/credentials)`) with a home dot-folder
// that is a link out of the home (`~/.aws -> /data/awsreal`): the Read tool denied
// `~/.aws/credentials` as spelled, but `cat ~/.aws/credentials` under `Bash(cat:*)` was allowed
// (with the target's folder added), as Bash judged the real path only. Both are judged now.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { bashTool, callTool, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

describe('pass 37 B2: a deny rule that names a path through a link out of the home', () => {
  it('holds for Bash as it holds for Read', () => {
    const root = tempDir('spelled');
    const home = join(root, 'home');
    const data = join(root, 'data', 'awsreal');
    mkdirSync(data, { recursive: true });
    mkdirSync(join(home, 'ws'), { recursive: true });
    writeFileSync(join(data, 'credentials'), 'AWSSECRET');
    symlinkSync(data, join(home, '.aws'));
    const ws = join(home, 'ws');
    for (const allow of [['Bash(cat:*)'], ['Bash']]) {
      const p = new Permissions({ cwd: ws, home, rules: () => ({ allow, ask: [], deny: ['Read(~/**/credentials)'], additionalDirectories: [join(root, 'data')] }), trusted: () => true, bash: checker });
      for (const command of ['cat ~/.aws/credentials', `cat ${join(home, '.aws', 'credentials')}`]) {
        assert.notEqual(p.decide({ tool: bashTool, input: { command } }).behavior, 'allow', `${command} under ${allow}`);
      }
    }
  });
});

describe('pass 37 B2: a deny rule that names a link in the workspace', () => {
  it('holds for Grep, Glob and Bash, not only Read', async () => {
    const root = tempDir('spelled-env');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'env'), { recursive: true });
    writeFileSync(join(ws, 'env', 'prod.env'), 'DB_PASSWORD=TOPSECRET\n');
    symlinkSync('env/prod.env', join(ws, '.env'));
    const { createTools } = await import('../../src/tools/builtin');
    const p = new Permissions({ cwd: ws, home: join(root, 'home'), rules: () => ({ allow: ['Bash(cat:*)', 'Bash(grep:*)', 'Bash(head:*)'], ask: [], deny: ['Read(./.env)'] }), trusted: () => true, bash: checker });
    for (const command of ['cat .env', 'cat .e*', 'head .env', 'grep PASS .env']) assert.notEqual(p.decide({ tool: bashTool, input: { command } }).behavior, 'allow', command);
    const grep = createTools({ searchScope: p }).find((t) => t.name === 'Grep')!;
    const parsed = grep.parse({ pattern: 'TOPSECRET', output_mode: 'content' });
    assert.ok(parsed.ok);
    const r = await grep.call(parsed.value, { cwd: ws, signal: new AbortController().signal });
    assert.doesNotMatch(r.content, /(^|\n)\.env:/, r.content);
    assert.doesNotMatch(r.content, /left out/, 'a file a rule holds back is not counted (pass 52 L1)');
  });
});

// Pass 55 M1: `Read(./.env)` with `.env -> env/prod.env` covered only the link's name; Read, Grep
// and `cat` of env/prod.env returned the secret. A deny or ask rule names where its literal part
// really leads too, as an absolute rule's folders already did.
describe('pass 55 M1: a relative deny rule on a link covers what it leads to', () => {
  it('the file a denied link names, and a folder a denied link names, are denied by their own names', async () => {
    const root = tempDir('spelled-m1');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'env'), { recursive: true });
    mkdirSync(join(ws, 'private'));
    writeFileSync(join(ws, 'env', 'prod.env'), 'DB_PASSWORD=TOPSECRET\n');
    writeFileSync(join(ws, 'private', 'k.txt'), 'KEY\n');
    writeFileSync(join(ws, 'ok.txt'), 'ok\n');
    symlinkSync('env/prod.env', join(ws, '.env'));
    symlinkSync('private', join(ws, 'secrets'));
    const { createTools } = await import('../../src/tools/builtin');
    const p = new Permissions({ cwd: ws, home: join(root, 'home'), rules: () => ({ allow: ['Read', 'Bash(cat:*)'], ask: [], deny: ['Read(./.env)', 'Read(secrets/**)'] }), trusted: () => true, bash: checker });
    const tools = createTools({ searchScope: p });
    const read = tools.find((t) => t.name === 'Read')!;
    for (const file_path of ['env/prod.env', 'private/k.txt']) assert.equal(p.decide({ tool: read, input: { file_path } }).behavior, 'deny', file_path);
    for (const command of ['cat env/prod.env', 'cat private/k.txt']) assert.notEqual(p.decide({ tool: bashTool, input: { command } }).behavior, 'allow', command);
    assert.equal(p.decide({ tool: read, input: { file_path: 'ok.txt' } }).behavior, 'allow');
    const found = await callTool(p, 'Grep', { pattern: 'TOPSECRET|KEY', output_mode: 'content' }, ws);
    assert.doesNotMatch(found, /DB_PASSWORD|k\.txt/, found);
  });
});
