import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BashChecker } from '../../../src/permissions/bash/checker';
import { BashParser, defaultWasmLocations, type ParserStatus } from '../../../src/permissions/bash/parser';
import { Permissions, type PermissionRules } from '../../../src/permissions/permissions';
import { createTools } from '../../../src/tools/builtin';
import type { Tool } from '../../../src/tools/types';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const bash = createTools().find((t) => t.name === 'Bash') as Tool;
const checker = new BashChecker();

function engine(rules: Partial<PermissionRules> = {}, bashChecker: BashChecker = checker) {
  const p = new Permissions({ cwd: process.cwd(), rules: () => ({ allow: [], ask: [], deny: [], ...rules }), trusted: () => true, bash: bashChecker });
  const decide = (command: string) => p.decide({ tool: bash, input: { command } });
  return { p, decide };
}

before(() => checker.ready());

/** A parser that starts loading only when the gate opens: the first moments of a session, stretched. */
class GatedParser extends BashParser {
  constructor(private readonly gate: Promise<void>) {
    super();
  }

  override ready(): Promise<ParserStatus> {
    return this.gate.then(() => super.ready());
  }
}

describe('Bash analysis', () => {
  const analyze = (command: string) => {
    const a = checker.analyze(command);
    assert.ok(!('unavailable' in a), 'parsed');
    return a;
  };

  it('compares quoted words by their value', () => {
    for (const spelling of ["'r''m' x", '\\rm x', '"rm" x', "$'\\x72m' x", "$'\\162m' x", 'r""m x']) {
      assert.deepEqual(analyze(spelling).commands.map((c) => c.words), [['rm', 'x']], spelling);
    }
    // `$"rm"` is looked up in a message catalog when it runs, which the script may choose.
    assert.deepEqual(analyze('$"rm" x').commands.map((c) => c.words), [[undefined, 'x']]);
  });

  it('text the grammar drops or joins differently from bash is a misread', () => {
    // Each found by holding the parser to bash (test/unit/permissions/*AgainstBash.property.test.ts).
    for (const command of ["echo $'\\\\' ; rm x #'", 'b - <<EOF\nEOF', 'a "$(b - <<EOF\nEOF\n)"', 'printf \\ a', "printf $''\\$", 'printf $"x"a', 'printf a\\\n$""', "a <<< ''\\aa", 'y=$(a <<EOF\nEOF\nb 3 ; b 4)', 'LANG=\\\n sh echo hi', 'a \\a\\\n 2>/dev/null', '( echo == ; rm -rf x )']) {
      assert.notDeepEqual(analyze(command).misread, [], command);
    }
    for (const command of ['cat <<EOF | grep x\nbody\nEOF', 'b x <<EOF\nEOF', "echo $'a\\'b'", 'echo a \\\nb', 'ls -la', "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", 'echo hi>f', 'a 2>&1>/dev/null', 'a x2>f', 'LANG=C echo hi', 'case $x in a*) echo;; esac', '[[ $x =~ ^a ]] && echo y']) assert.deepEqual(analyze(command).misread, [], command);
  });

  it('resolves wrappers, paths and inner scripts for deny rules', () => {
    const runs = (command: string) => analyze(command).runs.map((r) => r.words.join(' '));
    assert.ok(runs('/usr/bin/rm -f x').includes('rm -f x'));
    assert.ok(runs('sudo -u root env FOO=1 nice -n 5 rm x').includes('rm x'));
    assert.ok(runs('bash -c "echo a; rm x"').includes('rm x'));
    assert.ok(runs('find . -name y -exec rm {} \\;').some((r) => r.startsWith('rm')));
    assert.ok(runs("eval 'rm x'").includes('rm x'));
    assert.ok(runs('trap "rm x" EXIT').includes('rm x'));
    assert.ok(runs('sudo bash <<EOF\nrm x\nEOF').includes('rm x'));
  });

  it('says what it cannot see into', () => {
    for (const command of ['$cmd x', 'echo rm x | sh', 'bash -c "$script"', 'eval "$x"', 'echo ${x@P}', 'echo $((y))']) {
      assert.ok(analyze(command).unseen.length > 0, command);
    }
    for (const command of ['ls -la', 'echo "$HOME" | cat', 'npm test 2>&1']) assert.deepEqual(analyze(command).unseen, [], command);
  });

  it('gives every spelling of one command the same form, and different commands different forms', () => {
    const same = [['npm run build', "npm  run 'build'", 'npm run "build" # again'], ['ls -la src', 'ls   -la \\\n  src']];
    for (const group of same) assert.equal(new Set(group.map((c) => analyze(c).normalized)).size, 1, group.join(' | '));
    const different = ['echo a b', "echo 'a b'", 'echo a;b', "echo 'a;b'", 'echo $x', "echo '$x'", 'ls ~/x', "ls '~/x'", 'ls *', "ls '*'", 'r\\\nm x', 'r m x', 'ls a\x0bb', 'ls a b'];
    assert.equal(new Set(different.map((c) => analyze(c).normalized)).size, different.length);
  });
});

