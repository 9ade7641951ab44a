import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import type { ViewMessage } from '../../../src/shared/viewState';
import { createStore } from '../../../src/shared/store';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { lastAssistantAt, resumedRecorder, skippedNotice } from '../../../src/sessions/resume';
import { SessionDriver } from '../../../src/sessions/sessionDriver';
import { SessionStore, type LoadedSession } from '../../../src/sessions/sessionStore';
import { getDefaultAppState, type AppState } from '../../../src/state/appState';
import { fakeDriverDeps } from '../../support/fakeSessionAgent';

const msg = (role: 'user' | 'assistant', text: string): MessageParam => ({ role, content: [{ type: 'text', text }] });
const view: ViewMessage[] = [
  { kind: 'user', id: 'u1', text: 'first', createdAt: 100, rewindable: true },
  { kind: 'assistant', id: 'a1', text: 'one', streaming: false, createdAt: 200 },
  { kind: 'compaction', id: 'c1', tokensBefore: 900, tokensAfter: 100, summary: 's', canUndo: true, createdAt: 300 },
  { kind: 'user', id: 'u2', text: 'second', createdAt: 400, rewindable: true },
  { kind: 'assistant', id: 'a2', text: 'two', streaming: false, createdAt: 500 },
  { kind: 'user', id: 'u3', text: 'third, unanswered', createdAt: 600 },
];

function loaded(over: Partial<LoadedSession> = {}): LoadedSession {
  return {
    meta: { t: 'meta', v: 1, id: 'resumed-1', createdAt: 42, cwd: '/work/repo', model: 'claude-sonnet-4-6', branch: 'main' },
    history: [msg('user', 'second'), msg('assistant', 'two'), msg('user', 'third, unanswered')],
    view,
    title: 'Fix the parser',
    tokens: 1234,
    skipped: [],
    repairs: [],
    compactions: [],
    prompts: {},
    ...over,
  };
}

function busyStore() {
  const store = createStore<AppState>(getDefaultAppState({ sessionId: 'the-live-one' }));
  // What a live session leaves behind: all of it must go when another session is put back.
  store.setState((s) => ({ ...s, sessionTitle: 'Live session', status: 'streaming', canContinue: true, permission: { requestId: 'r', toolName: 'Bash', summary: 'ls', input: {} } as unknown as AppState['permission'] }));
  return store;
}

describe('a saved session put back in the panel and the agent', () => {
  it('restores id, title and messages, idle, with Undo and Rewind of the old run switched off and nothing else changed', () => {
    const store = busyStore();
    const { deps, agents } = fakeDriverDeps(store, mkdtempSync(join(tmpdir(), 'tl-resume-')));
    const driver = new SessionDriver(deps, { kind: 'resume', loaded: loaded() });
    const s = store.getState();
    assert.equal(s.sessionId, 'resumed-1');
    assert.equal(driver.sessionId, 'resumed-1', 'the runtime continues under the saved id');
    assert.equal(agents[0]!.session.id, 'resumed-1', 'so do the agent\'s notes and archives');
    assert.equal(s.sessionTitle, 'Fix the parser');
    assert.equal(s.status, 'idle');
    assert.equal(s.permission, null);
    assert.equal(s.canContinue, false);
    assert.deepEqual(s.messages, [
      { kind: 'user', id: 'u1', text: 'first', createdAt: 100, rewindable: false },
      view[1],
      { ...view[2], canUndo: false },
      { kind: 'user', id: 'u2', text: 'second', createdAt: 400, rewindable: false },
      view[4],
      view[5],
    ]);
    assert.equal(s.messages[5], view[5], 'a message with nothing to switch off is kept as it is');
    assert.deepEqual(agents[0]!.restored, [{ history: loaded().history, opts: { lastAssistantAt: 500, compactions: [], prompts: {} } }], 'the agent learns when the last answer came (the cache may be cold)');
  });

  it('keeps the title the panel has when the transcript has none, and gives no answer time when there was no answer', () => {
    const store = busyStore();
    const { deps, agents } = fakeDriverDeps(store, mkdtempSync(join(tmpdir(), 'tl-resume-')));
    new SessionDriver(deps, { kind: 'resume', loaded: loaded({ title: undefined, view: [view[0]!] }) });
    assert.equal(store.getState().sessionTitle, 'Live session');
    assert.deepEqual(agents[0]!.restored[0]!.opts, { compactions: [], prompts: {} });
  });

  it('continues the same transcript: the next message is appended to the resumed file, with its meta unchanged', async () => {
    const sessions = new SessionStore(mkdtempSync(join(tmpdir(), 'tl-resume-')));
    const first = new SessionRecorder(sessions, { id: 'r2', cwd: '/work/repo', model: 'claude-sonnet-4-6', branch: 'dev', createdAt: 7, title: 'Kept title' });
    const h1 = [msg('user', 'q1')];
    const v1: ViewMessage[] = [{ kind: 'user', id: 'u1', text: 'q1', createdAt: 1 }];
    await first.sync(h1, v1, 5);
    await first.flush();
    const before = await sessions.load('r2');
    const rec = resumedRecorder(before, sessions);
    const h2 = [...h1, msg('assistant', 'a1')];
    await rec.sync(h2, [...v1, { kind: 'assistant', id: 'a1', text: 'a1', streaming: false, createdAt: 2 }], 9);
    await rec.flush();
    const after = await sessions.load('r2');
    assert.deepEqual(after.meta, before.meta, 'same id, folder, model, branch and creation time');
    assert.equal(after.title, 'Kept title');
    assert.deepEqual(after.history, h2);
    const listed = await sessions.list();
    assert.equal(listed.length, 1, 'no second session was started');
    assert.equal(listed[0]!.title, 'Kept title', 'the list keeps the title too (not one made from the first prompt)');
    assert.equal(listed[0]!.branch, 'dev');
  });
});

describe('skippedNotice and lastAssistantAt', () => {
  it('says which lines were skipped and what was repaired, or nothing when the load was clean', () => {
    assert.equal(skippedNotice(loaded()), undefined);
    assert.equal(
      skippedNotice(loaded({ skipped: [{ line: 3, reason: 'x' }, { line: 9, reason: 'y' }] })),
      'Resumed, but 2 unreadable line(s) of the transcript were skipped (line 3, 9); the file itself is kept as it is.',
    );
    assert.equal(skippedNotice(loaded({ repairs: ['a tool call had no result', 'an empty answer was dropped'] })), 'Resumed, but the last turn was cut short: a tool call had no result; an empty answer was dropped.');
    assert.equal(
      skippedNotice(loaded({ skipped: [{ line: 4, reason: 'x' }], repairs: ['r'] })),
      'Resumed, but 1 unreadable line(s) of the transcript were skipped (line 4); the file itself is kept as it is. Also, the last turn was cut short: r.',
    );
  });

  it('finds the last answer, not the last message, and nothing in a session without one', () => {
    assert.equal(lastAssistantAt(view), 500);
    assert.equal(lastAssistantAt([view[1]!]), 200, 'an answer at the very start counts');
    assert.equal(lastAssistantAt([view[0]!, view[3]!]), undefined);
    assert.equal(lastAssistantAt([]), undefined);
  });
});
