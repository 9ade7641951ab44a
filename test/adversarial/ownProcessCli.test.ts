// Through the real CLI, with `--allowed-tools Bash` (Bash allowed as a whole): no command the
// model sends reaches the CLI's environment through /proc (a thread id of the CLI, a loop or find
// over /proc, a cd, /proc/self/root, a glob for /proc, a here-string), and the API key never
// reaches a request. Each such command is refused with a reason that names /proc.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ScriptedTurn } from '../standin/answer';
import { useCli } from '../support/useCli';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe("`--allowed-tools Bash` does not hand the model the CLI's API key through /proc", { skip: process.platform !== 'linux' && 'needs /proc' }, () => {
  const { standin, start } = useCli();

  it('thread ids, loops, finds, cd, re-entry, globs and here-strings are all refused', async () => {
    const cwd = tmp('tl-proc-');
    const key = `sk-ant-secret-${process.pid}-proc`;
    let pid = 0;
    const tids = () => readdirSync(`/proc/${pid}/task`).map(Number).filter((t) => t !== pid);
    // Worked out when the CLI asks, so the thread ids are those of the running CLI.
    const bash = (command: () => string): ScriptedTurn => ({ content: [], contentFrom: () => [{ type: 'tool_use', name: 'Bash', input: { command: command() } }] });
    const commands = [
      () => `cat /proc/${tids()[0]}/environ`,
      () => `tail -c +1 /proc/${tids()[0]}/environ`,
      () => `cd /proc/${tids()[0]} && cat environ`,
      () => `ln -s /proc/${tids()[0]} t; cat t/environ`,
      () => "for f in /proc/*/environ; do tr '\\0' '\\n' < $f; done | grep -a ANTHROPIC_API_KEY",
      () => 'find /proc -maxdepth 2 -name environ -exec cat {} \\;',
      () => `cd /proc && cat ${pid}/environ`,
      () => `cat /proc/self/root/proc/${pid}/environ`,
      () => `cat /pro?/${pid}/environ`,
      () => `xargs cat <<< /proc/${pid}/environ`,
    ];
    const run = start(['-p', 'look around', '--allowed-tools', 'Bash'], { cwd, key });
    pid = run.p.pid!;
    standin.reset();
    standin.enqueue(...commands.map(bash), { content: [{ type: 'text', text: 'done' }] });
    assert.equal(await run.exit, 0, run.err());
    const bodies = standin.requests.map((r) => JSON.stringify(r.body));
    assert.equal(bodies.length, commands.length + 1);
    assert.ok(!bodies.some((b) => b.includes(key)), 'the key reached the model');
    // Every command was refused (not merely unlucky): each result says why.
    const last = standin.requests.at(-1)!.body as { messages: { content: unknown }[] };
    const results = last.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; content?: unknown }[]) : [])).filter((b) => b.type === 'tool_result');
    assert.equal(results.length, commands.length);
    for (const r of results) assert.match(JSON.stringify(r.content), /\/proc/);
  });
});
