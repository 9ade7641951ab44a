// Pass 49 G1, G3, G4 (high): a Read ask rule was honoured by the Read tool alone. An Edit of the
// file ran without asking (its success tells what the file holds), an `@.env` include sent it, a
// Grep returned it, and `cat .env` under `Bash(cat:*)` ran. Now every route asks, or leaves the
// file out where it cannot ask (a search, an include).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { readDeniedBy } from '../../src/agent/deniedFileResults';
import { bashTool, callTool } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));
const tools = createTools();
const tool = (name: string) => tools.find((t) => t.name === name) as Tool;

describe('pass 49: Read ask rules hold on every route to the file', () => {
  it('Edit asks, Bash asks, an include and a search leave the file out', async () => {
    const cwd = tmp('tl-ask-');
    writeFileSync(join(cwd, '.env'), 'TOP=ASK-SECRET\n');
    mkdirSync(join(cwd, 'src'));
    writeFileSync(join(cwd, 'src', 'a.ts'), 'TOP\n');
    const bash = new BashChecker();
    await bash.ready();
    const p = new Permissions({ cwd, rules: () => ({ allow: ['Edit', 'Bash(cat:*)', 'Bash(grep:*)', 'Bash(cp:*)'], ask: ['Read(./.env)', 'Edit(src/a.ts)'], deny: [] }), trusted: () => true, bash });
    assert.equal(p.decide({ tool: tool('Edit'), input: { file_path: '.env', old_string: 'T', new_string: 'T' } }).behavior, 'ask');
    for (const command of ['cat .env', 'grep -r TOP .', 'cp x src/a.ts']) assert.equal(p.decide({ tool: bashTool, input: { command } }).behavior, 'ask', command);
    assert.equal(p.decide({ tool: bashTool, input: { command: 'cat src/a.ts' } }).behavior, 'allow');
    assert.equal(readDeniedBy(p, { get: (n) => tools.find((t) => t.name === n) })(join(cwd, '.env')), true, 'an include of it is left out');
    assert.equal(p.readable(join(cwd, '.env')), false, 'a search leaves it out');
    assert.equal(p.readable(join(cwd, 'src', 'a.ts')), true);
  });
});

describe('pass 52 H1: the search tools themselves leave out what a Read ask rule covers, inside their root too', () => {
  it('Grep and Glob from the workspace, and Grep of an added folder, leave the files out', async () => {
    const root = tmp('tl-52h1-');
    const cwd = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(join(cwd, 'askdir'), { recursive: true });
    mkdirSync(join(home, '.aws'), { recursive: true });
    writeFileSync(join(cwd, 'ask.txt'), 'TOPSECRET-ASK\n');
    writeFileSync(join(cwd, 'askdir', 'a.txt'), 'TOPSECRET-DIR\n');
    writeFileSync(join(cwd, 'plain.txt'), 'TOPSECRET-PLAIN\n');
    writeFileSync(join(home, '.aws', 'credentials'), 'TOPSECRET-AWS\n');
    const bash = new BashChecker();
    await bash.ready();
    const p = new Permissions({
      cwd,
      home,
      rules: () => ({ allow: [], ask: ['Read(./ask.txt)', 'Read(askdir/**)', 'Read(~/.aws/**)'], deny: [] }),
      trusted: () => true,
      bash,
      sources: () => [{ label: '--add-dir', additionalDirectories: [home] }],
    });
    const run = (name: string, input: unknown) => callTool(p, name, input, cwd);
    for (const input of [{ pattern: 'TOPSECRET', output_mode: 'content' }, { pattern: 'TOPSECRET', output_mode: 'content', path: 'askdir/..' }, { pattern: 'TOPSECRET', output_mode: 'content', glob: 'ask*/**' }]) {
      const out = await run('Grep', input);
      assert.doesNotMatch(out, /TOPSECRET-(ASK|DIR)/, JSON.stringify(input));
    }
    assert.match(await run('Grep', { pattern: 'TOPSECRET', output_mode: 'content' }), /TOPSECRET-PLAIN/);
    const listed = await run('Glob', { pattern: '**/*' });
    assert.doesNotMatch(listed, /ask\.txt|askdir\/a\.txt/, listed);
    assert.match(listed, /plain\.txt/);
    assert.doesNotMatch(await run('Grep', { pattern: 'TOPSECRET', output_mode: 'content', path: home }), /TOPSECRET-AWS/);
  });
});

describe('pass 52 L1: what a search leaves out by the user\'s rules is not counted', () => {
  it('two patterns, one meeting a denied file, give the same notes', async () => {
    const root = tmp('tl-52l1-');
    const cwd = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(cwd, { recursive: true });
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY\n');
    const bash = new BashChecker();
    await bash.ready();
    const p = new Permissions({ cwd, home, rules: () => ({ allow: [], ask: [], deny: ['Read(~/.ssh/**)'] }), trusted: () => true, bash, sources: () => [{ label: '--add-dir', additionalDirectories: [home] }] });
    const run = async (pattern: string) => (await callTool(p, 'Glob', { pattern, path: home }, cwd)).replace(pattern, 'P');
    assert.equal(await run('.ss?/id_r*'), await run('.ss?/id_x*'));
  });
});

describe('pass 55 L1: a search\'s count does not tell whether a file outside exists', () => {
  it('a link to an existing file outside and one to a missing file give the same result', async () => {
    const root = tmp('tl-55l1-');
    const cwd = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(cwd, { recursive: true });
    mkdirSync(home);
    writeFileSync(join(home, '.pgpass'), 'x\n');
    const { symlinkSync } = await import('node:fs');
    symlinkSync(join(home, '.pgpass'), join(cwd, 'l-a'));
    symlinkSync(join(home, '.netrc'), join(cwd, 'l-b'));
    symlinkSync(home, join(cwd, 'l-c'));
    const bash = new BashChecker();
    await bash.ready();
    const p = new Permissions({ cwd, home, rules: () => ({ allow: [], ask: [], deny: [] }), trusted: () => true, bash });
    const run = async (pattern: string) => (await callTool(p, 'Glob', { pattern }, cwd)).replace(pattern, 'P');
    const [a, b, c] = [await run('l-a'), await run('l-b'), await run('l-c')];
    assert.equal(a, b);
    assert.equal(b, c);
  });
});
