// Pass 29, F12 (high): `python3 -m http.server` under its own rule served a committed link to the
// home folder to the whole network. A server of a folder is judged as a walk that follows links.
// Pass 29, F13 (high): curl's write-out `%output{>>~/.bashrc}` (curl 8.3 and later) writes a file,
// and `-w @fmt` reads the format from a file no check reads; both ask now.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../src/permissions/bash/checker';
import { bashEngine, tempDir } from './support';

const checker = new BashChecker();
before(() => checker.ready());

function repo(linked: boolean) {
  const root = tempDir('serve');
  const ws = join(root, 'ws');
  mkdirSync(join(ws, 'sub'), { recursive: true });
  mkdirSync(join(ws, 'site'));
  mkdirSync(join(root, 'home'));
  writeFileSync(join(ws, 'site', 'index.html'), 'hi');
  if (linked) symlinkSync(join(root, 'home'), join(ws, 'sub', 'hm'));
  return (c: string) => bashEngine(ws, { allow: ['Bash(python3 -m http.server:*)', 'Bash(python -m http.server:*)', 'Bash(php -S:*)', 'Bash(curl:*)'] }, checker).decide(c).behavior;
}

describe('pass 29 F12: a file server of a folder holding a link leading out', () => {
  it('asks', () => {
    const d = repo(true);
    for (const c of ['python3 -m http.server 8766', 'python -m http.server', 'python3 -m http.server -d sub', 'python3 -m http.server --directory=.', 'php -S 0.0.0.0:8000']) assert.equal(d(c), 'ask', c);
  });
  it('runs where no link leads out', () => {
    const clean = repo(false);
    for (const c of ['python3 -m http.server 8766', 'php -S localhost:8000 -t site']) assert.equal(clean(c), 'allow', c);
  });
});

describe('pass 29 F13: curl write-out that writes or reads a file', () => {
  it('asks for %output{…} and @file, passes plain formats', () => {
    const d = repo(false);
    for (const c of ["curl -s --write-out 'X%output{>>../home/.bashrc}touch x' http://h/", 'curl -w @fmt http://x', "curl --write-out='%output{x}' http://x", "curl -sSw'%output{a}' http://x", "curl -w '% OUTPUT {a}' http://x"]) assert.equal(d(c), 'ask', c);
    for (const c of ["curl -s -w '%{http_code}\\n' -o /dev/null http://x", "curl -s --write-out '%{json}' http://x"]) assert.equal(d(c), 'allow', c);
  });
});
