import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import type { LoadedSession, SessionStore } from '../../../src/sessions/sessionStore';
import { testDriver } from '../../support/driverFixture';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

/** The driver as the panel builds it, with the real agent and tools over the stand-in. */
function setup(o: { allow?: string[] } = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-driver-'));
  const contextCalls: string[] = [];
  const context = { clear: () => void contextCalls.push('clear'), prefetch: () => void contextCalls.push('prefetch') };
  const { driver, store, sessions, runtime } = testDriver({ url: standin.url, cwd, sessionsDir: join(cwd, '.sessions'), context, ...(o.allow ? { allow: o.allow } : {}) });
  const texts = () => store.getState().messages.map((m) => (m.kind === 'user' || m.kind === 'assistant' ? m.text : m.kind));
  const events: string[] = [];
  driver.onDidOpen((e) => events.push(`open:${e.how}`));
  driver.onDidStartPrompt((e) => events.push(`prompt:${e.text}`));
  driver.onDidChangeHistory((e) => events.push(`history:${e.change.reason}`));
  driver.onDidCompact((e) => events.push(e.undone ? 'undo' : 'compact'));
  driver.onDidRewind(() => events.push('rewind'));
  driver.onDidFork(() => events.push('fork'));
  driver.onDidEndTurn((e) => events.push(`end:${(e.result as { outcome?: string } | undefined)?.outcome}`));
  return { driver, store, sessions, contextCalls, runtime, texts, events, cwd };
}

/** What a crash right now would leave: the transcript as a restart reads it (nothing flushed). */
async function onDisk(sessions: SessionStore, id: string): Promise<LoadedSession | undefined> {
  return existsSync(sessions.file(id)) ? sessions.load(id).catch(() => undefined) : undefined;
}

