import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import type { ViewMessage } from '../../../src/shared/viewState';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionUiStore } from '../../../src/sessions/sessionUiStore';
import { bundle } from '../../support/cliBundle';
import { archiveToMarkdown, assertSessionId, SessionError, sessionCheckpointsDir, SessionStore, sessionToMarkdown } from '../../../src/sessions/sessionStore';

const tmp = () => mkdtempSync(join(tmpdir(), 'tl-sess-'));
const user = (i: number): ViewMessage => ({ kind: 'user', id: `u${i}`, text: `question ${i}`, createdAt: i });

describe('session persistence', () => {
  it('records messages, compaction replacements and view changes, and loads them back', async () => {
    const store = new SessionStore(tmp());
    const rec = new SessionRecorder(store, { id: 's1', cwd: '/w', model: 'm', branch: 'main' });
    const h1: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'Fix the login bug please' }] }];
    const v1: ViewMessage[] = [{ kind: 'user', id: 'u1', text: 'Fix the login bug please', createdAt: 1 }];
    await rec.sync(h1, v1, 10);
    const h2: MessageParam[] = [...h1, { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }];
    const v2: ViewMessage[] = [...v1, { kind: 'assistant', id: 'a1', text: 'Done.', streaming: false, createdAt: 2 }];
    await rec.sync(h2, v2, 20);
    const compacted: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'summary' }] }];
    await rec.sync(compacted, [...v2, { kind: 'compaction', id: 'c1', tokensBefore: 20, tokensAfter: 5, summary: 'summary', canUndo: true, createdAt: 3 }], 5, 'compaction');
    await rec.flush();
    const s = await store.load('s1');
    assert.deepEqual(s.history, compacted);
    assert.equal(s.view.length, 3);
    assert.equal(s.title, 'Fix the login bug please');
    assert.equal(s.tokens, 5);
    assert.deepEqual(s.skipped, []);
    const [entry] = await store.list();
    assert.equal(entry!.id, 's1');
    assert.equal(entry!.messageCount, 2);
    assert.equal(entry!.branch, 'main');
    assert.equal(entry!.preview, 'Fix the login bug please', 'the index carries the user\'s words for search');
  });

  it('writes nothing for a session with no message yet', async () => {
    const store = new SessionStore(tmp());
    await new SessionRecorder(store, { id: 'empty', cwd: '/w', model: 'm' }).sync([], [], 0);
    assert.deepEqual(await store.list(), []);
  });

  it('skips and reports a corrupt line in the middle; the rest loads and the file stays', async () => {
    const dir = tmp();
    const store = new SessionStore(dir);
    const rec = new SessionRecorder(store, { id: 's2', cwd: '/w', model: 'm' });
    await rec.sync([{ role: 'user', content: [{ type: 'text', text: 'one' }] }], [user(1)], 1);
    appendFileSync(store.file('s2'), '{"t":"msg","m":{"role":"assis\n');
    await rec.sync(
      [
        { role: 'user', content: [{ type: 'text', text: 'one' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
      ],
      [user(1), user(2)],
      2,
    );
    const before = readFileSync(store.file('s2'), 'utf8');
    const s = await store.load('s2');
    assert.equal(s.skipped.length, 1);
    assert.equal(s.history.length, 2);
    assert.equal(s.view.length, 2);
    assert.equal(readFileSync(store.file('s2'), 'utf8'), before, 'loading never rewrites or deletes the file');
  });

  it('skips and reports a torn last line (a write cut off by power loss)', async () => {
    const store = new SessionStore(tmp());
    await new SessionRecorder(store, { id: 't', cwd: '/w', model: 'm' }).sync([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], [user(1)], 1);
    appendFileSync(store.file('t'), '{"t":"msg","m":{"role":"assistant","content":[{"type":"te');
    const s = await store.load('t');
    assert.equal(s.history.length, 1);
    assert.equal(s.skipped.length, 1);
    assert.match(s.skipped[0]!.reason, /torn or corrupt/);
  });

  it('renames, deletes with undo, and exports a session as markdown', async () => {
    const store = new SessionStore(tmp());
    const rec = new SessionRecorder(store, { id: 'r1', cwd: '/w', model: 'm' });
    await rec.sync([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], [user(1), { kind: 'assistant', id: 'a1', text: 'The **answer**.', streaming: false, createdAt: 2 }], 5);
    await rec.flush();
    await store.rename('r1', '  Login bug   hunt ');
    assert.equal((await store.list())[0]!.title, 'Login bug hunt');
    assert.equal((await store.load('r1')).title, 'Login bug hunt');
    await store.delete('r1');
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(await store.rebuildIndex(), [], 'a deleted session stays out of a rebuilt index');
    await store.restore('r1');
    assert.equal((await store.list())[0]!.title, 'Login bug hunt');
    const md = sessionToMarkdown(await store.load('r1'));
    assert.match(md, /^# Login bug hunt/);
    assert.match(md, /## You\n\nquestion 1/);
    assert.match(md, /## Threadline\n\nThe \*\*answer\*\*\./);
    await assert.rejects(store.rename('r1', '   '), SessionError);
  });

  it('a deleted session takes its draft, scroll anchor and checkpoints to the trash, and Undo brings them back', async () => {
    const dir = tmp();
    const store = new SessionStore(dir);
    const rec = new SessionRecorder(store, { id: 'd1', cwd: '/w', model: 'm' });
    await rec.sync([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], [user(1)], 5);
    await rec.flush();
    const ui = new SessionUiStore(dir);
    await ui.saveDraft('d1', { text: 'half a thought', at: 3 });
    await ui.saveScroll('d1', { topId: 'u1', atBottom: false, at: 4 });
    await ui.flush();
    const uiFile = join(dir, 'ui', 'd1.json');
    const kept = readFileSync(uiFile, 'utf8');
    const manifest = join(sessionCheckpointsDir(dir, 'd1'), 'manifest.jsonl');
    mkdirSync(dirname(manifest), { recursive: true });
    writeFileSync(manifest, '{"t":"checkpoint"}\n');
    await store.delete('d1');
    assert.equal(existsSync(uiFile), false, 'the deleted session left its UI file behind');
    assert.equal(existsSync(sessionCheckpointsDir(dir, 'd1')), false, 'the deleted session left its checkpoints behind');
    await store.restore('d1');
    assert.equal(readFileSync(uiFile, 'utf8'), kept);
    assert.equal(readFileSync(manifest, 'utf8'), '{"t":"checkpoint"}\n');
    assert.deepEqual((await new SessionUiStore(dir).get('d1')).draft, { text: 'half a thought', at: 3 });
    // A session that never had a draft deletes and restores as before.
    const bare = new SessionRecorder(store, { id: 'd2', cwd: '/w', model: 'm' });
    await bare.sync([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], [user(2)], 5);
    await bare.flush();
    await store.delete('d2');
    await store.restore('d2');
    assert.deepEqual((await store.list()).map((s) => s.id).sort(), ['d1', 'd2']);
  });

  it("a deleted session's checkpoints leave the disk a day after the delete (the next delete purges them)", async () => {
    const dir = tmp();
    const store = new SessionStore(dir);
    for (const id of ['old', 'new']) {
      const rec = new SessionRecorder(store, { id, cwd: '/w', model: 'm' });
      await rec.sync([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], [user(1)], 5);
      await rec.flush();
      mkdirSync(join(sessionCheckpointsDir(dir, id), 'blobs'), { recursive: true });
      writeFileSync(join(sessionCheckpointsDir(dir, id), 'manifest.jsonl'), '{"t":"checkpoint"}\n');
    }
    await store.delete('old');
    const trashed = join(dir, '.trash', 'old.checkpoints');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(trashed, twoDaysAgo, twoDaysAgo);
    await store.delete('new');
    assert.equal(existsSync(trashed), false, 'checkpoints trashed two days ago are gone');
    assert.equal(existsSync(join(dir, '.trash', 'new.checkpoints', 'manifest.jsonl')), true, 'those trashed just now stay, for Undo');
    await store.restore('new');
    assert.equal(existsSync(join(sessionCheckpointsDir(dir, 'new'), 'manifest.jsonl')), true);
  });

  it('renders an archived transcript as read-only markdown, skipping reminders and bad lines', () => {
    const jsonl = [
      JSON.stringify({ role: 'user', content: [{ type: 'text', text: '<system-reminder type="instructions">x</system-reminder>' }, { type: 'text', text: 'Find the bug' }] }),
      'garbage',
      JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: 'a.ts' } }] }),
      JSON.stringify({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'const a = 1;' }] }),
    ].join('\n');
    const md = archiveToMarkdown(jsonl);
    assert.match(md, /## You\n\nFind the bug/);
    assert.match(md, /\*\*Read\*\*/);
    assert.match(md, /const a = 1;/);
    assert.match(md, /unreadable line was skipped/);
    assert.doesNotMatch(md, /system-reminder/);
  });

  it('refuses hostile ids and rebuilds a corrupt index from the transcripts', async () => {
    assert.throws(() => assertSessionId('../../etc/passwd'), SessionError);
    assert.throws(() => assertSessionId(''), SessionError);
    const dir = tmp();
    const store = new SessionStore(dir);
    await new SessionRecorder(store, { id: 'a', cwd: '/w', model: 'm' }).sync([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], [user(1)], 1);
    writeFileSync(join(dir, 'index.json'), '{not json');
    assert.deepEqual((await store.list()).map((e) => e.id), ['a'], 'listing mends a corrupt index from the transcripts');
    writeFileSync(join(dir, 'index.json'), '{not json');
    const rebuilt = await store.rebuildIndex();
    assert.deepEqual(rebuilt.map((e) => e.id), ['a']);
    assert.deepEqual((await store.list()).map((e) => e.id), ['a']);
  });

  it('keeps every index entry when many writers update it at once', async () => {
    const dir = tmp();
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const r = new SessionRecorder(new SessionStore(dir), { id: `w${i}`, cwd: '/w', model: 'm' });
        await r.sync([{ role: 'user', content: [{ type: 'text', text: 'q' }] }], [user(i)], i);
        await r.flush();
      }),
    );
    assert.equal((await new SessionStore(dir).list()).length, 20);
  });

  it('survives kill -9 at random points, 30 times: every complete line loads, a torn last line is reported', async () => {
    // Bundled, so each run pays Node's start-up only; the CLI's own kill test does 100 runs.
    const child = await bundle(join(import.meta.dirname, 'writer-child.mts'));
    let torn = 0;
    const runOne = async (k: number) => {
      const dir = tmp();
      const p = spawn(process.execPath, [child, dir, `k${k}`], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => p.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 60)));
      p.kill('SIGKILL');
      await new Promise((r) => p.once('exit', r));
      const store = new SessionStore(dir);
      let s;
      try {
        s = await store.load(`k${k}`);
      } catch (e) {
        // Killed before the header line was complete: nothing was lost, since nothing was said.
        assert.match(String(e), /no session header|ENOENT/);
        return;
      }
      const raw = readFileSync(store.file(`k${k}`), 'utf8');
      const lines = raw.split('\n');
      // Everything before the last newline is complete; what follows it is a torn line (or '').
      const complete = lines.slice(0, -1);
      const tornTail = lines.at(-1)!;
      if (tornTail) torn++;
      assert.equal(s.skipped.length, tornTail ? 1 : 0, 'only a torn last line is ever skipped');
      assert.equal(s.history.length, complete.filter((l) => l.startsWith('{"t":"msg"')).length, 'every complete message line loads');
      for (let i = 0; i < s.history.length; i++) assert.match(JSON.stringify(s.history[i]), new RegExp(`message ${i} `));
    };
    for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 3 }, (_, j) => runOne(batch * 3 + j)));
    // How many runs were cut mid-line varies with timing; the assertions above hold either way.
    process.stdout.write(`# kill -9 runs with a torn last line: ${torn}/30\n`);
  });
});
