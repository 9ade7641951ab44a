// Pass 29, F1 and F2 (critical): `Bash(npx tsc --noEmit:*)` and `Bash(tsc:*)` let the clone's
// tsconfig.json steer tsc: `"extends"` to ~/.ssh/id_rsa printed the key line by line in its
// errors (past a Read(~/.ssh/**) deny rule), `"outFile"`, `"tsBuildInfoFile"`, `"outDir"` wrote
// anywhere (~/.bashrc). A rule naming tsc now covers a config only when every place it names,
// and its extended configs', is inside the workspace.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

function repo(config: unknown, extra: Record<string, string> = {}) {
  const root = tempDir('tsconfig');
  const ws = join(root, 'ws');
  mkdirSync(join(root, 'home', '.ssh'), { recursive: true });
  writeFileSync(join(root, 'home', '.ssh', 'id_rsa'), 'KEY');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(ws, 'tsconfig.json'), typeof config === 'string' ? config : JSON.stringify(config));
  for (const [p, text] of Object.entries(extra)) {
    mkdirSync(join(ws, p, '..'), { recursive: true });
    writeFileSync(join(ws, p), text);
  }
  const decide = (c: string) => bashEngine(ws, { allow: ['Bash(npx tsc --noEmit:*)', 'Bash(tsc:*)', 'Bash(npx tsc:*)'] }, checker).decide(c).behavior;
  return { root, ws, decide };
}

describe('pass 29 F1, F2: a tsconfig.json naming places outside', () => {
  it('extends, outFile, outDir, tsBuildInfoFile, include, references, paths outside ask', () => {
    for (const config of [
      { extends: '../home/.ssh/id_rsa' },
      { extends: ['./base.json', '../home/.ssh/id_rsa'] },
      { compilerOptions: { outFile: '../home/.bashrc' } },
      { compilerOptions: { outDir: '/tmp/elsewhere' } },
      { compilerOptions: { incremental: true, tsBuildInfoFile: '../home/x' } },
      { compilerOptions: { declarationDir: '../../x', declaration: true } },
      { include: ['../home/**/*'] },
      { files: ['/etc/passwd'] },
      { references: [{ path: '../other' }] },
      { compilerOptions: { paths: { '*': ['../home/*'] } } },
      { compilerOptions: { typeRoots: ['../home'] } },
      '{ "compilerOptions": { /* a comment */ "outFile": "../home/.bashrc", }, }',
      '{ not json',
    ]) {
      const { decide } = repo(config, { 'base.json': '{}' });
      for (const c of ['npx tsc --noEmit', 'tsc', 'npx tsc -p .', 'tsc --project tsconfig.json']) assert.equal(decide(c), 'ask', `${c} with ${JSON.stringify(config)}`);
    }
  });

  it('an extended config is judged too, and one reached through a link out', () => {
    const deep = repo({ extends: './configs/base.json' }, { 'configs/base.json': JSON.stringify({ compilerOptions: { outFile: '../../home/.bashrc' } }) });
    assert.equal(deep.decide('npx tsc --noEmit'), 'ask');
    const pkg = repo({ extends: '@evil/cfg' }, { 'node_modules/@evil/cfg/tsconfig.json': JSON.stringify({ extends: '../../../../home/.ssh/id_rsa' }) });
    assert.equal(pkg.decide('npx tsc --noEmit'), 'ask');
    const linked = repo({ extends: './link.json' });
    symlinkSync(join(linked.root, 'home', '.ssh', 'id_rsa'), join(linked.ws, 'link.json'));
    assert.equal(linked.decide('npx tsc --noEmit'), 'ask');
  });

  it('ordinary configs still run', () => {
    const ok = repo(
      { extends: './tsconfig.base.json', compilerOptions: { outDir: 'dist', rootDir: 'src', strict: true, paths: { '@/*': ['./src/*'] } }, include: ['src/**/*'], exclude: ['node_modules'] },
      { 'tsconfig.base.json': '{ // base\n "compilerOptions": { "target": "es2022", }, }' },
    );
    for (const c of ['npx tsc --noEmit', 'tsc', 'tsc --noEmit -p .', 'tsc src/a.ts --noEmit']) assert.equal(ok.decide(c), 'allow', c);
  });
});

// Pass 55 H1 (high): a tsconfig the model wrote under `Edit(src/**)` named a file a Read deny rule
// covers (`"files": ["../config/secrets.json"]`), and `tsc -p src` copied it into its outDir, where
// a plain Read returned it. A place the Read rules keep closed is judged as one outside.
describe('pass 55 H1: a tsconfig naming what a Read rule keeps closed', () => {
  it('files, include and rootDir naming a denied file or a folder holding one ask', () => {
    const root = tempDir('tsconfig-deny');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'config'), { recursive: true });
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'config', 'secrets.json'), '{"k":"TOPSECRET"}');
    writeFileSync(join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
    const configs = [
      { files: ['../config/secrets.json'], compilerOptions: { outDir: 'out', resolveJsonModule: true } },
      { include: ['../config/**'], compilerOptions: { outDir: 'out', allowJs: true } },
      { compilerOptions: { rootDir: '../config', outDir: 'out' } },
    ];
    for (const deny of ['Read(config/secrets.json)', 'Read(./config/**)']) {
      for (const config of configs) {
        writeFileSync(join(ws, 'src', 'tsconfig.json'), JSON.stringify(config));
        const e = bashEngine(ws, { allow: ['Bash(tsc:*)', 'Edit(src/**)'], deny: [deny] }, checker);
        assert.notEqual(e.decide('tsc -p src').behavior, 'allow', `${deny}: ${JSON.stringify(config)}`);
      }
      // A source file a rule covers anywhere in the workspace: an import may reach it (pass 58 H1).
      writeFileSync(join(ws, 'src', 'tsconfig.json'), JSON.stringify({ include: ['./**/*.ts'], compilerOptions: { outDir: 'out' } }));
      assert.notEqual(bashEngine(ws, { allow: ['Bash(tsc:*)'], deny: [deny] }, checker).decide('tsc -p src').behavior, 'allow', deny);
    }
    // A rule on files tsc never reads as sources leaves it alone.
    writeFileSync(join(ws, '.env'), 'X=1\n');
    assert.equal(bashEngine(ws, { allow: ['Bash(tsc:*)'], deny: ['Read(./.env)'] }, checker).decide('tsc -p src').behavior, 'allow');
  });

  // Pass 58 H1: with no files or include, tsc compiles every source below its config (a denied
  // src/secret.ts became a readable secret.js), and any file's imports reach past its folder.
  it('a denied source anywhere in the workspace makes tsc ask, with or without a config', () => {
    const root = tempDir('tsconfig-default');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src', 'secret.ts'), 'export const s = "TOPSECRET";\n');
    writeFileSync(join(ws, 'src', 'a.ts'), 'import "./secret";\n');
    writeFileSync(join(ws, 'tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'out' } }));
    const e = bashEngine(ws, { allow: ['Bash(tsc:*)', 'Bash(npx tsc:*)'], deny: ['Read(src/secret.ts)'] }, checker);
    for (const command of ['tsc', 'tsc -p .', 'tsc --allowJs --outDir out', 'tsc src/a.ts', 'npx tsc --noEmit']) assert.notEqual(e.decide(command).behavior, 'allow', command);
    assert.equal(bashEngine(ws, { allow: ['Bash(tsc:*)'], deny: ['Read(./.env)'] }, checker).decide('tsc').behavior, 'allow');
  });
});