describe('the session driver: every way into a session goes through one path', () => {
  it('saves each answer, and resumes a session with its history', async () => {
    const { driver, store, sessions, texts } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] });
    const result = await driver.submit('q1');
    assert.equal(result?.outcome, 'end_turn', 'submit resolves with how the loop ended');
    await driver.flush();
    const id = driver.sessionId;
    assert.equal((await sessions.list())[0]?.id, id);
    driver.newSession();
    assert.deepEqual(texts(), []);
    assert.notEqual(driver.sessionId, id);
    await driver.resume(id);
    assert.deepEqual(texts(), ['q1', 'a1']);
    assert.equal(store.getState().sessionId, id);
    standin.enqueue({ content: [{ type: 'text', text: 'a2' }] });
    await driver.submit('q2');
    const sent = JSON.stringify(standin.requests.at(-1)!.body);
    assert.match(sent, /q1.*a1.*q2/s, 'the resumed history goes out with the next prompt');
  });

  it('fork starts a new session from before a message, with fresh context reads, and leaves the old one as it was', async () => {
    const { driver, store, sessions, contextCalls, texts } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await driver.submit('q1');
    await driver.submit('q2');
    await driver.flush();
    const original = driver.sessionId;
    const q2 = store.getState().messages.find((m) => m.kind === 'user' && m.text === 'q2')!;
    contextCalls.length = 0;
    assert.equal(await driver.forkFrom(q2.id), true);
    assert.deepEqual(contextCalls, ['clear', 'prefetch'], 'instruction files are read again for the fork');
    assert.notEqual(driver.sessionId, original);
    assert.match(store.getState().sessionTitle, /^Fork of /);
    assert.deepEqual(texts().filter((t) => t !== 'notice'), ['q1', 'a1']);
    const old = await sessions.load(original);
    assert.equal(old.history.length, 4, 'the original keeps all four messages');
    await driver.flush();
    assert.equal((await sessions.load(driver.sessionId)).history.length, 2, 'the fork is saved with its two messages');
  });

  it('an imported conversation becomes a new saved session, with its notice', async () => {
    const { driver, sessions, store } = setup();
    driver.importConversation({
      history: [
        { role: 'user', content: [{ type: 'text', text: 'from elsewhere' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      ],
      view: [
        { kind: 'user', id: 'u1', text: 'from elsewhere', createdAt: 1 },
        { kind: 'assistant', id: 'a1', text: 'ok', streaming: false, createdAt: 2 },
      ],
      title: 'Imported',
      notice: 'Imported it.',
    });
    assert.equal(store.getState().sessionTitle, 'Imported');
    await driver.flush();
    const loaded = await sessions.load(driver.sessionId);
    assert.equal(loaded.history.length, 2);
    assert.deepEqual(loaded.view.filter((m) => m.kind === 'notice').map((m) => (m.kind === 'notice' ? m.text : '')), ['Imported it.']);
  });

  it('an imported conversation that starts from a compaction is saved at once, and stays in the history after switching away', async () => {
    const { driver, sessions } = setup();
    // A Claude Code session compacted last: its view has the summary and no message of the user's.
    driver.importConversation({
      history: [
        { role: 'user', content: [{ type: 'text', text: 'This session is being continued from a previous conversation. Summary: tests first.' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Understood.' }] },
      ],
      view: [
        { kind: 'compaction', id: 'c1', tokensBefore: 9000, tokensAfter: 300, summary: 'tests first', canUndo: false, createdAt: 1 },
        { kind: 'assistant', id: 'a1', text: 'Understood.', streaming: false, createdAt: 2 },
      ],
      title: 'What does notes.md say?',
      notice: 'Imported it.',
    });
    const imported = driver.sessionId;
    // Away before sending anything.
    driver.newSession();
    const listed = await driver.list();
    const entry = listed.find((h) => h.id === imported);
    assert.ok(entry, `the import is in the history: ${JSON.stringify(listed.map((h) => h.title))}`);
    assert.equal(entry.title, 'What does notes.md say?');
    await driver.resume(imported);
    assert.equal((await sessions.load(imported)).history.length, 2, 'its transcript holds the imported history');
  });

  it('the history list counts the answer that just arrived, as the Resume picker does', async () => {
    const { driver, sessions } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await driver.submit('q1');
    await driver.flush();
    await driver.submit('q2');
    const listed = await driver.list();
    const open = listed.find((h) => h.id === driver.sessionId);
    assert.equal(open?.messageCount, 4, 'the panel counts both exchanges at once');
    const picker = (await sessions.list()).find((s) => s.id === driver.sessionId);
    assert.equal(picker?.messageCount, open.messageCount, 'the picker reads the same count');
    assert.equal(picker?.updatedAt, open.updatedAt, 'and the same date');
  });
});

describe('the session driver saves each message as it completes, not when the turn ends', () => {
  it('mid-turn, the prompt, each finished step and its panel messages are on disk before the next request', async () => {
    const { driver, sessions } = setup({ allow: ['Bash'] });
    standin.enqueue(
      { content: [{ type: 'text', text: 'Step 1.' }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo one' } }] },
      { content: [{ type: 'text', text: 'Step 2, slow.' }, { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'sleep 1; echo two' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    );
    const id = driver.sessionId;
    let ended = false;
    const turn = driver.submit('run the steps').finally(() => (ended = true));
    // While step 2's command runs: what would a crash now leave?
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const poll = () => {
        const calls = standin.requests.length;
        if (calls >= 2 || ended) return resolve();
        if (Date.now() > deadline) return reject(new Error('the second request never went out'));
        setTimeout(poll, 5);
      };
      poll();
    });
    let mid: LoadedSession | undefined;
    for (let i = 0; i < 200 && !ended; i++) {
      mid = await onDisk(sessions, id);
      if ((mid?.history.length ?? 0) >= 4) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const requestsThen = standin.requests.length;
    await turn;
    assert.equal(requestsThen, 2, 'the step was read from disk while step 2 still ran');
    assert.ok(mid, 'the transcript exists mid-turn');
    const h: MessageParam[] = mid.history;
    assert.match(JSON.stringify(h[0]), /run the steps/, 'the prompt');
    assert.match(JSON.stringify(h[1]), /toolu_1/, 'step 1 call');
    assert.match(JSON.stringify(h[2]), /tool_result.*toolu_1|toolu_1.*tool_result/, 'step 1 result');
    assert.match(JSON.stringify(h[3]), /toolu_2/, 'step 2 call, before its command finished');
    const kinds = mid.view.map((v) => (v.kind === 'tool' ? `tool:${v.status}` : v.kind));
    assert.deepEqual(kinds.slice(0, 4), ['user', 'assistant', 'tool:done', 'assistant'], 'the conversation on screen is saved with it');
  });

  it('fires the lifecycle in order: open, prompt, each history change, end; compaction, rewind and fork too', async () => {
    const { driver, store, events } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await driver.submit('q1');
    assert.deepEqual(events, ['prompt:q1', 'history:user', 'history:turn', 'end:end_turn']);
    events.length = 0;
    await driver.submit('q2');
    const q2 = store.getState().messages.find((m) => m.kind === 'user' && m.text === 'q2')!;
    events.length = 0;
    assert.equal(driver.rewindTo(q2.id), true);
    assert.deepEqual(events, ['history:rewind', 'rewind']);
    events.length = 0;
    standin.enqueue({ content: [{ type: 'text', text: '<summary>s</summary>' }] });
    assert.equal(await driver.compactNow(), true);
    assert.deepEqual(events, ['history:compaction', 'compact']);
    events.length = 0;
    const q1 = store.getState().messages.find((m) => m.kind === 'user' && m.text === 'q1')!;
    assert.equal(await driver.forkFrom(q1.id), true);
    assert.deepEqual(events, ['open:forked', 'fork'], 'a fork from the first prompt starts empty: no history to load');
  });

  it('Stop ends a manual compaction through the driver; the saved session keeps its history', async () => {
    const { driver, store, sessions } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] });
    await driver.submit('q1');
    const before = [...driver.agent.messages];
    standin.enqueue({ content: [{ type: 'text', text: '<summary>late</summary>' }], fault: { kind: 'stall', afterEvents: 2 } });
    const compacting = driver.compactNow();
    while (standin.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    driver.stop();
    assert.equal(await compacting, false);
    assert.equal(store.getState().status, 'idle');
    assert.deepEqual(driver.agent.messages, before);
    await driver.flush();
    assert.deepEqual((await sessions.load(driver.sessionId)).history, before);
  });
});
