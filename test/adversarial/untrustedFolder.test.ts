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
import { BashChecker } from '../../src/permissions/bash/checker';
import { useCli } from '../support/useCli';
import { bashEngine } from './support';

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
];

const INERT = ['cat a.txt', 'ls -la', 'grep -rn foo .', 'git status', 'git diff --stat', 'find . -name "*.rs"', "sed -n '1,5p' a.txt", "awk '{print $1}' a.txt", 'cat a.txt | wc -l', 'head -3 a.txt | sort', 'rg foo'];

describe('an untrusted folder: Bash rules run only programs that take nothing from it', () => {
  it('each program a clone can steer asks untrusted, naming trust; each is allowed once trusted', async () => {
    const cwd = tmp('tl-untrusted-');
    const checker = new BashChecker();
    await checker.ready();
    const untrusted = bashEngine(cwd, { allow: RULES }, checker, { trusted: false });
    const trusted = bashEngine(cwd, { allow: RULES }, checker);
    for (const command of STEERED) {
      const v = untrusted.decide(command);
      assert.equal(v.behavior, 'ask', command);
      // Where another check asks first its reason comes first; a lone program names trust.
      if (!/[|$]/.test(command)) assert.match(v.reason ?? '', /not trusted/, command);
    }
    // The same rules, trusted: what they allowed before still runs (those that others checks let through).
    for (const command of ['rustfmt --check src/main.rs', 'cargo --version', 'pylint src', 'npm test', 'make test', 'nm a.o']) assert.equal(trusted.decide(command).behavior, 'allow', command);
  });

  it('inert programs, git and sed or awk with their program on the command line still run untrusted', async () => {
    const cwd = tmp('tl-untrusted-');
    const checker = new BashChecker();
    await checker.ready();
    const untrusted = bashEngine(cwd, { allow: RULES }, checker, { trusted: false });
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