describe('Bash permissions', () => {
  it('allows a chain only when every command in it is covered, each by any rule', () => {
    const { decide } = engine({ allow: ['Bash(echo:*)', 'Bash(cat:*)'] });
    assert.equal(decide('echo "a b" | cat').behavior, 'allow');
    assert.match(decide('echo "a b" | cat').reason, /Bash\(echo:\*\), Bash\(cat:\*\)/);
    assert.equal(decide('echo a | wc -l').behavior, 'ask');
    assert.match(decide('echo a | wc -l').reason, /wc -l/);
  });

  it('names what keeps an allow rule from covering a command', () => {
    const { decide } = engine({ allow: ['Bash(echo:*)', 'Bash(touch:*)'] });
    assert.match(decide('echo a > f').reason, /output redirected to a file/);
    assert.match(decide('touch x &').reason, /background/);
    assert.match(decide('echo ${x@P}').reason, /expansion/);
    assert.match(decide('echo $[y]').reason, /arithmetic/);
  });

  it('a deny rule that may apply to something hidden asks instead of allowing', () => {
    const { decide } = engine({ allow: ['Bash'], deny: ['Bash(rm:*)'] });
    assert.equal(decide('ls -la').behavior, 'allow');
    assert.equal(decide('sudo rm -rf x').behavior, 'deny');
    const hidden = decide('$(echo rm) -rf x');
    assert.equal(hidden.behavior, 'ask');
    assert.match(hidden.reason, /Bash\(rm:\*\) may apply/);
  });

  it('a prefix deny rule sees its words past options; exact rules stay exact', () => {
    const { decide } = engine({ allow: ['Bash'], deny: ['Bash(git push:*)', 'Bash(npm publish)'] });
    assert.equal(decide('git -C ../other push --force').behavior, 'deny');
    assert.equal(decide('git status').behavior, 'allow');
    assert.equal(decide('npm publish').behavior, 'deny');
    assert.equal(decide('npm publish --dry-run').behavior, 'allow');
  });

  it('wildcard rules match words in between, and a trailing " *" also matches nothing', () => {
    const { decide } = engine({ allow: ['Bash(git * main)', 'Bash(ls *)'] });
    assert.equal(decide('git push origin main').behavior, 'allow');
    assert.equal(decide('git push origin dev').behavior, 'ask');
    assert.equal(decide('ls').behavior, 'allow');
    assert.equal(decide('lsof').behavior, 'ask');
    assert.equal(decide('ls; rm x').behavior, 'ask');
  });

  it('a wildcard rule that names no command does not cover a wrapper or a shell', () => {
    const { decide } = engine({ allow: ['Bash(* --help)'] });
    assert.equal(decide('ls --help').behavior, 'allow');
    for (const c of ["bash -c 'rm -rf x' --help", 'sudo rm -rf x --help', 'xargs rm --help', "eval 'rm x' --help"]) assert.equal(decide(c).behavior, 'ask', c);
  });

  it('a session grant covers exactly that command, however it is spelled', () => {
    const { p, decide } = engine();
    p.grantForSession({ tool: bash, input: { command: 'npm run build' } });
    assert.equal(decide("npm  run 'build'").behavior, 'allow');
    assert.equal(decide('npm run build && rm -rf .').behavior, 'ask');
    assert.equal(decide('npm run build &').behavior, 'ask');
    assert.equal(decide('npm run build > out').behavior, 'ask');
    assert.equal(decide('npm run build2').behavior, 'ask');
    p.grantForSession({ tool: bash, input: { command: 'echo a > out.txt' } });
    assert.equal(decide('echo a >out.txt').behavior, 'allow', 'what was granted runs again, redirection and all');
    assert.equal(decide('echo a > other.txt').behavior, 'ask');
  });

  it('a session grant for one command does not cover the same words split into two by a newline', () => {
    const { p, decide } = engine();
    p.grantForSession({ tool: bash, input: { command: 'echo done touch pwned' } });
    assert.equal(decide('echo  done \\\n touch pwned').behavior, 'allow', 'a backslash-newline only continues the line');
    for (const c of ['echo done\ntouch pwned', 'echo done\n\ntouch pwned', 'echo done # note\ntouch pwned', 'echo done\t\ntouch pwned']) {
      assert.equal(decide(c).behavior, 'ask', JSON.stringify(c));
    }
    p.grantForSession({ tool: bash, input: { command: 'ls\nls -a' } });
    assert.equal(decide('ls\n\nls -a').behavior, 'allow', 'two commands on two lines are granted as such');
    assert.equal(decide('ls ls -a').behavior, 'ask');
  });

  it('a command too long to check asks and says so', () => {
    const { decide } = engine({ allow: ['Bash(echo:*)'] });
    const v = decide(`echo ${'a'.repeat(30_000)}`);
    assert.equal(v.behavior, 'ask');
    assert.match(v.reason, /too long/);
  });
});

