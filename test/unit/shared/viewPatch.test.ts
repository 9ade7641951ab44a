import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fc } from '../../support/fastCheck';
import { applyViewPatch, diffMessages, diffViewState } from '../../../src/shared/viewPatch';
import type { ViewMessage, ViewState } from '../../../src/shared/viewState';
import { getDefaultAppState, pickView } from '../../../src/state/appState';

const base = (): ViewState => pickView(getDefaultAppState({ sessionId: 's1' }));
const user = (id: string, text: string): ViewMessage => ({ kind: 'user', id, text, createdAt: 1 });
const asst = (id: string, text: string, streaming = true): ViewMessage => ({ kind: 'assistant', id, text, streaming, createdAt: 1 });

describe('diffMessages', () => {
  it('sends a streamed token as appendText whose size does not depend on history', () => {
    const history = Array.from({ length: 2000 }, (_, i) => user(`u${i}`, 'x'.repeat(200)));
    const prev = [...history, asst('a', 'Hello')];
    const next = [...history, asst('a', 'Hello world')];
    const ops = diffMessages(prev, next);
    assert.deepEqual(ops, [{ op: 'msg/appendText', index: 2000, text: ' world' }]);
    assert.ok(JSON.stringify(ops).length < 100);
  });

  it('replaces a message when anything but its text grows', () => {
    const ops = diffMessages([asst('a', 'Hi')], [asst('a', 'Hi', false)]);
    assert.deepEqual(ops, [{ op: 'msg/replace', index: 0, message: asst('a', 'Hi', false) }]);
  });

  it('appends new messages and truncates removed ones', () => {
    const a = user('a', '1');
    const b = user('b', '2');
    assert.deepEqual(diffMessages([a], [a, b]), [{ op: 'msg/append', message: b }]);
    assert.deepEqual(diffMessages([a, b], [a]), [{ op: 'msg/truncate', length: 1 }]);
  });

  it('resets when the first message differs (a new session or a compaction)', () => {
    const ops = diffMessages([user('a', '1')], [user('z', '9')]);
    assert.equal(ops[0]?.op, 'msg/reset');
  });
});

describe('applyViewPatch', () => {
  it('keeps the identity of untouched messages', () => {
    const s = { ...base(), messages: [user('a', '1'), asst('b', 'x')] };
    const next = applyViewPatch(s, [{ op: 'msg/appendText', index: 1, text: 'y' }]);
    assert.equal(next.messages[0], s.messages[0]);
    assert.notEqual(next.messages[1], s.messages[1]);
    assert.equal((next.messages[1] as { text: string }).text, 'xy');
  });

  it('throws on a patch that does not fit the state', () => {
    assert.throws(() => applyViewPatch(base(), [{ op: 'msg/replace', index: 3, message: user('a', '') }]));
  });
});

const arbMessage: fc.Arbitrary<ViewMessage> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), text: fc.string(), createdAt: fc.nat() }),
  fc.record({
    kind: fc.constant('assistant' as const),
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    text: fc.string(),
    streaming: fc.boolean(),
    createdAt: fc.nat(),
  }),
);

describe('diff then apply', () => {
  it('reproduces the next state exactly, for arbitrary transitions', () => {
    fc.assert(
      fc.property(
        fc.array(arbMessage, { maxLength: 8 }),
        fc.array(arbMessage, { maxLength: 8 }),
        fc.constantFrom('idle', 'streaming') as fc.Arbitrary<ViewState['status']>,
        fc.string(),
        (m1, m2, status, title) => {
          const prev = { ...base(), messages: m1 };
          // Share identity for a common prefix, as immutable updates do.
          const shared = m2.map((m, i) => (m1[i] && JSON.stringify(m1[i]) === JSON.stringify(m) ? m1[i]! : m));
          const next = { ...prev, messages: shared, status, sessionTitle: title };
          const applied = applyViewPatch(prev, diffViewState(prev, next));
          assert.deepEqual(applied, next);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reproduces streaming growth of the last message', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 20 }), (chunks) => {
        let prev: ViewState = { ...base(), messages: [user('u', 'q'), asst('a', '')] };
        let mirror = prev;
        for (const chunk of chunks) {
          const last = prev.messages[1] as Extract<ViewMessage, { kind: 'assistant' }>;
          const next = { ...prev, messages: [prev.messages[0]!, { ...last, text: last.text + chunk }] };
          const ops = diffViewState(prev, next);
          assert.equal(ops.length, 1);
          assert.equal(ops[0]!.op, 'msg/appendText');
          mirror = applyViewPatch(mirror, ops);
          prev = next;
        }
        assert.deepEqual(mirror, prev);
      }),
    );
  });
});
