import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { WebviewToHostMessage } from '../../../src/shared/protocol';
import { DRAFT_SAVE_DELAY_MS, MAX_DRAFT_CHARS } from '../../../src/shared/sessionUi';
import { DraftSaver } from '../../../webview-ui/src/persist/draftSaver';
import { draftFor, receiveRestore } from '../../../webview-ui/src/persist/sessionUi';

function saver(sessionId: string) {
  const posts: WebviewToHostMessage[] = [];
  let now = 1000;
  const s = new DraftSaver(sessionId, (m) => posts.push(m), () => ++now);
  const drafts = () => posts.flatMap((m) => (m.type === 'draft/save' ? [m.payload.text] : []));
  return { s, posts, drafts };
}

describe('DraftSaver: the composer hands its draft to the host without a post per keystroke', () => {
  it('a burst of typing is one post, a moment after the last key', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { s, drafts } = saver('t1');
    let text = '';
    for (const ch of 'a question typed quickly') {
      text += ch;
      s.change(text);
      t.mock.timers.tick(40);
    }
    assert.deepEqual(drafts(), [], 'nothing while typing');
    t.mock.timers.tick(DRAFT_SAVE_DELAY_MS);
    assert.deepEqual(drafts(), ['a question typed quickly']);
    t.mock.timers.tick(10_000);
    assert.equal(drafts().length, 1, 'and nothing more after it');
  });

  it('flush sends what is pending at once (blur, the panel hiding), and nothing when nothing is', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { s, drafts } = saver('t2');
    s.flush();
    assert.deepEqual(drafts(), []);
    s.change('before Reload Window');
    s.flush();
    assert.deepEqual(drafts(), ['before Reload Window']);
    t.mock.timers.tick(DRAFT_SAVE_DELAY_MS * 2);
    assert.equal(drafts().length, 1);
  });

  it('a sent message cancels the pending save, so the sent text never comes back as a draft', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { s, drafts } = saver('t3');
    s.change('send this');
    s.sent();
    t.mock.timers.tick(DRAFT_SAVE_DELAY_MS * 2);
    assert.deepEqual(drafts(), []);
    assert.equal(draftFor('t3')?.text, '', "the panel's own copy is empty too");
  });

  it('a draft too long to keep is not posted (the host would refuse it); the composer says why', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { s, drafts } = saver('t4');
    s.change('short');
    s.flush();
    s.change('x'.repeat(MAX_DRAFT_CHARS + 1));
    s.flush();
    assert.deepEqual(drafts(), ['short']);
    assert.equal(draftFor('t4')?.text, 'short', 'the last draft that fits stays');
  });

  it('the newer of the host copy and the panel copy wins', () => {
    mock.reset();
    const { s } = saver('t5');
    s.change('typed here, at 1001');
    s.flush();
    receiveRestore('t5', { draft: { text: 'older host copy', at: 10 }, scroll: null });
    assert.equal(draftFor('t5')?.text, 'typed here, at 1001');
    receiveRestore('t5', { draft: { text: 'newer host copy', at: 5000 }, scroll: null });
    assert.equal(draftFor('t5')?.text, 'newer host copy');
  });
});
