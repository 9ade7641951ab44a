// Files a command reaches by names its words do not show: the members of an archive or the
// headers of a patch it unpacks (`.git/config`, `/home/u/x`), the modules and folders of a jq
// program, the word an unknown option takes. A prefix rule naming the program must not let
// those through; listing, creating and plain filtering still run.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { sharedBashChecker } from '../../../src/permissions/bash/checker';
import { Permissions } from '../../../src/permissions/permissions';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';

before(() => sharedBashChecker().ready());

const bashTool = createTools().find((t) => t.name === 'Bash') as Tool;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'tl-hidden-')));
const ws = join(root, 'ws');
const home = join(root, 'home');
for (const d of [join(ws, 'src'), join(ws, '.git'), join(home, '.docker')]) mkdirSync(d, { recursive: true });
// A cloned repository may hold a link to the root.
symlinkSync('/', join(ws, 'e'));

function decide(allow: string[], command: string) {
  const p = new Permissions({ cwd: ws, home, rules: () => ({ allow, ask: [], deny: [] }), trusted: () => true });
  return p.decide({ tool: bashTool, input: { command } });
}
const under = (rule: string) => (command: string) => decide([rule], command).behavior;

describe('archives and patches write the files named inside them', () => {
  it('tar: every spelling of extract asks under Bash(tar:*), naming why', () => {
    const b = under('Bash(tar:*)');
    assert.deepEqual(decide(['Bash(tar:*)'], 'tar -xf g.tar'), {
      behavior: 'ask',
      reason: 'tar writes the files named inside the archive, which the checks cannot see (they may lie in .git/ or outside the workspace).',
    });
    for (const c of ['tar xf g.tar', 'tar xvf g.tar', 'tar -xPf abs.tar', 'tar -xzf g.tgz', 'tar -x -f g.tar', 'tar -f g.tar -x', 'tar --extract -f g.tar', 'tar --extr --file=g.tar', 'tar --get -f g.tar', 'tar -C src -xjf g.tbz', 'tar --file g.tar --extract --absolute-names']) {
      assert.equal(b(c), 'ask', c);
    }
    assert.equal(under('Bash(bsdtar:*)')('bsdtar -xf g.tar'), 'ask');
    assert.equal(under('Bash(gtar:*)')('gtar xf g.tar'), 'ask');
    assert.equal(under('Bash(tar -xf:*)')('tar -xf g.tar'), 'ask', 'a rule spelling the mode does not spell the members');
    assert.match(decide(['Bash(tar:*)'], 'tar -f g.tar').reason, /may unpack \(its mode cannot be told\)/, 'no mode given: taken as unpacking');
  });

  it('tar: listing, creating and extracting to stdout still run', () => {
    const b = under('Bash(tar:*)');
    for (const c of ['tar -tf x.tar', 'tar tvf x.tar', 'tar --list -f x.tar', 'tar -cf out.tar src', 'tar czf out.tgz src', 'tar -xOf x.tar src/a', 'tar --version']) assert.equal(b(c), 'allow', c);
    // -C reads the names after it in a folder of its own, through any link there (pass 65 C1).
    assert.equal(b('tar -C src -cf out.tar .'), 'ask');
  });

  it('unzip asks unless it only lists, tests or prints', () => {
    const b = under('Bash(unzip:*)');
    for (const c of ['unzip g.zip', 'unzip -o g.zip', 'unzip -qo g.zip -d src', 'unzip -: g.zip', 'unzip -Pl g.zip', 'unzip -l g.zip --l', 'unzip g.zip -l']) assert.equal(b(c), 'ask', c);
    for (const c of ['unzip -l x.zip', 'unzip -qql x.zip', 'unzip -t x.zip', 'unzip -v x.zip', 'unzip -Z x.zip', 'unzip -p x.zip a.txt']) assert.equal(b(c), 'allow', c);
  });

  it('patch asks unless --dry-run; git apply and git am unless they only check or report', () => {
    const p = under('Bash(patch:*)');
    for (const c of ['patch -p0 -i g.patch', 'patch -p1 < g.patch', 'patch --input=g.patch', 'patch -d src -p0 -i g.patch']) assert.equal(p(c), 'ask', c);
    assert.equal(p('patch --dry-run -p0 -i g.patch'), 'allow');
    const g = under('Bash(git apply:*)');
    for (const c of ['git apply g.patch', 'git apply --unsafe-paths u.patch', 'git apply --index g.patch', 'git apply --check --apply g.patch', 'git apply --stat --ap g.patch', 'git apply --check -3 g.patch']) assert.equal(g(c), 'ask', c);
    for (const c of ['git apply --check g.patch', 'git apply --stat g.patch', 'git apply --numstat --summary g.patch']) assert.equal(g(c), 'allow', c);
    const any = under('Bash(git:*)');
    for (const c of ['git am m.mbox', 'git -C src apply g.patch', 'git am --continue']) assert.equal(any(c), 'ask', c);
    assert.equal(any('git am --abort'), 'allow');
  });

  it('cpio, 7z, ar, jar, pax, dpkg-deb, uudecode and busybox forms ask when they unpack', () => {
    const asks: Array<[string, string]> = [
      ['cpio', 'cpio -idv < x.cpio'], ['cpio', 'cpio -i < x.cpio'], ['cpio', 'cpio --extract < x.cpio'], ['cpio', 'cpio -pdm src < list'],
      ['7z', '7z x a.7z'], ['7z', '7z e a.7z'], ['7za', '7za x a.7z'], ['ar', 'ar x lib.a'], ['ar', 'ar -xv lib.a'], ['jar', 'jar xf a.jar'],
      ['jar', 'jar --extract --file a.jar'], ['pax', 'pax -r -f a.pax'], ['dpkg-deb', 'dpkg-deb -x a.deb src'], ['uudecode', 'uudecode a.uu'],
      ['busybox', 'busybox tar xf a.tar'], ['busybox', 'busybox unzip a.zip'], ['busybox', 'busybox cpio -i < x.cpio'], ['busybox', 'busybox patch -i g.patch'],
    ];
    for (const [name, c] of asks) assert.equal(under(`Bash(${name}:*)`)(c), 'ask', c);
    // cpio -o reads the names of the files it copies from its input: any file (pass 59's note).
    assert.equal(under('Bash(cpio:*)')('cpio -o < list'), 'ask');
    const runs: Array<[string, string]> = [['cpio', 'cpio -it < x.cpio'], ['7z', '7z l a.7z'], ['ar', 'ar t lib.a'], ['ar', 'ar rcs lib.a src/a.o'], ['jar', 'jar tf a.jar'], ['pax', 'pax -f a.pax']];
    for (const [name, c] of runs) assert.equal(under(`Bash(${name}:*)`)(c), 'allow', c);
  });

  it('Bash as a whole and an exact rule are the user’s choice', () => {
    assert.equal(decide(['Bash'], 'tar -xf g.tar').behavior, 'allow');
    assert.equal(decide(['Bash(tar -xf g.tar)'], 'tar -xf g.tar').behavior, 'allow');
  });
});

