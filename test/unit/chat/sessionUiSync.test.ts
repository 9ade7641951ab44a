import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createChatHandlers } from '../../../src/chat/chatController';
import { SessionUiSync } from '../../../src/chat/sessionUiSync';
import { SessionUiStore } from '../../../src/sessions/sessionUiStore';
import type { HostToWebviewMessage } from '../../../src/shared/protocol';
import { MAX_DRAFT_CHARS } from '../../../src/shared/sessionUi';
import { createStore } from '../../../src/shared/store';
import { getDefaultAppState, type AppState } from '../../../src/state/appState';
import { ViewSync } from '../../../src/state/viewSync';
import { chatDeps } from '../../support/chatDeps';

const tick = () => new Promise((r) => setImmediate(r));
/** Waits for something the host does after a file read (the thread pool answers when it will). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 5000; !check(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/** The real ViewSync, chat handlers and SessionUiSync over a real folder; the webview is a list of posts. */
function host(dir = mkdtempSync(join(tmpdir(), 'tl-uisync-'))) {
  const store = createStore<AppState>(getDefaultAppState({ sessionId: 's1' }));
  const errors: string[] = [];
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => errors.push(m), error: (m: string) => errors.push(m) };
  const ui = new SessionUiStore(dir);
  const posts: HostToWebviewMessage[] = [];
  const sessionUi = new SessionUiSync({ store, ui, log, send: (m) => sync.send(m), warn: (m) => warnings.push(m) });
  const sync = new ViewSync(store, createChatHandlers(chatDeps(store, { log, sessionUi })), log);
  sync.sendBeforeSnapshot(() => sessionUi.leadForSnapshot());
  sync.attach({ postMessage: (m) => posts.push(structuredClone(m)) });
  const switchTo = (id: string) => store.setState((s) => ({ ...getDefaultAppState({ sessionId: id }), apiKeySet: s.apiKeySet, messages: [{ kind: 'user', id: `${id}-u`, text: 'hi', createdAt: 1 }] }));
  return { dir, store, ui, sync, sessionUi, posts, errors, warnings, switchTo };
}

const kinds = (posts: HostToWebviewMessage[]) => posts.map((m) => (m.type === 'ui/restore' ? `restore:${m.payload.sessionId}:${m.payload.draft?.text ?? ''}` : m.type));

