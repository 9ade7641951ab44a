import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SessionUiStore } from '../../../src/sessions/sessionUiStore';
import { SessionError } from '../../../src/sessions/transcript';
import { MAX_PROMPT_CHARS } from '../../../src/shared/protocol';
import { MAX_DRAFT_CHARS } from '../../../src/shared/sessionUi';
import { bundle } from '../../support/cliBundle';

const tmp = () => mkdtempSync(join(tmpdir(), 'tl-ui-'));

describe('SessionUiStore: each session keeps its draft and scroll position on disk', () => {
  it('keeps each session its own draft and anchor, read back by a fresh store (the next window)', async () => {
    const dir = tmp();
    const ui = new SessionUiStore(dir);
    await ui.saveDraft('s1', { text: 'first session\n  indented ✓', at: 10 });
    await ui.saveDraft('s2', { text: 'second', at: 11 });
    await ui.saveScroll('s1', { topId: 'a7', atBottom: false, at: 12 });
    await ui.flush();
    const next = new SessionUiStore(dir);
    assert.deepEqual(await next.get('s1'), { draft: { text: 'first session\n  indented ✓', at: 10 }, scroll: { topId: 'a7', atBottom: false, at: 12 } });
    assert.deepEqual(await next.get('s2'), { draft: { text: 'second', at: 11 }, scroll: null });
    assert.deepEqual(await next.get('s3'), { draft: null, scroll: null }, 'a session never saved has nothing');
  });

  it('a burst of saves ends with the last one on disk, and an older copy arriving late is ignored', async () => {
    const dir = tmp();
    const ui = new SessionUiStore(dir);
    await Promise.all(Array.from({ length: 200 }, (_, i) => ui.saveDraft('s1', { text: `typed ${i}`, at: 1000 + i })));
    await ui.saveDraft('s1', { text: 'stale copy from another panel', at: 5 });
    await ui.flush();
    assert.deepEqual((await new SessionUiStore(dir).get('s1')).draft, { text: 'typed 199', at: 1199 });
  });

  it('a sent message clears the draft, and the next one typed (on the panel clock) is kept again', async () => {
    const dir = tmp();
    const ui = new SessionUiStore(dir);
    // The panel's clock may be far ahead of the host's (code-server: browser and server apart).
    const panelNow = Date.now() + 3_600_000;
    await ui.saveDraft('s1', { text: 'about to send', at: panelNow });
    await ui.clearDraft('s1');
    await ui.flush();
    assert.equal((await new SessionUiStore(dir).get('s1')).draft?.text, '');
    await ui.saveDraft('s1', { text: 'the next one', at: panelNow + 400 });
    await ui.flush();
    assert.equal((await new SessionUiStore(dir).get('s1')).draft?.text, 'the next one');
  });

  it('keeps a draft of the largest size whole, and refuses a longer one with a clear error, keeping the old', async () => {
    assert.equal(MAX_DRAFT_CHARS, MAX_PROMPT_CHARS, 'whatever can be sent can be kept');
    const dir = tmp();
    const ui = new SessionUiStore(dir);
    const big = `${'ä€𝄞'.repeat(Math.floor((MAX_DRAFT_CHARS - 10) / 4))}THE END`;
    assert.ok(big.length <= MAX_DRAFT_CHARS && big.length > 900_000);
    await ui.saveDraft('s1', { text: big, at: 1 });
    await ui.flush();
    assert.equal((await new SessionUiStore(dir).get('s1')).draft?.text, big, 'kept whole, to the last character');
    const tooBig = 'x'.repeat(MAX_DRAFT_CHARS + 1);
    await assert.rejects(ui.saveDraft('s1', { text: tooBig, at: 2 }), (err: unknown) => err instanceof SessionError && /1,000,001 characters/.test(err.message) && /at most 1,000,000/.test(err.message));
    await ui.flush();
    assert.equal((await new SessionUiStore(dir).get('s1')).draft?.text, big, 'the refused draft did not replace or cut the kept one');
  });

  it('a broken or hostile file reads as nothing kept; a session id that could leave the folder is refused', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'ui'));
    writeFileSync(join(dir, 'ui', 's1.json'), '{"draft": {"text": 12');
    writeFileSync(join(dir, 'ui', 's2.json'), JSON.stringify({ draft: { text: ['no'], at: 'x' }, scroll: { topId: 'm1', atBottom: true, at: 3 } }));
    const ui = new SessionUiStore(dir);
    assert.deepEqual(await ui.get('s1'), { draft: null, scroll: null });
    assert.deepEqual(await ui.get('s2'), { draft: null, scroll: { topId: 'm1', atBottom: true, at: 3 } }, 'the good half of a file is kept');
    for (const id of ['../escape', 'a/b', '..', '']) {
      await assert.rejects(ui.saveDraft(id, { text: 'x', at: 1 }), SessionError, `refused: ${JSON.stringify(id)}`);
    }
    assert.deepEqual(readdirSync(dir).sort(), ['ui']);
    assert.ok(!existsSync(join(dir, 'escape.json')));
  });

  it('a scroll anchor is written only when it moves', async () => {
    const dir = tmp();
    const ui = new SessionUiStore(dir);
    await ui.saveScroll('s1', { topId: 'm3', atBottom: false, at: 1 });
    await ui.flush();
    const file = join(dir, 'ui', 's1.json');
    const before = readFileSync(file, 'utf8');
    await ui.saveScroll('s1', { topId: 'm3', atBottom: false, at: 2 });
    await ui.flush();
    assert.equal(readFileSync(file, 'utf8'), before);
    await ui.saveScroll('s1', { topId: 'm9', atBottom: true, at: 3 });
    await ui.flush();
    assert.deepEqual((await new SessionUiStore(dir).get('s1')).scroll, { topId: 'm9', atBottom: true, at: 3 });
  });

  it('survives kill -9 mid-write, 20 times: the file always holds one whole draft', async () => {
    const child = await bundle(join(import.meta.dirname, 'uiWriter-child.mts'));
    let seen = 0;
    const runOne = async () => {
      const dir = tmp();
      const p = spawn(process.execPath, [child, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => p.stdout.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 20 + Math.floor(Math.random() * 80)));
      p.kill('SIGKILL');
      await new Promise((r) => p.once('exit', r));
      const file = join(dir, 'ui', 's1.json');
      // What is on disk parses, and the draft in it is whole: it starts and ends with one number.
      const kept = JSON.parse(readFileSync(file, 'utf8')) as { draft: { text: string; at: number } };
      const m = /^draft (\d+) (é*) end (\d+)$/.exec(kept.draft.text);
      assert.ok(m, `a whole draft, not ${kept.draft.text.slice(0, 40)}…${kept.draft.text.slice(-20)}`);
      assert.equal(m[1], m[3]);
      assert.equal(m[2]!.length, Number(m[1]) % 5 === 0 ? 200_000 : 50);
      assert.equal(kept.draft.at, Number(m[1]));
      assert.deepEqual((await new SessionUiStore(dir).get('s1')).draft, kept.draft, 'and the store reads it back');
      seen++;
    };
    for (let batch = 0; batch < 10; batch++) await Promise.all([runOne(), runOne()]);
    assert.equal(seen, 20);
  });
});
