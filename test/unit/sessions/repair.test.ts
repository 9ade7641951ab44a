import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import type { ViewMessage } from '../../../src/shared/viewState';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { resumedRecorder } from '../../../src/sessions/resume';
import { SessionStore } from '../../../src/sessions/sessionStore';

const tmp = () => mkdtempSync(join(tmpdir(), 'tl-repair-'));
const msg = (role: 'user' | 'assistant', t: string): MessageParam => ({ role, content: [{ type: 'text', text: t }] });
const user = (i: number, text = `question ${i}`): ViewMessage => ({ kind: 'user', id: `u${i}`, text, createdAt: i });

async function oneSession(store: SessionStore, id: string, text = 'first question') {
  const rec = new SessionRecorder(store, { id, cwd: '/w', model: 'm' });
  await rec.sync([msg('user', text)], [user(1, text)], 1);
  await rec.flush();
}

describe('a torn last line (a crash mid-append)', () => {
  it('is cut off before the next append, so the next prompt is not lost on reload', async () => {
    const store = new SessionStore(tmp());
    await oneSession(store, 't');
    const torn = '{"t":"msg","m":{"role":"assistant","content":[{"type":"te';
    appendFileSync(store.file('t'), torn);
    // The next run resumes the session and sends its next prompt.
    const loaded = await store.load('t');
    const history = loaded.history;
    const rec = resumedRecorder(loaded, store);
    const next = [...history, msg('assistant', 'an answer'), msg('user', 'the next prompt')];
    await rec.sync(next, [...loaded.view, user(2, 'the next prompt')], 2);
    const again = await store.load('t');
    assert.deepEqual(again.skipped, [], 'no line is joined to the torn one');
    assert.deepEqual(again.history, next);
    const last = again.view.at(-1);
    assert.equal(last?.kind === 'user' ? last.text : undefined, 'the next prompt');
    const kept = readdirSync(store.dir).find((n) => n.endsWith('.torn'));
    assert.ok(kept, 'the torn bytes are kept beside the transcript');
    assert.equal(readFileSync(join(store.dir, kept), 'utf8'), `${torn}\n`);
  });
});

describe('listing sessions from a damaged folder gives a repaired list', () => {
  it('drops index entries whose transcript is gone and adds transcripts the index missed', async () => {
    const dir = tmp();
    const store = new SessionStore(dir);
    await oneSession(store, 'kept', 'kept question');
    await oneSession(store, 'gone', 'gone question');
    rmSync(store.file('gone'));
    // Written by a window that crashed before it updated the index.
    const orphan = new SessionRecorder(store, { id: 'orphan', cwd: '/w', model: 'm' });
    await orphan.sync([msg('user', 'orphan question')], [user(1, 'orphan question')], 1);
    const list = await store.list();
    assert.deepEqual(list.map((e) => e.id).sort(), ['kept', 'orphan']);
    for (const e of list) await store.load(e.id); // every listed session opens
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as Array<{ id: string }>;
    assert.deepEqual(index.map((e) => e.id).sort(), ['kept', 'orphan'], 'the mended index is written back');
  });

  it('leaves out an empty or headerless transcript without failing, and keeps the file', async () => {
    const dir = tmp();
    const store = new SessionStore(dir);
    await oneSession(store, 'good');
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'nohead.jsonl'), '{"t":"msg","m":{"role":"user","content":"hi"}}\n');
    writeFileSync(join(dir, 'index.json'), JSON.stringify([{ id: 'empty', title: 'x', createdAt: 0, updatedAt: 0, model: 'm', messageCount: 0, tokens: 0, cwd: '/w' }]));
    assert.deepEqual((await store.list()).map((e) => e.id), ['good']);
    assert.deepEqual((await store.rebuildIndex()).map((e) => e.id), ['good']);
    assert.ok(existsSync(join(dir, 'empty.jsonl')) && existsSync(join(dir, 'nohead.jsonl')));
  });

  it('a sessions folder that is a file: an empty list, then the file is moved aside and the session saved', async () => {
    const base = tmp();
    const dir = join(base, 'sessions');
    writeFileSync(dir, 'not a folder');
    const store = new SessionStore(dir);
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(await store.rebuildIndex(), []);
    await oneSession(store, 'after');
    assert.deepEqual((await store.list()).map((e) => e.id), ['after']);
    const aside = readdirSync(base).filter((n) => n !== 'sessions');
    assert.equal(aside.length, 1);
    assert.equal(readFileSync(join(base, aside[0]!), 'utf8'), 'not a folder', 'nothing is lost');
  });

  it('an index of the wrong shape is mended, not trusted', async () => {
    const dir = tmp();
    const store = new SessionStore(dir);
    await oneSession(store, 'a');
    writeFileSync(join(dir, 'index.json'), JSON.stringify([{ id: 'a', title: 5 }, null, 'x', { id: '../../etc' }]));
    const list = await store.list();
    assert.deepEqual(list.map((e) => [e.id, e.title]), [['a', 'first question']]);
    mkdirSync(join(dir, 'folder.jsonl'));
    assert.deepEqual((await store.list()).map((e) => e.id), ['a'], 'a folder named like a transcript is not one');
  });
});
