import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createAgent } from '../../../src/agent/createAgent';
import { Permissions } from '../../../src/agent/permissions';
import { createToolRegistry } from '../../../src/agent/tools';
import { SessionManager } from '../../../src/chat/sessionManager';
import { silentLogger } from '../../../src/ports/logger';
import { SessionStore } from '../../../src/sessions/sessionStore';
import { createStore } from '../../../src/shared/store';
import { getDefaultAppState, type AppState } from '../../../src/state/appState';
import { RuntimeState } from '../../../src/state/runtimeState';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

function setup() {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-sm-'));
  const runtime = new RuntimeState(cwd);
  const store = createStore<AppState>(getDefaultAppState({ sessionId: runtime.sessionId, settings: { model: 'claude-sonnet-4-6' } }));
  const sessions = new SessionStore(join(cwd, '.sessions'));
  const remembered: string[] = [];
  const contextCalls: string[] = [];
  const manager = new SessionManager({
    store,
    runtime,
    log: silentLogger,
    cwd,
    sessions,
    context: { clear: () => contextCalls.push('clear'), prefetch: () => contextCalls.push('prefetch') },
    rememberOpen: (id) => remembered.push(id),
    createAgent: ({ onLoopComplete }) =>
      createAgent({
        store,
        runtime,
        log: silentLogger,
        cwd,
        tools: createToolRegistry(),
        permissions: new Permissions({ cwd, rules: () => ({ allow: [], ask: [], deny: [] }), trusted: () => true }),
        apiKey: async () => 'k',
        baseUrl: () => standin.url,
        maxTurns: () => 5,
        onLoopComplete,
      }),
  });
  const texts = () => store.getState().messages.map((m) => (m.kind === 'user' || m.kind === 'assistant' ? m.text : m.kind));
  return { manager, store, sessions, remembered, contextCalls, runtime, texts };
}

describe('SessionManager: every way into a session goes through one path', () => {
  it('saves after each answer, remembers the open session, and resumes it with its history', async () => {
    const { manager, store, sessions, remembered, texts } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] });
    await manager.runner.submit('q1');
    await manager.flush();
    const id = manager.sessionId;
    assert.deepEqual(remembered, [id], 'the open session is remembered once it has a message');
    assert.equal((await sessions.list())[0]?.id, id);
    manager.newSession();
    assert.deepEqual(texts(), []);
    assert.notEqual(manager.sessionId, id);
    await manager.resume(id);
    assert.deepEqual(texts(), ['q1', 'a1']);
    assert.equal(store.getState().sessionId, id);
    standin.enqueue({ content: [{ type: 'text', text: 'a2' }] });
    await manager.runner.submit('q2');
    const sent = JSON.stringify(standin.requests.at(-1)!.body);
    assert.match(sent, /q1.*a1.*q2/s, 'the resumed history goes out with the next prompt');
  });

  it('fork starts a new session from before a message, with fresh context reads, and leaves the old one as it was', async () => {
    const { manager, store, sessions, contextCalls, texts } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await manager.runner.submit('q1');
    await manager.runner.submit('q2');
    await manager.flush();
    const original = manager.sessionId;
    const q2 = store.getState().messages.find((m) => m.kind === 'user' && m.text === 'q2')!;
    contextCalls.length = 0;
    assert.equal(await manager.runner.forkFrom!(q2.id), true);
    assert.deepEqual(contextCalls, ['clear', 'prefetch'], 'instruction files are read again for the fork');
    assert.notEqual(manager.sessionId, original);
    assert.match(store.getState().sessionTitle, /^Fork of /);
    assert.deepEqual(texts().filter((t) => t !== 'notice'), ['q1', 'a1']);
    const old = await sessions.load(original);
    assert.equal(old.history.length, 4, 'the original keeps all four messages');
  });

  it('an imported conversation becomes a new saved session', async () => {
    const { manager, sessions } = setup();
    manager.importConversation(
      {
        history: [
          { role: 'user', content: [{ type: 'text', text: 'from elsewhere' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        ],
        view: [
          { kind: 'user', id: 'u1', text: 'from elsewhere', createdAt: 1 },
          { kind: 'assistant', id: 'a1', text: 'ok', streaming: false, createdAt: 2 },
        ],
        title: 'Imported',
      },
      'Imported it.',
    );
    await manager.flush();
    await new Promise((r) => setTimeout(r, 50));
    await manager.flush();
    const loaded = await sessions.load(manager.sessionId);
    assert.equal(loaded.history.length, 2);
  });

  it('an imported conversation that starts from a compaction is saved at once, and stays in the history after switching away', async () => {
    const { manager, sessions } = setup();
    // A Claude Code session compacted last: its view has the summary and no message of the user's.
    manager.importConversation(
      {
        history: [
          { role: 'user', content: [{ type: 'text', text: 'This session is being continued from a previous conversation. Summary: tests first.' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Understood.' }] },
        ],
        view: [
          { kind: 'compaction', id: 'c1', tokensBefore: 9000, tokensAfter: 300, summary: 'tests first', canUndo: false, createdAt: 1 },
          { kind: 'assistant', id: 'a1', text: 'Understood.', streaming: false, createdAt: 2 },
        ],
        title: 'What does notes.md say?',
      },
      'Imported it.',
    );
    const imported = manager.sessionId;
    // Away before sending anything.
    manager.newSession();
    const listed = await manager.list();
    const entry = listed.find((h) => h.id === imported);
    assert.ok(entry, `the import is in the history: ${JSON.stringify(listed.map((h) => h.title))}`);
    assert.equal(entry.title, 'What does notes.md say?');
    await manager.resume(imported);
    assert.equal((await sessions.load(imported)).history.length, 2, 'its transcript holds the imported history');
  });

  it('the history list counts the answer that just arrived, as the Resume picker does', async () => {
    const { manager, sessions } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await manager.runner.submit('q1');
    await manager.flush();
    await manager.runner.submit('q2');
    const listed = await manager.list();
    const open = listed.find((h) => h.id === manager.sessionId);
    assert.equal(open?.messageCount, 4, 'the panel counts both exchanges at once');
    const picker = (await sessions.list()).find((s) => s.id === manager.sessionId);
    assert.equal(picker?.messageCount, open.messageCount, 'the picker reads the same count');
    assert.equal(picker?.updatedAt, open.updatedAt, 'and the same date');
  });
});