describe('when the shell parser is not there', () => {
  it('if it cannot load, every Bash command asks, whatever the rules, and the reason says why', async () => {
    const broken = new BashChecker(new BashParser(() => ({ ...defaultWasmLocations(), grammar: join(tmpdir(), 'no-such-grammar.wasm') })));
    const status: ParserStatus = await broken.ready();
    assert.equal(status.state, 'failed');
    for (const rules of [{ allow: ['Bash(echo:*)'] }, { allow: ['Bash'] }, { allow: ['Bash'], deny: ['Bash(rm:*)'] }]) {
      const { decide } = engine(rules, broken);
      const v = decide('echo hi');
      assert.equal(v.behavior, 'ask', JSON.stringify(rules));
      assert.match(v.reason, /shell parser could not load/);
    }
    assert.equal(engine({ deny: ['Bash'] }, broken).decide('echo hi').behavior, 'deny', 'a tool-wide deny still denies');
  });

  it('while it loads, a decision asks; Permissions.ready() waits for it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = new BashChecker(new GatedParser(gate));
    const { p, decide } = engine({ allow: ['Bash(echo:*)'] }, slow);
    assert.equal(decide('echo hi').behavior, 'ask');
    assert.match(decide('echo hi').reason, /still loading/);
    const ready = p.ready();
    release();
    await ready;
    assert.equal(decide('echo hi').behavior, 'allow');
  });
});

describe('the agent waits for the shell parser before its first Bash decision', () => {
  const standin = useStandin();

  it('an allowed command asked for at once runs (headless: an ask would have been a denial)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-bash-wait-'));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    setTimeout(() => release(), 200);
    const slow = new BashChecker(new GatedParser(gate));
    const permissions = new Permissions({ cwd, rules: () => ({ allow: ['Bash(touch:*)'], ask: [], deny: [] }), trusted: () => true, headless: true, bash: slow });
    const { agent } = createStandinAgent({ url: standin.url, cwd, headless: true, extra: { permissions } });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch made-it' } }] }, { content: [{ type: 'text', text: 'done' }] });
    await agent.submit('go');
    assert.ok(existsSync(join(cwd, 'made-it')), 'the command ran');
  });
});
