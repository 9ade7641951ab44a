// Pass 34, A1 (high): with the home folder reached through a link (`/home/me -> /data/me`, an NFS
// or automounted home), `~` in rules stayed the link's path while every file is judged where it
// really is, so `Read(~/.ssh/**)` matched nothing: with `--add-dir ~`, Read, Grep and
// `Bash(cat:*)` returned the key. An absolute rule written through a link failed the same way.
// A rule's literal folders are now taken where they really lead.
// Pass 34, A2 (high): three `**` against a path 1,900 folders deep held a rule match for
// minutes; a path deeper than 64 folders matches no gitignore-style pattern.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { globsMatch } from '../../src/context/rulePaths';
import { MAX_MATCH_DEPTH } from '../../src/fs/gitignore';
import { tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());
const tool = (n: string) => createTools().find((t) => t.name === n) as Tool;

function linkedHome() {
  const root = tempDir('linkedhome');
  const real = join(root, 'data', 'me');
  mkdirSync(join(real, '.ssh'), { recursive: true });
  writeFileSync(join(real, '.ssh', 'id_rsa'), 'KEY');
  const home = join(root, 'home-me');
  symlinkSync(real, home);
  const ws = join(real, 'proj');
  mkdirSync(ws);
  return { root, home, real, ws };
}

describe('pass 34 A1: deny rules with a home reached through a link', () => {
  it('Read(~/.ssh/**) holds for Read, Grep and Bash, with the home added as a folder', () => {
    const { home, ws } = linkedHome();
    const p = new Permissions({ cwd: ws, home, rules: () => ({ allow: ['Bash(cat:*)', 'Read', 'Grep'], ask: [], deny: ['Read(~/.ssh/**)'], additionalDirectories: [home] }), trusted: () => true, bash: checker });
    for (const [t, input] of [
      ['Read', { file_path: join(home, '.ssh', 'id_rsa') }],
      ['Grep', { pattern: 'KEY', path: join(home, '.ssh') }],
      ['Bash', { command: `cat ${join(home, '.ssh', 'id_rsa')}` }],
      ['Bash', { command: 'cat ~/.ssh/id_rsa' }],
    ] as const) {
      assert.notEqual(p.decide({ tool: tool(t), input }).behavior, 'allow', `${t} ${JSON.stringify(input)}`);
    }
  });

  it('an absolute deny rule written through a link holds too', () => {
    const { home, real, ws } = linkedHome();
    const p = new Permissions({ cwd: ws, home: real, rules: () => ({ allow: ['Read'], ask: [], deny: [`Read(/${home}/.ssh/**)`], additionalDirectories: [real] }), trusted: () => true, bash: checker });
    assert.equal(new Permissions({ cwd: ws, home: real, rules: () => ({ allow: ['Read'], ask: [], deny: [], additionalDirectories: [real] }), trusted: () => true, bash: checker }).decide({ tool: tool('Read'), input: { file_path: join(real, '.ssh', 'id_rsa') } }).behavior, 'allow', 'without the rule it would be read');
    assert.notEqual(p.decide({ tool: tool('Read'), input: { file_path: join(real, '.ssh', 'id_rsa') } }).behavior, 'allow');
  });
});

describe('pass 34 A2: a rule pattern against a very deep path', () => {
  it('a path past the depth bound matches nothing, at once; one within it matches', () => {
    const deep = `a/${'c/'.repeat(1900)}b`;
    assert.equal(globsMatch(['a/**/c/**/c/**/b'], deep), false);
    assert.equal(globsMatch(['a/**/c/**/c/**/b'], `a/c/c/${'c/'.repeat(MAX_MATCH_DEPTH - 10)}b`), true);
  });
});
