// A folder the user never trusted steers programs the user's own rules allow: a committed
// rust-toolchain.toml names a toolchain in the clone, a .pylintrc an init-hook, a package.json a
// test script, an argparse.py what `python3 -m json.tool` imports (passes 29–35, one new program
// each time). Untrusted, a Bash allow rule runs only programs known to take nothing from the
// folder; the rest ask, and in `-p` are refused naming trust. Trusted, the rules are as before.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCli } from '../support/useCli';
import { bashEngine, loadedChecker, readyEngine } from './support';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

const RULES = [
  'Bash(rustfmt:*)', 'Bash(cargo --version)', 'Bash(pylint:*)', 'Bash(npm test:*)', 'Bash(python3 -m json.tool:*)', 'Bash(pydoc3:*)',
  'Bash(javac:*)', 'Bash(cscope:*)', 'Bash(bash -n:*)', 'Bash(make test:*)', 'Bash(cfn-lint:*)', 'Bash(ssh-keygen -l:*)', 'Bash(nm:*)',
  'Bash(cat:*)', 'Bash(ls:*)', 'Bash(grep:*)', 'Bash(git status)', 'Bash(git diff:*)', 'Bash(find:*)', 'Bash(sed:*)', 'Bash(awk:*)',
  'Bash(wc:*)', 'Bash(head:*)', 'Bash(sort:*)', 'Bash(rg:*)', 'Bash(timeout:*)', 'Bash(source:*)', 'Bash(xargs:*)',
];

const STEERED = [
  'rustfmt --check src/main.rs', 'cargo --version', 'pylint src', 'npm test', 'python3 -m json.tool a.json', 'pydoc3 json', 'javac A.java',
  'cscope -L -6 SECRET', 'bash -n x.sh', 'make test', 'cfn-lint t.yaml', 'ssh-keygen -l -f k.pub', 'nm a.o', 'timeout 5 rustfmt x',
  'source ./env.sh', 'cat a.txt | rustfmt', 'ls $(npm test)', 'find . -name "*.rs" | xargs rustfmt',
  // A downloaded git folder steers git by files no setting switches off (its index, rerere state,
  // worktree pointers, pack folders: passes 57-66): git asks too.
  'git status', 'git diff --stat',
];

const INERT = ['cat a.txt', 'ls -la', 'grep -rn foo .', 'find . -name "*.rs"', "sed -n '1,5p' a.txt", "awk '{print $1}' a.txt", 'cat a.txt | wc -l', 'head -3 a.txt | sort', 'rg foo'];

describe('an untrusted folder: Bash rules run only programs that take nothing from it', () => {
  it('each program a clone can steer asks untrusted, naming trust; each is allowed once trusted', async () => {
    const cwd = tmp('tl-untrusted-');
    const untrusted = await readyEngine(cwd, { allow: RULES }, { trusted: false });
    const trusted = await readyEngine(cwd, { allow: RULES });
    for (const command of STEERED) {
      const v = untrusted.decide(command);
      assert.equal(v.behavior, 'ask', command);
      // Where another check asks first its reason comes first; a lone program names trust.
      if (!/[|$]/.test(command)) assert.match(v.reason ?? '', /not trusted/, command);
    }
    // The same rules, trusted: what they allowed before still runs (those that others checks let through).
    for (const command of ['rustfmt --check src/main.rs', 'cargo --version', 'pylint src', 'npm test', 'make test', 'nm a.o']) assert.equal(trusted.decide(command).behavior, 'allow', command);
  });

  it('inert programs, and sed or awk with their program on the command line, still run untrusted', async () => {
    const cwd = tmp('tl-untrusted-');
    const untrusted = await readyEngine(cwd, { allow: RULES }, { trusted: false });
    for (const command of INERT) assert.equal(untrusted.decide(command).behavior, 'allow', command);
    for (const command of ["sed -f s.sed a.txt", "awk -f a.awk a.txt", "gawk -i inc.awk '{print}' a.txt"]) assert.notEqual(untrusted.decide(command).behavior, 'allow', command);
  });
});

describe('an untrusted folder through the CLI', () => {
  const { standin, run } = useCli();

  async function npmTest(extra: string[]) {
    const cwd = join(tmp('tl-untrusted-cli-'), 'ws');
    mkdirSync(cwd, { recursive: true });
    // The clone's test script is its own code: untrusted, a rule naming `npm test` must not run it.
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { test: 'node -e "require(\'fs\').writeFileSync(\'RAN\', \'\')"' } }));
    standin.reset();
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'npm test' } }] });
    standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const r = await run(['-p', 'run the tests', '--allowed-tools', 'Bash(npm test:*)', '--output-format', 'json', ...extra], { cwd });
    return { ...r, cwd, sent: standin.requests.map((q) => JSON.stringify(q.body)) };
  }

  it('untrusted: npm test under Bash(npm test:*) is refused, naming trust, and the clone\'s script does not run', async () => {
    const r = await npmTest([]);
    assert.equal(r.sent.length, 2, r.err);
    assert.ok(!existsSync(join(r.cwd, 'RAN')), 'the clone\'s test script ran');
    assert.match(r.sent[1]!, /not trusted.*npm.*--trust/);
  });

  it('--trust for the run: the same rule runs it', async () => {
    const r = await npmTest(['--trust']);
    assert.equal(r.sent.length, 2, r.err);
    assert.ok(existsSync(join(r.cwd, 'RAN')), `npm test did not run: ${r.sent[1]}`);
  });
});

