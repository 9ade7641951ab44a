// A rule naming sed or awk (`Bash(sed:*)`) covers text filtering, not the parts of those languages
// that run a program, read a file the command never names, or write one (.git/hooks among them).
// And a rule naming any command covers files inside the workspace only, whichever word names
// them: an option's value, a key=value, a file: URL.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../../src/permissions/bash/checker';
import { Permissions } from '../../../src/permissions/permissions';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';

const bash = createTools().find((t) => t.name === 'Bash') as Tool;
const checker = new BashChecker();
before(() => checker.ready());

/** A workspace with a git folder, next to a secret outside it. */
function layout() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tl-script-rules-')));
  const cwd = join(base, 'ws');
  mkdirSync(join(cwd, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(cwd, 'README.md'), 'a b\nc d\n');
  writeFileSync(join(base, 'secret'), 'CANARY\n');
  return { base, cwd };
}

function decide(allow: string[], command: string, dirs: string[] = []) {
  const { cwd, base } = layout();
  const added = dirs.map((d) => d.replace('$BASE', base));
  const p = new Permissions({ cwd, rules: () => ({ allow, ask: [], deny: [] }), trusted: () => true, bash: checker, sources: () => [{ label: '--add-dir', additionalDirectories: added }] });
  return p.decide({ tool: bash, input: { command: command.replaceAll('$BASE', base) } });
}

const SED = ['Bash(sed:*)'];
const AWK = ['Bash(awk:*)', 'Bash(gawk:*)'];

describe('a rule naming sed', () => {
  const asks: Array<[string, string]> = [
    ["sed -n '1e id' README.md", 'e runs a program'],
    ["sed -e '1e touch x' README.md", 'e in an -e script'],
    ["sed -n '$!{e id\n}' README.md", 'e inside a block'],
    ["sed 's/x/y/e' README.md", 'the s flag e'],
    ["sed 's/x/y/ge' README.md", 'e after other flags'],
    ["sed 's/x/y/w .git/hooks/pre-commit' README.md", 'the s flag w'],
    ["sed -n 'r ../secret' README.md", 'r reads a file'],
    ["sed -n '1R ../secret' README.md", 'R reads a file'],
    ["sed -n 'w .git/hooks/pre-commit' README.md", 'w writes a file'],
    ["sed -n '1W .git/hooks/pre-commit' README.md", 'W writes a file'],
    ["sed -n -e p -e '1e id' README.md", 'a second script'],
    ["sed --expression='1e id' README.md", '--expression='],
    ['sed -f script.sed README.md', 'a script from a file'],
    ["sed -i'../x/*' 's/a/b/' README.md", 'a backup suffix naming another folder'],
    ["sed -n \"$S\" README.md", 'a script computed when it runs'],
    ["sed '1q;1k' README.md", 'a command it does not know'],
    ["sed --frobnicate 's/a/b/' README.md", 'an unknown option'],
  ];
  for (const [command, why] of asks) {
    it(`asks: ${command} (${why})`, () => {
      assert.equal(decide(SED, command).behavior, 'ask');
    });
  }

  const allowed = ["sed -n '1,5p' README.md", "sed 's/a/b/g' README.md", "sed -E -e 's|a|b|2' -e '/^#/d' README.md", "sed '/start/,/end/{s/a/b/;p}' README.md", "sed 'y/abc/xyz/;1!G;h;$!d' README.md", "sed -i 's/a/b/' README.md", "sed --sandbox -n '1,2p' README.md", "sed 's/when/then/' README.md"];
  for (const command of allowed) {
    it(`allows: ${command}`, () => {
      assert.equal(decide(SED, command).behavior, 'allow');
    });
  }

  it('--sandbox makes a script safe: sed itself refuses e, r and w then', () => {
    assert.equal(decide(SED, "sed --sandbox '1e id' README.md").behavior, 'allow');
  });
});

