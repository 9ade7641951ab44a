// Pass 30, F1 (high): with a relative PATH entry (the `export PATH=node_modules/.bin:$PATH`
// idiom, or an empty entry, which means `.`), the bash the permission checks ask about globs, the
// Perl supervisor and the Bash tool's own shell were looked up against the workspace: a cloned
// repository's `node_modules/.bin/bash` ran while a command was only being judged, with no grant,
// and its `ls` ran under `Bash(ls:*)`. Programs are now found on absolute entries only
// (base/programs.ts), and every child gets a PATH of absolute entries only (tools/childEnv.ts).
// Each case runs in a child process, as PATH is read when a process starts its lookups.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { tempDir } from './support';

const root = resolve(__dirname, '../..');

/** A workspace whose node_modules/.bin shadows bash, sh, perl, ls and git with programs that leave a mark. */
function shadowed() {
  const ws = tempDir('relpath');
  const marks = join(tempDir('relpath-marks'));
  const bin = join(ws, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  for (const name of ['bash', 'sh', 'perl', 'ls', 'git', 'cat']) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho ran > '${marks}/${name}'\nexit 0\n`);
    chmodSync(join(bin, name), 0o755);
  }
  writeFileSync(join(ws, 'a.txt'), 'a');
  return { ws, marks };
}

/** Runs relativePath-child.mts on `ws` in a child node whose PATH starts with `entry`. */
function inChild(ws: string, entry: string): string {
  const loader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  return execFileSync(process.execPath, ['--import', loader, join(import.meta.dirname, 'relativePath-child.mts'), ws], {
    cwd: ws,
    env: { ...process.env, NODE_ENV: 'test', PATH: `${entry}:${process.env.PATH}` },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe("pass 30 F1: a relative PATH entry finds the repository's programs", () => {
  for (const entry of ['node_modules/.bin', './node_modules/.bin', '']) {
    it(`PATH entry ${JSON.stringify(entry)}: no program of the workspace runs, while judging or running`, () => {
      const { ws, marks } = shadowed();
      // An empty entry means the folder itself: put the programs there too.
      if (entry === '') for (const n of ['bash', 'sh', 'perl', 'ls', 'git', 'cat']) execFileSync('cp', [join(ws, 'node_modules', '.bin', n), join(ws, n)]);
      const out = JSON.parse(inChild(ws, entry).trim().split('\n').at(-1)!) as { verdicts: string[]; out: string };
      assert.deepEqual(readdirSync(marks), [], `programs of the workspace ran: ${readdirSync(marks).join(', ')}`);
      assert.deepEqual(out.verdicts, ['allow', 'allow', 'allow']);
      assert.match(out.out, /a\.txt/);
      const path = /PATH=(.*)/.exec(out.out)![1]!;
      assert.ok(path.split(':').every((d) => d.startsWith('/')), `the command's PATH holds a relative entry: ${path}`);
    });
  }

  it('the programs would run if the entry were absolute (the set-up is real)', () => {
    const { ws, marks } = shadowed();
    inChild(ws, join(ws, 'node_modules', '.bin'));
    assert.ok(existsSync(join(marks, 'bash')), "an absolute entry is the user's choice, and is used");
  });
});