describe('pass 40: ways past the untrusted list, and what it let through', () => {
  it('W1, W2: a program named by a path, or known only when it runs, asks untrusted whatever its base name', async () => {
    const cwd = tmp('tl-untrusted-w1-');
    const eng = await readyEngine(cwd, { allow: ['Bash'] }, { trusted: false });
    for (const command of ['./ls', 'timeout 5 ./ls', 'env ./cat x', 'nohup ./ls', 'sub/../cat x', '~+/cat x', 'env *', 'timeout 5 *', 'nice *', 'xargs ./ls', '$X a']) {
      const v = eng.decide(command);
      assert.equal(v.behavior, 'ask', command);
    }
  });

  it('W3: under Bash itself, the options by which git, tar, sort and rg run programs ask untrusted', async () => {
    const cwd = tmp('tl-untrusted-w3-');
    const eng = await readyEngine(cwd, { allow: ['Bash'] }, { trusted: false });
    for (const command of [
      "git -c alias.x='!python3 x.py' x", "git grep -O'python3 x.py' print", 'git -c core.fsmonitor=./x status', 'git --exec-path=. status', 'git difftool -x ./x',
      'git rebase -x ./x main', 'git bisect run ./x', 'git submodule foreach ./x', 'tar -I ./x -xf a.tar', 'tar --to-command=./x -xf a.tar', 'rg --pre ./x foo', 'sort --compress-program=./x a', 'find . -exec ./x {} ;',
    ]) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['tar -tf a.tar', 'rg foo', 'sort a.txt']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('T1, T2: javac and pydoc are code runners: after a narrow rule, -cp and a file to document ask', async () => {
    const cwd = tmp('tl-trusted-t1-');
    const checker = await loadedChecker();
    const eng = bashEngine(cwd, { allow: ['Bash(javac -d out:*)', 'Bash(pydoc3 -w:*)'] }, checker);
    for (const command of ['javac -d out -cp src src/A.java', 'javac -d out -processorpath src src/A.java', 'pydoc3 -w /tmp/evil.py']) assert.equal(eng.decide(command).behavior, 'ask', command);
  });

  it('K1: protected folders are matched by any case', async () => {
    const cwd = tmp('tl-k1-');
    const checker = await loadedChecker();
    const eng = bashEngine(cwd, { allow: ['Bash(cp:*)', 'Bash(tee:*)', 'Write'] }, checker);
    for (const command of ['cp a.txt .GIT/hooks/pre-commit', 'cp a.txt .Claude/settings.local.json', 'echo x | tee .VSCode/tasks.json']) assert.notEqual(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 42 D1, 45 E1, 66: git in an untrusted folder', () => {
  it('asks under any rule, small folder or large, before and after the look; trusted, it runs', async () => {
    const checker = await loadedChecker();
    const cwd = tmp('tl-untrusted-git-');
    const eng = bashEngine(cwd, { allow: ['Bash(git diff:*)', 'Bash(git status)', 'Bash'] }, checker, { trusted: false });
    await eng.permissions.ready();
    for (const command of ['git diff', 'git status', 'git -C d1 diff', 'cd d1 && git diff', 'timeout 5 git log']) {
      const v = eng.decide(command);
      assert.equal(v.behavior, 'ask', command);
      assert.match(v.reason ?? '', /not trusted, and git/, command);
    }
    assert.equal(bashEngine(cwd, { allow: ['Bash'] }, checker).decide('git diff').behavior, 'allow', 'trusted, git runs');
  });
});

describe('pass 41: git -C before the verb, variables the script sets, writes by redirection', () => {
  it('G1: git\'s own options before a running verb do not hide it', async () => {
    const cwd = tmp('tl-untrusted-g1-');
    const untrusted = await readyEngine(cwd, { allow: ['Bash'] }, { trusted: false });
    const trusted = await readyEngine(cwd, { allow: ['Bash(git rebase:*)', 'Bash(git difftool:*)', 'Bash(git config:*)'] });
    for (const command of ["git -C . rebase -x 'python3 x.py' HEAD~1", "git -C . difftool -y -x 'python3 x.py' HEAD~1 HEAD", 'git -C . bisect run ./x', 'git -C . submodule foreach ./x', 'git -C . config core.fsmonitor x', "git -C . filter-branch --tree-filter 'x' HEAD"]) {
      assert.equal(untrusted.decide(command).behavior, 'ask', command);
    }
    for (const command of ["git -C . rebase -x 'python3 x.py' HEAD~1", "git -C . difftool -x 'python3 x.py'", 'git -C . config core.fsmonitor x']) assert.equal(trusted.decide(command).behavior, 'ask', `trusted: ${command}`);
  });

  it('G2: a variable the script sets that a program reads asks untrusted; locale and shell-only ones do not', async () => {
    const cwd = tmp('tl-untrusted-g2-');
    const eng = await readyEngine(cwd, { allow: ['Bash', 'Bash(env:*)', 'Bash(timeout:*)'] }, { trusted: false });
    for (const command of ['LD_PRELOAD=./evil.so cat a.txt', 'PATH=. ls', 'PATH=.; ls', "TAR_OPTIONS='--checkpoint-action=exec=x' tar -tf a.tar", 'GIT_CONFIG_COUNT=0; git status', 'env GIT_CONFIG_COUNT= git status', 'GIT_EXTERNAL_DIFF=./x git diff', 'GIT_EXEC_PATH=. git x', 'read PATH <<< .; ls', 'printf -v PATH .; ls', 'export PATH=.; ls']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    // Locale variables are fine; any other assignment, a loop, a substitution asks untrusted, as under a prefix rule (pass 44).
    for (const command of ['LANG=C ls', 'LC_ALL=C sort a.txt']) assert.equal(eng.decide(command).behavior, 'allow', command);
    for (const command of ['x=1; echo done', 'while read line; do echo ok; done < a.txt']) assert.equal(eng.decide(command).behavior, 'ask', command);
  });

  it('G3: untrusted, Bash itself holds commands to the workspace and asks for writes by redirection', async () => {
    const cwd = tmp('tl-untrusted-g3-');
    const eng = await readyEngine(cwd, { allow: ['Bash'] }, { trusted: false });
    for (const command of ["printf '[alias]\\n\\tzz = !python3 x.py\\n' >> ~/.gitconfig && git zz", 'git -C /tmp st', 'cat ~/.ssh/id_rsa', 'cp a.txt .git/hooks/pre-commit', 'cat a.txt > out.txt']) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['ls -la', 'grep -rn foo .', 'ls > /dev/null', 'echo hi 2>&1']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });
});

describe('pass 44: more ways to set what a listed program obeys; tar archives on other machines; stored credentials', () => {
  it('H1, H2: glued names, wait -p, set -a, indexes, wrappers before env: each asks untrusted', async () => {
    const cwd = tmp('tl-untrusted-h1-');
    const eng = await readyEngine(cwd, { allow: ['Bash', 'Bash(timeout:*)', 'Bash(nice:*)'] }, { trusted: false });
    for (const command of [
      'printf -vPATH .:/usr/bin:/bin; ls', 'set -a; printf -vLD_PRELOAD ./evil.so; cat a.txt', 'wait -p PATH; ls', 'wait -p GIT_CONFIG_COUNT; git status',
      'a[PATH=0]=1; ls', "read 'a[PATH=0]' <<< x; ls", '[[ -v a[PATH=0] ]]; ls', 'test -v "a[PATH=0]"; ls', '(( PATH=0 )); ls', ': ${PATH:=0}; ls',
      'timeout 5 env PATH=0 ls', 'nice env GIT_CONFIG_COUNT=0 git diff', 'env -u GIT_CONFIG_COUNT git status', 'unset GIT_CONFIG_COUNT; git status',
    ]) {
      assert.equal(eng.decide(command).behavior, 'ask', command);
    }
    for (const command of ['printf "%s\\n" hi', 'read -r line < a.txt', 'ls -la']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('M1: tar with an archive named host:file asks under a rule naming tar; --force-local and a plain name run', async () => {
    const cwd = tmp('tl-tar-m1-');
    const checker = await loadedChecker();
    const eng = bashEngine(cwd, { allow: ['Bash(tar -tf:*)', 'Bash(tar:*)'] }, checker);
    for (const command of ['tar -tf host:file', 'tar -tfhost:x', 'tar -t --file=h:x']) assert.equal(eng.decide(command).behavior, 'ask', command);
    for (const command of ['tar -tf a.tar', 'tar --force-local -tf a:b']) assert.equal(eng.decide(command).behavior, 'allow', command);
  });

  it('L1, D1: git credential reads and rewrites stored credentials: denied by a Read rule on them, asked untrusted', async () => {
    const cwd = tmp('tl-cred-');
    const checker = await loadedChecker();
    const trusted = bashEngine(cwd, { allow: ['Bash'], deny: ['Read(~/.git-credentials)'] }, checker);
    for (const command of ['git credential fill', 'git credential-store get', 'git -C . credential fill']) assert.equal(trusted.decide(command).behavior, 'deny', command);
    const untrusted = bashEngine(cwd, { allow: ['Bash'] }, checker, { trusted: false });
    await untrusted.permissions.ready();
    for (const command of ['git credential-store erase', 'git credential-store store', 'git credential fill']) assert.equal(untrusted.decide(command).behavior, 'ask', command);
  });
});

