// Pass 43 E1 (critical): Edit's result shows the lines around its change, and Edit is judged by
// Edit rules alone; under `Edit` with `Read(./.env)` denied, two edits (`A=1` to `A=1 ` and back)
// returned the whole `.env` to the model and left it as it was. Through the CLI, the result of an
// Edit or Write of a Read-denied file now says what happened and withholds the text.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCli } from '../support/useCli';

const tmp = (p: string) => realpathSync(mkdtempSync(join(tmpdir(), p)));

describe('pass 43 E1: Edit and Write results of a file a Read deny rule covers', () => {
  const { standin, run } = useCli();

  it('never show its text (the Edit is denied outright), and an ordinary file still shows its lines', async () => {
    const cwd = tmp('tl-e1-');
    const home = tmp('tl-e1-home-');
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }));
    const secret = Array.from({ length: 20 }, (_, i) => `KEY_${i}=E1-SECRET-${i}`).join('\n');
    writeFileSync(join(cwd, '.env'), `A=1\n${secret}\n`);
    writeFileSync(join(cwd, 'notes.txt'), 'alpha\nbeta\n');
    standin.reset();
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Edit', input: { file_path: '.env', old_string: 'A=1', new_string: 'A=1 ' } }] });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Edit', input: { file_path: '.env', old_string: 'NOT-THERE', new_string: 'x' } }] });
    standin.enqueue({ content: [{ type: 'tool_use', name: 'Edit', input: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } }] });
    standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const r = await run(['-p', 'tidy', '--allowed-tools', 'Edit', '--trust'], { cwd, home });
    const sent = standin.requests.map((q) => JSON.stringify(q.body));
    assert.equal(sent.length, 4, r.err);
    assert.ok(!sent.some((s) => s.includes('E1-SECRET')), 'the secret reached a request');
    // Since pass 46 F1 the edit itself is denied: whether it finds its text would tell the file.
    assert.match(sent[1]!, /finds its text in the file/);
    assert.match(readFileSync(join(cwd, '.env'), 'utf8'), /^A=1\n/);
    assert.match(sent[3]!, /gamma/);
  });
});

// Pass 43 E2 (critical): `@.env` in an instruction file (a committed CLAUDE.md, or one the model
// edits under `Edit(*.md)`) sent a Read-denied file to the model as project instructions.
describe('pass 43 E2: an include of a file a Read deny rule covers', () => {
  const { standin, run } = useCli();

  it('is not sent, and context names why; other includes still are', async () => {
    const cwd = tmp('tl-e2-');
    const home = tmp('tl-e2-home-');
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./.env)', 'Read(./secrets/**)'] } }));
    writeFileSync(join(cwd, '.env'), 'TOKEN=E2-SECRET-ENV\n');
    mkdirSync(join(cwd, 'secrets'));
    writeFileSync(join(cwd, 'secrets', 'k.md'), 'E2-SECRET-FOLDER\n');
    writeFileSync(join(cwd, 'style.md'), 'Use tabs (E2-OK).\n');
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Notes: @.env and @secrets/k.md and @style.md\n');
    const ctx = await run(['context'], { cwd, home });
    assert.equal(ctx.code, 0, ctx.err);
    assert.match(ctx.out, /a Read deny rule covers it/);
    standin.reset();
    standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    const r = await run(['-p', 'hello'], { cwd, home });
    const sent = standin.requests.map((q) => JSON.stringify(q.body));
    assert.equal(sent.length, 1, r.err);
    assert.doesNotMatch(sent[0]!, /E2-SECRET/);
    assert.match(sent[0]!, /E2-OK/);
  });
});
