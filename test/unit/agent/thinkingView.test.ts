import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/ports/logger';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore } from '../../../src/sessions/sessionStore';
import type { HostToWebviewMessage } from '../../../src/shared/protocol';
import { applyViewPatch, diffMessages, type ViewPatchOp } from '../../../src/shared/viewPatch';
import type { ViewMessage, ViewState } from '../../../src/shared/viewState';
import { ViewSync } from '../../../src/state/viewSync';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const cwd = mkdtempSync(join(tmpdir(), 'tl-thinkview-'));
writeFileSync(join(cwd, 'a.txt'), 'contents of a\n');
const standin = useStandin();

type Answer = Extract<ViewMessage, { kind: 'assistant' }>;
const answers = (messages: readonly ViewMessage[]) => messages.filter((m): m is Answer => m.kind === 'assistant');

describe('thinking in the answer view', () => {
  it('streams thinking into the answer it leads to, one answer per model turn, text apart from it', async () => {
    standin.enqueue(
      { content: [{ type: 'thinking', thinking: 'I should read a.txt first.' }, { type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }], chunkChars: 5 },
      { content: [{ type: 'thinking', thinking: 'Now I know what it says.' }, { type: 'text', text: 'It says contents of a.' }], chunkChars: 5 },
    );
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { model: 'claude-sonnet-4-6' }, rules: { allow: ['Read'] } });
    // What the panel saw while it streamed: the thinking grew before any text.
    const seen: Array<{ thinking: string; text: string }> = [];
    store.subscribe(() => {
      const last = store.getState().messages.at(-1);
      if (last?.kind === 'assistant' && last.streaming) seen.push({ thinking: last.thinking ?? '', text: last.text });
    });
    await agent.submit('what is in a.txt?');
    assert.equal(agent.outcome, 'end_turn');
    const [first, second] = answers(store.getState().messages);
    assert.deepEqual({ thinking: first?.thinking, text: first?.text, streaming: first?.streaming }, { thinking: 'I should read a.txt first.', text: '', streaming: false });
    assert.deepEqual({ thinking: second?.thinking, text: second?.text, streaming: second?.streaming }, { thinking: 'Now I know what it says.', text: 'It says contents of a.', streaming: false });
    const kinds = store.getState().messages.map((m) => m.kind);
    assert.deepEqual(kinds, ['user', 'assistant', 'tool', 'assistant']);
    const partial = seen.filter((s) => s.thinking && s.thinking.length < 'Now I know what it says.'.length && !s.text);
    assert.ok(partial.length >= 2, 'thinking was shown as it streamed, in more than one step');
    const firstText = seen.findIndex((s) => s.text.length > 0);
    assert.ok(firstText > 0 && seen[firstText]!.thinking === 'Now I know what it says.', 'the text comes after the whole thinking');
  });

  it('an answer without thinking has no Thinking section', async () => {
    standin.enqueue({ content: [{ type: 'text', text: 'plain' }] });
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { model: 'claude-sonnet-4-6', thinking: 'off' } });
    await agent.submit('hi');
    const [a] = answers(store.getState().messages);
    assert.equal(a?.text, 'plain');
    assert.equal(a?.thinking, undefined);
  });

  it('thinking travels to the panel as small appendThinking patches, and the mirror ends equal to the host', async () => {
    const thought = 'step '.repeat(200);
    standin.enqueue({ content: [{ type: 'thinking', thinking: thought }, { type: 'text', text: 'done' }], chunkChars: 10 });
    const { agent, store } = createStandinAgent({ url: standin.url, cwd, settings: { model: 'claude-sonnet-4-6' } });
    // A long history before it: a delta must not cost bytes in proportion to it.
    store.setState((s) => ({ ...s, messages: Array.from({ length: 500 }, (_, i): ViewMessage => ({ kind: 'user', id: `old${i}`, text: 'x'.repeat(300), createdAt: 1 })) }));
    const posted: HostToWebviewMessage[] = [];
    const sync = new ViewSync(store, {} as never, silentLogger);
    sync.attach({ postMessage: (m) => posted.push(structuredClone(m)) });
    await sync.receive({ type: 'view/ready', payload: {} });
    await agent.submit('think hard');
    await new Promise((r) => setImmediate(r));
    let mirror: ViewState | undefined;
    const ops: ViewPatchOp[] = [];
    for (const m of posted) {
      if (m.type === 'state/snapshot') mirror = m.payload.state;
      else if (m.type === 'state/patch') {
        ops.push(...m.payload.ops);
        mirror = applyViewPatch(mirror!, m.payload.ops);
      }
    }
    const appended = ops.filter((o) => o.op === 'msg/appendThinking');
    assert.ok(appended.length >= 5, `thinking streamed as ${appended.length} appendThinking ops`);
    for (const o of appended) assert.ok(JSON.stringify(o).length < 200, 'each carries only its delta');
    assert.deepEqual(mirror!.messages, store.getState().messages);
    assert.equal(answers(mirror!.messages)[0]!.thinking, thought);
    sync.dispose();
  });

  it('a saved session brings its answers back with their Thinking sections; a malformed one is refused as a bad line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-thinksave-'));
    const store = new SessionStore(dir);
    const rec = new SessionRecorder(store, { id: 'think', cwd, model: 'm' });
    await rec.append({ role: 'user', content: [{ type: 'text', text: 'q' }] });
    await rec.view({ kind: 'user', id: 'u', text: 'q', createdAt: 1 });
    await rec.view({ kind: 'assistant', id: 'a', text: 'answer', thinking: 'because', streaming: false, createdAt: 2 });
    await rec.view({ kind: 'assistant', id: 'b', text: 'odd', thinking: { evil: true } as unknown as string, streaming: false, createdAt: 3 });
    await rec.flush();
    const loaded = await store.load('think');
    const a = answers(loaded.view);
    assert.deepEqual(a.map((m) => [m.id, m.thinking]), [['a', 'because']], 'a thinking that is not text does not reach the panel');
  });

  it('diffMessages sends thinking growth as appendThinking, anything else as replace', () => {
    const a = (thinking: string | undefined, text = '', streaming = true): ViewMessage => ({ kind: 'assistant', id: 'a', text, streaming, createdAt: 1, ...(thinking === undefined ? {} : { thinking }) });
    assert.deepEqual(diffMessages([a('Hm')], [a('Hmm, yes')]), [{ op: 'msg/appendThinking', index: 0, text: 'm, yes' }]);
    assert.deepEqual(diffMessages([a(undefined)], [a('First')]), [{ op: 'msg/appendThinking', index: 0, text: 'First' }]);
    assert.deepEqual(diffMessages([a('Hm')], [a('Hm', 'text')]), [{ op: 'msg/appendText', index: 0, text: 'text' }]);
    assert.equal(diffMessages([a('Hm')], [a('Hm!', 'x')])[0]!.op, 'msg/replace');
    assert.equal(diffMessages([a('Hm')], [a('Hm!', '', false)])[0]!.op, 'msg/replace');
    assert.throws(() => applyViewPatch({ messages: [{ kind: 'user', id: 'u', text: 'q', createdAt: 1 }] } as unknown as ViewState, [{ op: 'msg/appendThinking', index: 0, text: 'x' }]), /not an answer/);
  });
});
