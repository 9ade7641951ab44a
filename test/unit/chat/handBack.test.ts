import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createChatHandlers } from '../../../src/chat/chatController';
import { titleFrom } from '../../../src/sessions/sessionStore';
import type { HostToWebviewMessage } from '../../../src/shared/protocol';
import type { ViewMessage } from '../../../src/shared/viewState';
import type { AppSettings } from '../../../src/state/appState';
import { chatDeps, stubWorkbench } from '../../support/chatDeps';
import { testDriver } from '../../support/driverFixture';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();
const lastMessages = () => (standin.requests.at(-1)!.body as { messages: { role: string }[] }).messages;

/** The panel's handlers over the real session driver and agent, against the stand-in. */
function setup(settings: Partial<AppSettings> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-handback-'));
  const { store, driver, sessions } = testDriver({ url: standin.url, cwd, sessionsDir: join(cwd, '.sessions'), settings, state: { apiKeySet: true } });
  const replies: HostToWebviewMessage[] = [];
  const attachments = { listFiles: async () => ['src/greet.js'], readFile: async () => ({ ok: true as const, text: 'export function greet() {}\n' }) };
  const handlers = createChatHandlers(chatDeps(store, { session: driver, workbench: stubWorkbench({ attachments }), reply: (m) => void replies.push(m) }));
  const shown = () => store.getState().messages.map((m) => (m.kind === 'user' || m.kind === 'assistant' ? `${m.kind}:${m.text}` : m.kind));
  const inserted = () => replies.flatMap((r) => (r.type === 'composer/insert' ? [r.payload] : []));
  const notice = () => store.getState().messages.filter((m): m is Extract<ViewMessage, { kind: 'notice' }> => m.kind === 'notice').at(-1);
  return { store, driver, handlers, shown, inserted, notice, sessions };
}

