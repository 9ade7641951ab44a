// Pass 30, F3 (low): a headless denial names the flag that would allow the call, carrying the
// model's text. It was printed in double quotes (`--allowed-tools "Bash(echo '$(touch x)')"`) or
// with no quotes (`--add-dir /tmp/$(touch y)`), so a user who pasted it ran the model's `$(…)` in
// their own shell. Every value is now one single-quoted word the shell reads back as it is.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { shellWord } from '../../src/permissions/refusal';
import { Permissions } from '../../src/permissions/permissions';
import { createTools } from '../../src/tools/builtin';
import type { Tool } from '../../src/tools/types';
import { tempDir } from './support';

const [bash, read] = ['Bash', 'Read'].map((n) => createTools().find((t) => t.name === n)!) as [Tool, Tool];

/** What bash's `printf '<%s>'` makes of the pasted text: each word it reads, and whether a marker appeared. */
function pasted(text: string, marker: string): { words: string; ran: boolean } {
  const words = execFileSync('bash', ['-c', `printf '<%s>' ${text}`], { encoding: 'utf8' });
  return { words, ran: existsSync(marker) };
}

describe('pass 30 F3: the flag a headless denial suggests, pasted into a shell', () => {
  it('runs nothing and reads back as the rule or folder it names', async () => {
    const ws = tempDir('pasted');
    const marks = tempDir('pasted-marks');
    const p = new Permissions({ cwd: ws, rules: () => ({ allow: [], ask: [], deny: [] }), trusted: () => true, headless: true });
    await p.ready?.();
    const cmd = `echo '$(touch ${join(marks, 'a')})' "\`touch ${join(marks, 'b')}\`"`;
    const v1 = p.decide({ tool: bash, input: { command: cmd } });
    const flag1 = /allow it with (--allowed-tools .*)\.$/.exec(v1.reason)?.[1];
    assert.ok(flag1, v1.reason);
    const r1 = pasted(flag1.replace(/^--allowed-tools /, ''), join(marks, 'a'));
    assert.equal(r1.ran || existsSync(join(marks, 'b')), false, `pasting ${flag1} ran the model's text`);
    assert.equal(r1.words, `<Bash(${cmd})>`);

    const file = `/tmp/$(touch ${join(marks, 'c')})/f`;
    const v2 = p.decide({ tool: read, input: { file_path: file } });
    const flags = [...v2.reason.matchAll(/(--add-dir|--allowed-tools) ('(?:[^']|'\\'')*'|\S+?)(?= or |\.$)/g)];
    assert.equal(flags.length, 2, v2.reason);
    for (const m of flags) {
      const r = pasted(m[2]!, join(marks, 'c'));
      assert.equal(r.ran, false, `pasting ${m[0]} ran the model's text`);
    }
  });

  it('shellWord round-trips every byte a shell treats specially', () => {
    for (const s of ["a'b", '$(x)', '`x`', '$HOME', 'a b', '!x', '"q"', '\\', "''", 'plain/path-1.2']) {
      assert.equal(execFileSync('bash', ['-c', `printf %s ${shellWord(s)}`], { encoding: 'utf8' }), s, s);
    }
  });
});
