import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { memoryKeyFolder } from '../../../src/tools/gitRepo';
import { MemoryDir } from '../../../src/memory/memdir';
import { resolveMemoryDir } from '../../../src/memory/paths';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

const memoryFile = (name: string, type = 'feedback') => `---\nname: ${name}\ndescription: Prefers terse answers\ntype: ${type}\n---\nSkip summaries.\n`;

function setup(opts: { memoryInside?: boolean; notes?: boolean; allow?: string[]; auto?: boolean } = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-mem-'));
  const dir = opts.memoryInside ? join(cwd, '.memory') : join(mkdtempSync(join(tmpdir(), 'tl-memdir-')), 'memory');
  const saved: string[][] = [];
  const notesPath = join(cwd, '.notes', 'session.md');
  const { agent, store } = createStandinAgent({
    url: standin.url,
    cwd,
    settings: { model: 'standin-test-model', contextWindow: 60_000 },
    rules: { allow: opts.allow ?? [] },
    headless: true,
    extra: { memory: { dir, enabled: () => opts.auto ?? true, onSaved: (n) => saved.push(n), ...(opts.notes ? { sessionNotesPath: notesPath } : {}) } },
  });
  const body = (i: number) => standin.requests[i]!.body as { system: Array<{ text: string }>; messages: MessageParam[] };
  return { cwd, dir, agent, store, saved, notesPath, body };
}

describe('auto memory against the stand-in', () => {
  it('extracts after the answer with a fork that writes a typed memory file and updates the index', async () => {
    const { dir, agent, saved, body } = setup();
    standin.enqueue(
      { content: [{ type: 'text', text: 'Here is the short answer.' }] },
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(dir, 'feedback_terse.md'), content: memoryFile('feedback_terse') } }] },
    );
    await agent.submit("Don't write summaries at the end, I read the diff.");
    await agent.drain();
    assert.equal(standin.requests.length, 2, 'the answer, then one fork request: its successful write ends it');
    assert.match(body(0).system.map((b) => b.text).join('\n'), /# Memory/, 'the memory section is in the main prompt');
    assert.match(JSON.stringify(body(1).messages.at(-1)), /remembered in future conversations/);
    const { valid } = await new MemoryDir(dir).list();
    assert.deepEqual(valid.map((m) => [m.name, m.type]), [['feedback_terse', 'feedback']]);
    assert.match(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), /feedback_terse/);
    assert.deepEqual(saved, [['feedback_terse']]);
  });

  it('denies the extraction fork anything but reads and writes inside the memory folder', async () => {
    const { cwd, dir, agent, body } = setup();
    standin.enqueue(
      { content: [{ type: 'text', text: 'answer' }] },
      {
        content: [
          { type: 'tool_use', name: 'Bash', input: { command: 'touch hacked' } },
          { type: 'tool_use', name: 'Write', input: { file_path: join(cwd, 'outside.md'), content: 'x' } },
        ],
      },
      { content: [{ type: 'text', text: 'nothing to save' }] },
    );
    await agent.submit('hello');
    await agent.drain();
    const results = body(2).messages.at(-1)!.content as Array<{ is_error?: boolean; content: string }>;
    assert.ok(results.every((r) => r.is_error));
    assert.match(results[0]!.content, /Unknown tool: Bash|may not use Bash/, 'the fork has no shell at all');
    assert.match(results[1]!.content, /only write inside/);
    assert.equal(existsSync(join(cwd, 'hacked')), false);
    assert.equal(existsSync(join(cwd, 'outside.md')), false);
    assert.equal((await new MemoryDir(dir).list()).valid.length, 0);
  });

  it('skips extraction when the main agent already wrote to memory in that loop', async () => {
    const { dir, agent } = setup({ memoryInside: true, allow: ['Write'] });
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(dir, 'user_role.md'), content: memoryFile('user_role', 'user') } }] },
      { content: [{ type: 'text', text: 'Noted in memory.' }] },
    );
    await agent.submit('Remember that I am a data engineer.');
    await agent.drain();
    assert.equal(standin.requests.length, 2, 'no extraction request');
    assert.match(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), /user_role/, 'the index was rebuilt from the new file');
  });

  it('session notes: updated by a fork once past 10k tokens, then used by compaction with no summary request', async () => {
    // Auto memory off here, so the only fork is the notes fork (both would take scripted turns).
    const { agent, notesPath, store, body } = setup({ notes: true, auto: false });
    const bulk = Array.from({ length: 1200 }, (_, i) => `row ${i}: some data worth keeping in mind`).join('\n');
    standin.enqueue(
      { content: [{ type: 'text', text: 'Loaded the data.' }] },
      // The notes fork edits the template in the notes file.
      { content: [{ type: 'tool_use', name: 'Edit', input: { file_path: notesPath, old_string: '## Current task', new_string: '## Current task\nAnalyse the rows the user pasted.' } }] },
    );
    await agent.submit(`Please look at this:\n${bulk}`);
    await agent.drain();
    assert.match(readFileSync(notesPath, 'utf8'), /Analyse the rows the user pasted\./);
    standin.enqueue({ content: [{ type: 'text', text: 'Second answer.' }] });
    await agent.submit('one more question');
    await agent.drain();
    const before = standin.requests.length;
    assert.equal(await agent.compactNow(), true);
    assert.equal(standin.requests.length, before, 'no summarising request: the notes were the summary');
    const divider = store.getState().messages.find((m) => m.kind === 'compaction');
    assert.ok(divider && divider.kind === 'compaction' && /Analyse the rows/.test(divider.summary));
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await agent.submit('continue');
    const first = JSON.stringify(body(standin.requests.length - 1).messages);
    assert.match(first, /Analyse the rows the user pasted/);
    assert.match(first, /Second answer\./, 'the most recent exchange is kept verbatim');
    assert.doesNotMatch(first, /row 1100: some data/, 'the old bulk is gone');
  });
});

describe('memory folder per repository', () => {
  it('is shared by two worktrees of one repository', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'tl-wt-'));
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'a.txt'), 'a');
    git(repo, 'add', '.');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'a');
    const wt = join(mkdtempSync(join(tmpdir(), 'tl-wt2-')), 'feature');
    git(repo, 'worktree', 'add', '-q', '-b', 'feature', wt);
    mkdirSync(join(wt, 'sub'), { recursive: true });
    const a = await memoryKeyFolder(repo, true);
    const b = await memoryKeyFolder(join(wt, 'sub'), true);
    assert.equal(realpathSync(a!), realpathSync(repo));
    assert.equal(a, b);
    const storage = mkdtempSync(join(tmpdir(), 'tl-gs-'));
    const da = resolveMemoryDir({ globalStorageDir: storage, canonicalRoot: a! });
    const db = resolveMemoryDir({ globalStorageDir: storage, canonicalRoot: b! });
    assert.ok(da.ok && db.ok && da.dir === db.dir);
    assert.equal(resolveMemoryDir({ setting: '/', globalStorageDir: storage, canonicalRoot: a! }).ok, false, 'a root folder is refused');
  });
});
