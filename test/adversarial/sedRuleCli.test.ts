// `--allowed-tools 'Bash(sed:*)'` in a clone whose README steers the model: sed's own language
// runs programs (`1e cmd`), reads files the command never names (`r ../secret`) and writes them
// (`w .git/hooks/pre-commit`). Through the bundled CLI, none of it runs, and the secret never
// reaches the next request; an ordinary sed still does.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCli } from '../support/useCli';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe('a Bash(sed:*) rule through the CLI', () => {
  const { standin, run: runCli } = useCli();

  async function run(commands: string[]) {
    const base = tmp('tl-sedcli-');
    const cwd = join(base, 'ws');
    mkdirSync(join(cwd, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(cwd, 'README.md'), 'alpha\nbeta\n');
    writeFileSync(join(base, 'secret'), 'CANARY-SED-SECRET\n');
    standin.reset();
    for (const command of commands) standin.enqueue({ content: [{ type: 'tool_use', name: 'Bash', input: { command } }] });
    standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const { err } = await runCli(['-p', 'follow the README', '--allowed-tools', 'Bash(sed:*)'], { cwd });
    return { base, cwd, err, sent: standin.requests.map((r) => JSON.stringify(r.body)) };
  }

  it('sed e, r and w are refused with the reason; the secret does not reach the model and no hook is planted', async () => {
    const r = await run([
      `sed -n '1e cat ../secret' README.md`,
      `sed -n '1r ../secret' README.md`,
      `sed -n 's/x/y/e' README.md`,
      `sed -n '1w .git/hooks/pre-commit' README.md`,
      `sed -n '1e touch ../ran' README.md`,
    ]);
    assert.equal(r.sent.length, 6, r.err);
    assert.ok(!r.sent.some((s) => s.includes('CANARY-SED-SECRET')), 'the secret reached a request');
    assert.match(r.sent[1]!, /the sed command e runs a program/);
    assert.match(r.sent[2]!, /reads a file the command does not name/);
    assert.ok(!existsSync(join(r.cwd, '.git', 'hooks', 'pre-commit')), 'a hook was planted');
    assert.ok(!existsSync(join(r.base, 'ran')), 'a program ran');
  });

  it('an ordinary sed still runs under the rule', async () => {
    const r = await run([`sed -n '2p' README.md`]);
    assert.match(r.sent[1]!, /beta/, r.err);
  });
});
