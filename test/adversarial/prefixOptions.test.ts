// A narrow prefix rule (the README's own `Bash(npm test:*)`) must not run code the rule never
// named through what follows its words: options that load code into the runtime, change the
// shell or folder a script runs in, or are passed on to the test runner after `--`; NAME=value
// words; words computed when the command runs; and the options by which common programs run
// another program, whatever rule allowed them.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, runBash, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

/** A package whose test script is Node's test runner, and code that leaves a mark when it runs. */
function project(): string {
  const cwd = tempDir('prefix');
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node --test', build: 'node -e 0' } }));
  writeFileSync(join(cwd, 'evil.cjs'), "require('fs').writeFileSync(require('path').join(__dirname, 'pwned'), 'x');\n");
  writeFileSync(join(cwd, 'evil.sh'), '#!/bin/sh\ntouch pwned\n');
  chmodSync(join(cwd, 'evil.sh'), 0o755);
  return cwd;
}

async function escapes(allow: string[], commands: string[], run = false): Promise<string[]> {
  const out: string[] = [];
  for (const command of commands) {
    const cwd = project();
    const v = bashEngine(cwd, { allow }, checker).decide(command);
    if (v.behavior !== 'allow') continue;
    if (run) await runBash(cwd, command);
    out.push(`${command}${existsSync(join(cwd, 'pwned')) ? ' (ran the code)' : ''}`);
  }
  return out;
}

describe('Bash(npm test:*) and rules like it', () => {
  it('options that load code or change what runs ask, and running them is never reached', async () => {
    const evil = './evil.cjs';
    assert.deepEqual(
      await escapes(['Bash(npm test:*)'], [
        `npm test --node-options=--require=${evil}`,
        `npm test --node-options="--import=data:text/javascript,import('fs').then((f)=>f.writeFileSync('pwned',''))"`,
        `npm test -- --require ${evil}`,
        `npm test -- -r ${evil}`,
        `npm test -- --import=${evil}`,
        `npm test -- --experimental-loader ${evil}`,
        'npm test -- --inspect=0.0.0.0:9229',
        'npm test --script-shell=./evil.sh',
        'npm test --script-shell ./evil.sh',
        'npm test --prefix /tmp',
        'npm test -C /tmp',
        'npm test --userconfig=./npmrc',
        'npm test -c "touch pwned"',
        'npm test --call="touch pwned"',
        'npm test -- --test-reporter=./evil.cjs',
        'npm test -- $OPTS',
        'npm test -- "$(echo --require=./evil.cjs)"',
        `npm test -- --env-file=.env`,
        'npm test -- /tmp/evil.test.js',
        'npm test -- ../evil.test.js',
        "npm test -- 'data:text/javascript,require(\"fs\").writeFileSync(\"pwned\",\"\")'",
      ], true),
      [],
    );
  });

  it('environment assignments that change what runs ask', async () => {
    assert.deepEqual(await escapes(['Bash(npm test:*)'], ['NODE_OPTIONS=--require=./evil.cjs npm test', 'npm_config_script_shell=./evil.sh npm test', 'env NODE_OPTIONS=--require=./evil.cjs npm test'], true), []);
  });

  it('other runtimes and build tools narrowed the same way', async () => {
    assert.deepEqual(
      await escapes(['Bash(make test:*)', 'Bash(python -m pytest:*)', 'Bash(cargo test:*)', 'Bash(npx jest:*)', 'Bash(go test:*)', 'Bash(yarn test:*)', 'Bash(pnpm test:*)'], [
        'make test SHELL=./evil.sh',
        'make test -f /tmp/Makefile',
        'python -m pytest -p evil',
        'python -m pytest -c /tmp/pytest.ini',
        'python -m pytest -o addopts=-pevil',
        'cargo test --config "target.x86_64-unknown-linux-gnu.runner=\'./evil.sh\'"',
        'cargo test --manifest-path /tmp/x/Cargo.toml',
        'npx jest --config ./evil.cjs',
        'npx jest --setupFiles ./evil.cjs',
        'go test -exec ./evil.sh ./...',
        'go test -toolexec ./evil.sh ./...',
        'yarn test --require ./evil.cjs',
        'pnpm test --node-options=--require=./evil.cjs',
      ]),
      [],
    );
  });

  it('options by which any program runs another program ask, whatever rule allowed it', async () => {
    assert.deepEqual(
      await escapes(['Bash(rg:*)', 'Bash(find:*)', 'Bash(sort:*)', 'Bash(tar:*)', 'Bash(git log:*)', 'Bash(git push:*)', 'Bash(git * main)', 'Bash(split:*)'], [
        'rg --pre ./evil.sh x',
        'rg --pre=./evil.sh x',
        'find . -exec ./evil.sh \\;',
        'find . -name x -execdir ./evil.sh {} +',
        'find . -delete',
        'sort --compress-program=./evil.sh package.json',
        'tar -cf x.tar --to-command=./evil.sh .',
        'tar -I ./evil.sh -cf x.tar .',
        'tar --checkpoint=1 --checkpoint-action=exec=./evil.sh -cf x.tar .',
        'git log --output=../x',
        'git push --receive-pack=./evil.sh origin main',
        'split --filter=./evil.sh package.json',
      ], true),
      [],
    );
  });

  it('what such rules are for stays allowed', async () => {
    const allowed = [
      'npm test',
      'npm test -- --grep foo',
      'npm test -- -u',
      'npm test -- --watch=false --coverage',
      'npm test -- $USER',
      'npm run build -- --watch=false',
      'python -m pytest -x -k "slow and not db" tests/',
      'python -m pytest -xvs',
      'cargo test --release -- --nocapture --test-threads=1',
      'go test -run TestX -count=1 -v ./...',
      'make test -j4',
      'rg -n foo src',
      "find . -name '*.ts'",
      'git log --oneline -5',
    ];
    for (const command of allowed) {
      const v = bashEngine(project(), { allow: ['Bash(npm test:*)', 'Bash(npm run build:*)', 'Bash(python -m pytest:*)', 'Bash(cargo test:*)', 'Bash(go test:*)', 'Bash(make test:*)', 'Bash(rg:*)', 'Bash(find:*)', 'Bash(git log:*)'] }, checker).decide(command);
      assert.equal(v.behavior, 'allow', `${command}: ${v.reason}`);
    }
    // A rule for the program alone allows whatever it runs, as the README says.
    assert.equal(bashEngine(project(), { allow: ['Bash(npm:*)'] }, checker).decide('npm test --node-options=--require=./evil.cjs').behavior, 'allow');
  });
});