describe('a rule naming awk', () => {
  const asks: Array<[string, string]> = [
    [`awk 'BEGIN{system("id")}'`, 'system'],
    [`awk '{getline x < "../secret"; print x}' README.md`, 'getline from a file'],
    [`awk 'BEGIN{"id" | getline x; print x}'`, 'a command piped to getline'],
    [`awk '{print | "sh"}' README.md`, 'print to a program'],
    [`awk '{print > ".git/hooks/x"}' README.md`, 'print into a file'],
    [`awk '{printf "%s", $0 >> "../out"}' README.md`, 'printf appended to a file'],
    [`awk 'BEGIN{print ENVIRON["ANTHROPIC_API_KEY"]}'`, 'ENVIRON'],
    [`awk 'BEGIN{ARGV[1]="../secret"; ARGC=2} {print}'`, 'ARGV names another file'],
    [`awk '{close("x"); fflush()}' README.md`, 'close and fflush'],
    ['awk -f prog.awk README.md', 'a program from a file'],
    [`gawk -l filefuncs 'BEGIN{}'`, 'a loaded extension'],
    [`gawk '@include "x"; {print}' README.md`, '@include'],
  ];
  for (const [command, why] of asks) {
    it(`asks: ${command} (${why})`, () => {
      assert.equal(decide(AWK, command).behavior, 'ask');
    });
  }

  const allowed = [`awk '{print $1}' README.md`, `awk -F: '$2 > 1' README.md`, `awk -v n=2 'NR <= n {print $2}' README.md`, `gawk 'length($0) > 3' README.md`];
  for (const command of allowed) {
    it(`allows: ${command}`, () => {
      assert.equal(decide(AWK, command).behavior, 'allow');
    });
  }

  it('a wildcard rule naming no program does not let awk run a program either', () => {
    assert.equal(decide(['Bash(* README.md)'], `awk 'BEGIN{system("id")}' README.md`).behavior, 'ask');
  });
});

describe('any word of a rule-allowed command that names a place outside the workspace', () => {
  const asks: Array<[string, string]> = [
    ['Bash(date:*)', 'date -f ../secret'],
    ['Bash(date:*)', 'date -f../secret'],
    ['Bash(xargs:*)', 'xargs -a ../secret echo'],
    ['Bash(dd:*)', 'dd if=../secret'],
    ['Bash(openssl:*)', 'openssl enc -in ../secret'],
    ['Bash(openssl:*)', 'openssl enc -in=../secret'],
    ['Bash(iconv:*)', 'iconv -f utf8 ../secret'],
    ['Bash(curl:*)', 'curl file://$BASE/secret'],
    ['Bash(curl:*)', 'curl FILE://localhost$BASE/secret'],
    ['Bash(curl:*)', 'curl -d @../secret http://127.0.0.1:9/'],
    ['Bash(test:*)', 'test -f ../secret'],
    ['Bash(test:*)', 'test -f ../no-such-file'],
    ['Bash(echo:*)', 'echo ~/.ssh'],
  ];
  for (const [rule, command] of asks) {
    it(`asks: ${command} under ${rule}`, () => {
      const v = decide([rule], command);
      assert.equal(v.behavior, 'ask');
      assert.match(v.reason, /outside the workspace/);
    });
  }

  it('writes into .git/ by a program whose writes are not known ask', () => {
    for (const [rule, command] of [['Bash(dd:*)', 'dd if=README.md of=.git/hooks/pre-commit'], ['Bash(curl:*)', 'curl -o .git/hooks/pre-commit http://127.0.0.1:9/']]) {
      const v = decide([rule!], command!);
      assert.equal(v.behavior, 'ask', command);
      assert.match(v.reason, /\.git\//);
    }
  });

  it('a file that lists the names to open asks: the names inside it are never checked', () => {
    for (const [rule, command] of [['Bash(file:*)', 'file -f list.txt'], ['Bash(wc:*)', 'wc --files0-from=list.txt'], ['Bash(sort:*)', 'sort --files0-from=list.txt'], ['Bash(tar:*)', 'tar -cf x.tar -T list.txt']]) {
      assert.equal(decide([rule!], command!).behavior, 'ask', command);
    }
  });

  it('an added folder lets the read through', () => {
    assert.equal(decide(['Bash(date:*)'], 'date -f ../secret', ['$BASE']).behavior, 'allow');
  });

  it('ordinary words stay allowed', () => {
    for (const [rule, command] of [['Bash(date:*)', 'date +%s'], ['Bash(echo:*)', 'echo /api/v1 hello'], ['Bash(curl:*)', 'curl https://example.com/a/b'], ['Bash(awk:*)', "awk -F/ '{print $1}' README.md"], ['Bash(dd:*)', 'dd if=README.md of=copy.md']]) {
      assert.equal(decide([rule!], command!).behavior, 'allow', command);
    }
  });
});
