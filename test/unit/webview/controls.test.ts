import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ViewMessage, ViewState } from '../../../src/shared/viewState';
import { continueLive, noticeAction } from '../../../webview-ui/src/controls/noticeActions';

const user = (id: string): ViewMessage => ({ kind: 'user', id, text: 'q', createdAt: 0 });
const answer = (id: string): ViewMessage => ({ kind: 'assistant', id, text: 'a', streaming: false, createdAt: 0 });
const stopped = (id: string): ViewMessage => ({ kind: 'notice', id, level: 'info', text: 'Stopped. Press Continue…', action: { label: 'Continue', command: 'continue' }, createdAt: 0 });
const failed = (id: string): ViewMessage => ({ kind: 'notice', id, level: 'error', text: 'The request failed', action: { label: 'Retry', command: 'retry' }, createdAt: 0 });
const state = (messages: ViewMessage[], over: Partial<ViewState> = {}) => ({ messages, status: 'idle' as const, canContinue: false, ...over });

describe('controls that cannot misfire', () => {
  it('Stop, Continue, a finished answer: the old notice offers no Continue, and neither does the composer', () => {
    const afterStop = state([user('u1'), answer('a1'), stopped('n1')], { canContinue: true });
    assert.equal(continueLive(afterStop), true, 'right after Stop the composer offers Continue');
    assert.equal(noticeAction(afterStop, 2), 'hidden', 'the notice does not add a second Continue');
    const finished = state([user('u1'), answer('a1'), stopped('n1'), answer('a2')], { canContinue: false });
    assert.equal(continueLive(finished), false);
    assert.equal(noticeAction(finished, 2), 'hidden');
    assert.equal(continueLive(state([], { canContinue: true, status: 'streaming' })), false, 'not while an answer streams');
  });

  it('Retry acts only for the turn that failed, and only while idle', () => {
    assert.equal(noticeAction(state([user('u1'), failed('n1')]), 1), 'live');
    assert.equal(noticeAction(state([user('u1'), failed('n1')], { status: 'streaming' }), 1), 'stale');
    assert.equal(noticeAction(state([user('u1'), failed('n1'), user('u2'), answer('a2')]), 1), 'stale');
    assert.equal(noticeAction(state([user('u1'), failed('n1'), failed('n2')]), 1), 'live', 'a later notice alone does not end the turn');
  });

  it('command actions stay available; messages without an action have none', () => {
    const key: ViewMessage = { kind: 'notice', id: 'k', level: 'warning', text: 'Set a key', action: { label: 'Set API Key', command: 'setApiKey' }, createdAt: 0 };
    assert.equal(noticeAction(state([key, user('u'), answer('a')]), 0), 'live');
    assert.equal(noticeAction(state([user('u')]), 0), 'hidden');
  });
});