describe('SessionUiSync: the host keeps each session panel state and hands it back', () => {
  it('a reloaded panel hears the open session draft and anchor before its snapshot', async () => {
    const first = host();
    await first.sync.receive({ type: 'view/ready', payload: {} });
    await first.sync.receive({ type: 'draft/save', payload: { sessionId: 's1', text: 'half a question', at: 5 } });
    await first.sync.receive({ type: 'scroll/save', payload: { sessionId: 's1', topId: 'm4', atBottom: false, at: 6 } });
    await first.sessionUi.flush();
    // The next window (after Reload Window): a fresh host over the same folder.
    const next = host(first.dir);
    await next.sessionUi.prepare('s1');
    await next.sync.receive({ type: 'view/ready', payload: {} });
    assert.deepEqual(kinds(next.posts), ['restore:s1:half a question', 'state/snapshot']);
    const restore = next.posts[0]!;
    assert.ok(restore.type === 'ui/restore');
    assert.deepEqual(restore.payload.scroll, { topId: 'm4', atBottom: false, at: 6 });
  });

  it('when it was not read yet, it follows the snapshot rather than never coming', async () => {
    const first = host();
    await first.ui.saveDraft('s1', { text: 'kept', at: 1 });
    await first.ui.flush();
    const next = host(first.dir);
    await next.sync.receive({ type: 'view/ready', payload: {} });
    await until(() => next.posts.length >= 2, 'the restore');
    assert.deepEqual(kinds(next.posts), ['state/snapshot', 'restore:s1:kept']);
  });

  it('switching sessions sends that session its own draft, before the patch that shows the session', async () => {
    const h = host();
    await h.ui.saveDraft('s2', { text: 'draft of two', at: 1 });
    await h.sync.receive({ type: 'view/ready', payload: {} });
    await until(() => h.posts.some((m) => m.type === 'ui/restore'), 'the first restore');
    h.posts.length = 0;
    await h.sessionUi.prepare('s2');
    h.switchTo('s2');
    await tick();
    assert.deepEqual(kinds(h.posts), ['restore:s2:draft of two', 'state/patch']);
    h.posts.length = 0;
    h.switchTo('s3');
    await until(() => h.posts.length >= 2, 'the restore of an unread session');
    assert.deepEqual(kinds(h.posts), ['state/patch', 'restore:s3:'], 'an unread session answers as soon as it is read');
  });

  it('a sent message clears the open session draft on disk', async () => {
    const h = host();
    await h.sync.receive({ type: 'view/ready', payload: {} });
    assert.equal(h.sessionUi.hasDraft('s1'), false);
    await h.sync.receive({ type: 'draft/save', payload: { sessionId: 's1', text: 'send me', at: 9 } });
    assert.equal(h.sessionUi.hasDraft('s1'), true, 'a reopened session does not replace a fresh one being typed into');
    await h.sync.receive({ type: 'chat/send', payload: { text: 'send me' } });
    await h.sessionUi.flush();
    assert.equal(h.sessionUi.hasDraft('s1'), false);
    assert.equal((await new SessionUiStore(h.dir).get('s1')).draft?.text, '');
  });

  it('refuses what a hostile or broken panel sends, and says so once when the disk refuses', async () => {
    const h = host();
    await h.sync.receive({ type: 'view/ready', payload: {} });
    await h.sync.receive({ type: 'draft/save', payload: { sessionId: '../../outside', text: 'x', at: 1 } });
    await h.sync.receive({ type: 'draft/save', payload: { sessionId: 's1', text: 'y'.repeat(MAX_DRAFT_CHARS + 1), at: 1 } });
    await h.sync.receive({ type: 'scroll/save', payload: { sessionId: 's1', topId: '', atBottom: 'yes', at: 1 } });
    await h.sessionUi.flush();
    assert.deepEqual(readdirSync(h.dir), [], 'nothing written');
    assert.equal(h.errors.filter((e) => /rejected a message from the webview: malformed payload for (draft|scroll)\/save/.test(e)).length, 2);
    assert.ok(h.errors.some((e) => /could not keep the draft: not a session id/.test(e)));
    assert.equal(h.warnings.length, 1, 'the user hears of it once');
    assert.match(h.warnings[0]!, /could not keep the draft for after a reload/);
  });
  it('a new session typed into but never sent comes back after a reload, draft and all, until the older one is reopened', async () => {
    const h = host();
    await h.sync.receive({ type: 'view/ready', payload: {} });
    const before = Date.now();
    // s1 is a new session (no messages): its draft makes it the one to reopen.
    await h.sync.receive({ type: 'draft/save', payload: { sessionId: 's1', text: 'not sent yet', at: 3 } });
    await h.sessionUi.flush();
    const next = host(h.dir);
    assert.deepEqual(await next.sessionUi.sessionToReopen({ id: 'old', at: before - 1 }), { id: 's1', fresh: true });
    assert.deepEqual(await next.sessionUi.sessionToReopen(undefined), { id: 's1', fresh: true });
    // Opened since (the open-session note is newer): that one wins.
    assert.deepEqual(await next.sessionUi.sessionToReopen({ id: 'old', at: Date.now() + 1 }), { id: 'old', fresh: false });
    // Sent: no draft left, so the fresh session is nothing to come back to.
    await h.sync.receive({ type: 'chat/send', payload: { text: 'not sent yet' } });
    await h.sessionUi.flush();
    assert.deepEqual(await host(h.dir).sessionUi.sessionToReopen({ id: 'old', at: before - 1 }), { id: 'old', fresh: false });
  });

  it('a draft in a session with messages does not mark it fresh', async () => {
    const h = host();
    h.switchTo('s2');
    await h.sync.receive({ type: 'draft/save', payload: { sessionId: 's2', text: 'a follow-up', at: 3 } });
    await h.sessionUi.flush();
    assert.equal(await host(h.dir).sessionUi.sessionToReopen(undefined), undefined);
  });
});
