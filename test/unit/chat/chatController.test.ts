import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChatHandlers } from '../../../src/chat/chatController';
import { resolveOpenable } from '../../../src/chat/openablePath';
import { chatDeps, stubSession, stubWorkbench } from '../../support/chatDeps';
import { getDefaultAppState, type AppState } from '../../../src/state/appState';
import { createStore } from '../../../src/shared/store';

function setup(state: Partial<AppState>) {
  const store = createStore<AppState>({ ...getDefaultAppState({ sessionId: 's' }), ...state });
  let continued = 0;
  const session = stubSession({
    continue: async () => {
      continued++;
    },
  });
  const opened: [string, number | undefined][] = [];
  const inserted: string[] = [];
  const handlers = createChatHandlers(
    chatDeps(store, {
      session,
      workbench: stubWorkbench({
        openFile: async (path, line) => void opened.push([path, line]),
        insertText: async (text) => void inserted.push(text),
      }),
    }),
  );
  return { store, handlers, continued: () => continued, opened, inserted };
}

describe('chat controller', () => {
  it('a Continue whose moment has passed does nothing, from the button or from a notice', async () => {
    const t = setup({ canContinue: false, status: 'idle' });
    await t.handlers['chat/continue']({});
    await t.handlers['command/run']({ command: 'continue' });
    assert.equal(t.continued(), 0, 'no "continue" is sent into a finished conversation');
  });

  it('Continue acts while the state says the stopped turn can be picked up, and not while busy', async () => {
    const t = setup({ canContinue: true, status: 'idle' });
    await t.handlers['chat/continue']({});
    assert.equal(t.continued(), 1);
    t.store.setState((s) => ({ ...s, status: 'streaming' }));
    await t.handlers['chat/continue']({});
    assert.equal(t.continued(), 1);
  });

  it('passes open-file and insert requests to the editor', async () => {
    const t = setup({});
    await t.handlers['editor/openFile']({ path: 'src/a.ts', line: 3 });
    await t.handlers['editor/insertText']({ text: 'x = 1' });
    assert.deepEqual(t.opened, [['src/a.ts', 3]]);
    assert.deepEqual(t.inserted, ['x = 1']);
  });

  it('loads the latest other sessions for the empty state, newest first, at most five', async () => {
    const items = Array.from({ length: 8 }, (_, i) => ({ id: `s${i}`, title: `t${i}`, updatedAt: 100 - i, messageCount: i === 2 ? 0 : 4, current: i === 0, preview: '' }));
    const { store } = setup({});
    const history = { list: async () => items, resume: async () => undefined, rename: async () => undefined, remove: async () => undefined, exportMarkdown: async () => undefined };
    const handlers = createChatHandlers(chatDeps(store, { history }));
    await handlers['history/recent']({});
    assert.deepEqual(store.getState().recent.map((h) => h.id), ['s1', 's3', 's4', 's5', 's6'], 'not the open one, not an empty one');
  });

  it('passes a review request to the diff review', async () => {
    const reviewed: string[] = [];
    const handlers = createChatHandlers(chatDeps(setup({}).store, { workbench: stubWorkbench({ reviewEdit: async (id) => void reviewed.push(id) }) }));
    await handlers['edit/review']({ requestId: 'perm_9' });
    assert.deepEqual(reviewed, ['perm_9']);
  });
});

describe('which files a card may open', () => {
  let root: string;
  let outside: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'tl-open-'));
    outside = mkdtempSync(join(tmpdir(), 'tl-outside-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'x');
    writeFileSync(join(outside, 'secret.txt'), 'x');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('a file inside the workspace, relative or absolute', async () => {
    assert.deepEqual(await resolveOpenable([root], 'src/a.ts'), { ok: true, file: join(root, 'src', 'a.ts') });
    assert.equal((await resolveOpenable([root], join(root, 'src', 'a.ts'))).ok, true);
  });

  it('refuses what is outside, through .. or a link, folders, missing files, and no folder at all', async () => {
    for (const p of ['../' + join(outside.split('/').at(-1)!, 'secret.txt'), join(outside, 'secret.txt'), 'link.txt', 'src', 'missing.ts', 'a\0b']) {
      const r = await resolveOpenable([root], p);
      assert.equal(r.ok, false, p);
      if (!r.ok) assert.ok(r.reason.length > 0);
    }
    assert.equal((await resolveOpenable([], 'src/a.ts')).ok, false);
  });
});