describe('jq reads only the files it is given', () => {
  const jq = under('Bash(jq:*)');
  it('-L and --library-path name a folder it reads, judged as any file', () => {
    assert.equal(decide(['Bash(jq:*)'], 'jq -L ~/.docker -n .').reason, `jq reads ${join(home, '.docker')}, which is outside the workspace and the added folders.`);
    for (const c of ['jq -L ~/.docker -n .', 'jq -L~/.docker -n .', 'jq -nL ~/.docker .', 'jq --library-path ~/.docker -n .', 'jq --library-path=~/.docker -n .', 'jq -L ../x .', 'jq --rawfile k ~/.docker/config.json -n .', 'jq --slurpfile k ~/.docker/config.json -n .']) assert.equal(jq(c), 'ask', c);
    assert.equal(jq('jq -L src -n .'), 'allow', 'a folder inside the workspace');
  });

  it('a program that imports, includes, reads module metadata or the environment asks', () => {
    for (const c of [
      `jq -L ~/.docker -n 'import "config" as $c; $c'`,
      `jq -n 'import "e${home}/.docker/config" as $c; $c'`,
      `jq -n 'include "e/etc/x"; .'`,
      `jq -n 'import"e/x"as$c;$c'`,
      `jq -rn --arg a b 'import "e/x" as $c; $c'`,
      `jq -n '"config" | modulemeta'`,
      `jq -n env`,
      `jq -n '$ENV.ANTHROPIC_API_KEY'`,
      `jq -f prog.jq f.json`,
      `jq -nf prog.jq`,
      `jq --from-file prog.jq f.json`,
      `jq --weird x . f.json`,
    ]) {
      assert.equal(jq(c), 'ask', c);
    }
    assert.match(decide(['Bash(jq:*)'], `jq -n 'import "e/x" as $c; $c'`).reason, /the jq program uses import, by which it reads a file the command does not name/);
  });

  it('plain filters still run', () => {
    for (const c of ['jq . f.json', "jq -r '.a' f.json", 'jq -c .env f.json', "jq --arg k v '.[$k]' f.json", "jq -n --argjson n 1 '$n + 1'", 'jq --indent 4 . f.json', 'jq -s . src/a.json src/b.json']) assert.equal(jq(c), 'allow', c);
  });
});

