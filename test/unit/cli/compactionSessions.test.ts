import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../../src/cli/cli';
import { cliSessionsDir } from '../../../src/sessions/paths';
import type { MessageParam } from '../../../src/api/types';
import { type ScriptedBlock } from '../../standin/server';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

const NOTES_ASK = 'Update the session notes';
const bulk = (n: number) => Array.from({ length: n }, (_, i) => `row ${i}: some data worth keeping in mind`).join('\n');

function editNotes(line: string) {
  return (body: Record<string, unknown>): ScriptedBlock[] => {
    const last = JSON.stringify((body as { messages: MessageParam[] }).messages.at(-1));
    const path = JSON.parse(`"${/<current-notes path=\\"([^"\\]+)\\">/.exec(last)![1]!}"`) as string;
    return [{ type: 'tool_use', name: 'Edit', input: { file_path: path, old_string: '## Current task', new_string: `## Current task\n${line}` } }];
  };
}

async function cli(argv: string[], cwd: string, env: Record<string, string>) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { io: { out: (t) => (out += t), err: (t) => (err += t) }, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: standin.url, ...env }, cwd });
  return { code, out, err };
}

describe('the CLI around compaction and resume', () => {
  it('archives the transcript before it compacts', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-arch-'));
    const env = { THREADLINE_STATE_DIR: mkdtempSync(join(tmpdir(), 'tl-state-')), THREADLINE_AUTO_MEMORY: '0' };
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Compact', input: { focus: 'the plan' } }] },
      { content: [{ type: 'text', text: '<summary>The plan so far.</summary>' }] },
      { content: [{ type: 'text', text: 'Continuing from the summary.' }] },
    );
    const r = await cli(['-p', 'Plan the work, then compact.'], cwd, env);
    assert.equal(r.code, 0, r.err);
    const archive = join(cliSessionsDir(cwd, env), 'archive');
    assert.ok(existsSync(archive), 'an archive folder was written');
    const files = readdirSync(archive);
    assert.equal(files.length, 1);
    assert.match(readFileSync(join(archive, files[0]!), 'utf8'), /Plan the work, then compact\./);
  });

  it('-p --resume ID keeps writing the resumed session\'s notes', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-notes-'));
    const env = { THREADLINE_STATE_DIR: mkdtempSync(join(tmpdir(), 'tl-state-')), THREADLINE_MEMORY_DIR: join(mkdtempSync(join(tmpdir(), 'tl-mem-')), 'memory') };
    standin.enqueue(
      { content: [{ type: 'text', text: 'Noted the data.' }] },
      { when: NOTES_ASK, content: [], contentFrom: editNotes('First run.') },
    );
    const first = await cli(['-p', `Keep this in mind:\n${bulk(1200)}`, '--output-format', 'json'], cwd, env);
    assert.equal(first.code, 0, first.err);
    const id = (JSON.parse(first.out) as { session_id: string }).session_id;
    const notesDir = join(cliSessionsDir(cwd, env), 'notes');
    assert.match(readFileSync(join(notesDir, `${id}.md`), 'utf8'), /First run\./);
    standin.reset();
    standin.enqueue(
      { content: [{ type: 'text', text: 'More data noted.' }] },
      { when: NOTES_ASK, content: [], contentFrom: editNotes('Second run.') },
    );
    // Enough new conversation for the next update: 3/4 of the 40k verbatim tail on a 200k window.
    const second = await cli(['-p', `And this:\n${bulk(3000)}`, '--resume', id, '--output-format', 'json'], cwd, env);
    assert.equal(second.code, 0, second.err);
    assert.equal((JSON.parse(second.out) as { session_id: string }).session_id, id);
    assert.deepEqual(readdirSync(notesDir).filter((f) => f.endsWith('.md')), [`${id}.md`], 'no notes under a new id');
    assert.match(readFileSync(join(notesDir, `${id}.md`), 'utf8'), /Second run\.[\s\S]*First run\./);
  });

  it('a session resumed the next day clears its old tool results (the three latest stay)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tl-cli-day-'));
    const env = { THREADLINE_STATE_DIR: mkdtempSync(join(tmpdir(), 'tl-state-')), THREADLINE_AUTO_MEMORY: '0' };
    for (let i = 0; i < 8; i++) writeFileSync(join(cwd, `f${i}.txt`), `file ${i}\n${'content line\n'.repeat(200)}`);
    standin.enqueue(...Array.from({ length: 8 }, (_, i) => ({ content: [{ type: 'tool_use' as const, name: 'Read', input: { file_path: `f${i}.txt` } }] })), { content: [{ type: 'text', text: 'Read them all.' }] });
    const first = await cli(['-p', 'Read f0..f7', '--output-format', 'json', '--max-turns', '20'], cwd, env);
    assert.equal(first.code, 0, first.err);
    const id = (JSON.parse(first.out) as { session_id: string }).session_id;
    // The next day: move every timestamp of the transcript back by a day.
    const dir = cliSessionsDir(cwd, env);
    const file = readdirSync(dir).find((f) => f.startsWith(id))!;
    const day = 24 * 60 * 60_000;
    const lines = readFileSync(join(dir, file), 'utf8').trim().split('\n').map((l) => {
      const e = JSON.parse(l) as { t: string; v?: { createdAt?: number } };
      if (e.t === 'view' && typeof e.v?.createdAt === 'number') e.v.createdAt -= day;
      return JSON.stringify(e);
    });
    writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
    standin.reset();
    standin.enqueue({ content: [{ type: 'text', text: 'Back again.' }] });
    const second = await cli(['-p', 'Where were we?', '--resume', id], cwd, env);
    assert.equal(second.code, 0, second.err);
    const results = (standin.requests[0]!.body as { messages: MessageParam[] }).messages
      .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
      .filter((b) => b.type === 'tool_result') as Array<{ content: string }>;
    assert.equal(results.length, 8);
    assert.equal(results.filter((r) => r.content.startsWith('[Old tool result cleared')).length, 5);
  });
});