describe('a message handed back to the composer', () => {
  it('attachments show as chips on the message, not as the XML the model gets; the title is what was typed', async () => {
    const t = setup();
    await t.handlers['attach/pickFile']({});
    await t.handlers['attach/file']({ path: 'src/greet.js' });
    t.store.setState((s) => ({ ...s, attachments: [...s.attachments, { kind: 'selection', id: 'sel1', path: 'src/greet.js', startLine: 1, endLine: 1, text: 'export function greet() {}' }] }));
    standin.enqueue({ content: [{ type: 'text', text: 'It greets.' }] });
    await t.handlers['chat/send']({ text: 'Explain this' });
    const user = t.store.getState().messages.find((m) => m.kind === 'user');
    assert.ok(user?.kind === 'user');
    assert.equal(user.text, 'Explain this');
    assert.deepEqual(user.attachments?.map((a) => [a.kind, a.path]), [['file', 'src/greet.js'], ['selection', 'src/greet.js']]);
    assert.equal(titleFrom(t.store.getState().messages), 'Explain this');
    const sent = JSON.stringify(standin.requests.at(-1)!.body);
    assert.match(sent, /<file path=\\"src\/greet\.js\\">/, 'the model still gets the file');
    await t.driver.flush();
    const [listed] = await t.sessions.list();
    assert.equal(listed?.title, 'Explain this', 'the history and Resume Session show what was typed');
    assert.doesNotMatch(listed?.preview ?? '', /<file|<selection/);
  });

  it('Rewind puts the message back into the box with its chips, and Undo brings the conversation back', async () => {
    const t = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'a2' }] });
    await t.handlers['chat/send']({ text: 'q1' });
    await t.handlers['attach/pickFile']({});
    await t.handlers['attach/file']({ path: 'src/greet.js' });
    await t.handlers['chat/send']({ text: 'q2' });
    const q2 = t.store.getState().messages.find((m) => m.kind === 'user' && m.text === 'q2')!;
    await t.handlers['chat/rewind']({ id: q2.id });
    assert.deepEqual(t.shown().filter((x) => x !== 'notice'), ['user:q1', 'assistant:a1']);
    assert.deepEqual(t.inserted(), [{ sessionId: t.store.getState().sessionId, text: 'q2' }], 'the rewound message is back in the box');
    assert.deepEqual(t.store.getState().attachments.map((a) => a.path), ['src/greet.js'], 'with its chips');
    assert.deepEqual(t.notice()?.action, { label: 'Undo', command: 'undoRewind' });
    await t.handlers['command/run']({ command: 'undoRewind' });
    assert.deepEqual(t.shown().filter((x) => x !== 'notice'), ['user:q1', 'assistant:a1', 'user:q2', 'assistant:a2']);
    await t.driver.flush();
    const saved = await t.sessions.load(t.store.getState().sessionId);
    assert.deepEqual(saved.view.flatMap((m) => (m.kind === 'user' || m.kind === 'assistant' ? [m.text] : [])), ['q1', 'a1', 'q2', 'a2'], 'the transcript has the exchange back too');
    assert.equal(saved.history.length, 4);
    standin.enqueue({ content: [{ type: 'text', text: 'a3' }] });
    t.store.setState((s) => ({ ...s, attachments: [] }));
    await t.handlers['chat/send']({ text: 'q3' });
    assert.match(JSON.stringify(lastMessages()), /q1.*a1.*q2.*a2.*q3/s, 'the model sees the restored conversation');
    // And the restored messages can be rewound to again.
    await t.handlers['chat/rewind']({ id: q2.id });
    assert.deepEqual(t.shown().filter((x) => x !== 'notice'), ['user:q1', 'assistant:a1']);
  });

  it("a rewind's Undo is gone once another message is sent", async () => {
    const t = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] }, { content: [{ type: 'text', text: 'b1' }] });
    await t.handlers['chat/send']({ text: 'q1' });
    const q1 = t.store.getState().messages.find((m) => m.kind === 'user')!;
    await t.handlers['chat/rewind']({ id: q1.id });
    await t.handlers['chat/send']({ text: 'other' });
    await t.handlers['command/run']({ command: 'undoRewind' });
    assert.deepEqual(t.shown().filter((x) => x !== 'notice'), ['user:other', 'assistant:b1']);
    assert.match(t.notice()!.text, /can no longer be undone/);
  });

  it('Fork from the first message opens a new session with that message in its box', async () => {
    const t = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'a1' }] });
    await t.handlers['chat/send']({ text: 'first question' });
    const first = t.store.getState().sessionId;
    const q = t.store.getState().messages.find((m) => m.kind === 'user')!;
    await t.handlers['chat/fork']({ id: q.id });
    const fork = t.store.getState().sessionId;
    assert.notEqual(fork, first);
    assert.deepEqual(t.inserted(), [{ sessionId: fork, text: 'first question' }]);
  });

  it('a first message too big for the window is refused before anything is sent, handed back, and the notice says what to do', async () => {
    const t = setup({ contextWindow: 20_000 });
    const huge = Array.from({ length: 4000 }, (_, i) => `row ${i}: some pasted log output`).join('\n');
    await t.handlers['chat/send']({ text: huge });
    assert.equal(standin.requests.length, 0, 'nothing was sent');
    assert.deepEqual(t.shown(), ['notice'], 'the message is not in the conversation');
    assert.equal(t.driver.agent.messages.length, 0, 'nor in what the model would see');
    assert.equal(t.inserted()[0]?.text, huge, 'it is back in the box, whole');
    const n = t.notice()!;
    assert.match(n.text, /It is back in the box: shorten it/);
    assert.match(n.text, /bigger window/);
    assert.doesNotMatch(n.text, /Compact the conversation/);
    assert.deepEqual(n.action, { label: 'Select Model', command: 'selectModel' });
    // A short message goes through afterwards: the refused one left nothing behind.
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await t.handlers['chat/send']({ text: 'short one' });
    assert.deepEqual(lastMessages().map((m) => m.role), ['user']);
  });
});