describe('yq reads only the files it is given', () => {
  const yq = under('Bash(yq:*)');
  it('an expression that loads a file or reads the environment asks, and so does any option not known to shape output', () => {
    for (const c of [
      `yq 'load("/etc/passwd")' a.yml`,
      `yq -n 'load_str("../x")'`,
      `yq e -n 'load_xml("e/etc/x")'`,
      `yq eval -n 'env(ANTHROPIC_API_KEY)'`,
      `yq -n 'strenv(HOME)'`,
      `yq -n '"$HOME" | envsubst'`,
      `yq ea '.x | eval(.y)' a.yml`,
      `yq -n '$ENV.ANTHROPIC_API_KEY'`,
      `yq -n 'import "e/x" as $c; $c'`,
      `yq -o json -n 'env(K)'`,
      `yq -oj -n 'env(K)'`,
      `yq --expression 'load("x")' a.yml`,
      `yq --from-file p.yq a.yml`,
      `yq -s '"../out"' a.yml`,
      `yq --split-exp=x a.yml`,
      `yq -f extract . a.yml`,
      `yq --weird x . a.yml`,
      'yq "$P" a.yml',
    ]) {
      assert.equal(yq(c), 'ask', c);
    }
    assert.match(decide(['Bash(yq:*)'], `yq 'load("/etc/passwd")' a.yml`).reason, /the yq expression uses load, by which it reads a file the command does not name/);
  });

  it('plain filters still run', () => {
    for (const c of ["yq '.a' a.yml", "yq ea '.a' a.yml", "yq eval -o json '.a' a.yml", 'yq -r .a a.yml', 'yq -P . a.yml', 'yq -o=json . a.yml', 'yq -I 4 . a.yml', "yq -i '.a = 1' a.yml", "yq ea '. as $i ireduce ({}; . * $i)' a.yml b.yml", "yq '.env.path' a.yml"]) {
      assert.equal(yq(c), 'allow', c);
    }
  });
});

describe('an unknown option before the pattern may take the next word', () => {
  it('rg --ignore-file reads the file it names', () => {
    const rg = under('Bash(rg:*)');
    for (const c of ['rg --ignore-file ~/.ssh/id_rsa foo src', 'rg --ignore-file=~/.ssh/id_rsa foo src', 'rg -n --ignore-file ../x foo src']) assert.equal(rg(c), 'ask', c);
    assert.equal(rg('rg --ignore-file .ignore foo src'), 'allow');
    assert.equal(rg('rg -n foo src'), 'allow');
    assert.equal(rg('rg --hostname-bin ./x foo src'), 'ask', 'rg runs the program it names');
  });

  it('grep, rg: after an option not known, no operand is taken for the pattern', () => {
    assert.equal(under('Bash(grep:*)')('grep --frobnicate ~/.ssh/id_rsa src'), 'ask');
    assert.equal(under('Bash(rg:*)')('rg --new-option ~/.ssh/id_rsa src'), 'ask');
    assert.equal(under('Bash(grep:*)')('grep -rnf ~/.ssh/id_rsa src'), 'ask', 'a bundle ending in -f takes the next word as a file of patterns');
    assert.equal(under('Bash(grep:*)')('grep --exclude-from ~/.ssh/id_rsa x src'), 'ask');
    assert.equal(under('Bash(grep:*)')('grep -rn /usr src'), 'allow', 'known flags keep the pattern');
    assert.equal(under('Bash(grep:*)')('grep -C 3 -i /usr src'), 'allow');
  });

  it('sed -i inside a bundle writes', () => {
    const sed = under('Bash(sed:*)');
    for (const c of ["sed -Ei 's/a/b/' .git/config", "sed -ni 'p' .git/config", "sed -si.bak 's/a/b/' .git/config"]) assert.equal(sed(c), 'ask', c);
    assert.equal(sed("sed -n '1p' .git/config"), 'allow', 'reading is not writing');
  });
});
