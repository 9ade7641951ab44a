import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttachmentSource } from '../../../src/chat/attachments';
import { createChatHandlers } from '../../../src/chat/chatController';
import { chatDeps, stubSession, stubWorkbench } from '../../support/chatDeps';
import { createStore } from '../../../src/shared/store';
import { getDefaultAppState, type AppState } from '../../../src/state/appState';

function setup(files: Record<string, string>) {
  const store = createStore<AppState>(getDefaultAppState({ sessionId: 's' }));
  const sent: string[] = [];
  const session = stubSession({ submit: async (text) => void sent.push(text) });
  const source: AttachmentSource = {
    listFiles: async () => Object.keys(files),
    readFile: async (path) => (path in files ? { ok: true, text: files[path]! } : { ok: false, reason: `${path} does not exist` }),
  };
  const handlers = createChatHandlers(chatDeps(store, { session, workbench: stubWorkbench({ attachments: source }) }));
  return { store, handlers, sent };
}

describe('attachments', () => {
  it('@ lists the files, a pick becomes a chip, and the message carries the file in a delimited block', async () => {
    const t = setup({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# r\n' });
    await t.handlers['attach/pickFile']({});
    assert.deepEqual(t.store.getState().fileChoices, ['src/a.ts', 'README.md']);
    await t.handlers['attach/file']({ path: 'src/a.ts' });
    assert.equal(t.store.getState().fileChoices, null, 'the picker closes');
    assert.deepEqual(t.store.getState().attachments.map((a) => a.path), ['src/a.ts']);
    t.store.setState((s) => ({ ...s, attachments: [...s.attachments, { kind: 'selection', id: 'x', path: 'README.md', startLine: 1, endLine: 1, text: '# r' }] }));
    await t.handlers['chat/send']({ text: 'explain these' });
    assert.equal(t.sent.length, 1);
    assert.equal(t.sent[0], '<file path="src/a.ts">\nexport const a = 1;\n\n</file>\n\n<selection path="README.md" lines="1-1">\n# r\n</selection>\n\nexplain these');
    assert.deepEqual(t.store.getState().attachments, [], 'chips go with the message');
  });

  it('a removed chip does not go; a path the picker did not offer is not attached', async () => {
    const t = setup({ 'a.txt': 'A' });
    await t.handlers['attach/file']({ path: '../../etc/passwd' });
    assert.deepEqual(t.store.getState().attachments, [], 'only offered paths');
    await t.handlers['attach/pickFile']({});
    await t.handlers['attach/file']({ path: 'a.txt' });
    const id = t.store.getState().attachments[0]!.id;
    await t.handlers['attach/remove']({ id });
    await t.handlers['chat/send']({ text: 'plain' });
    assert.deepEqual(t.sent, ['plain']);
  });

  it('a file that cannot be read says so in its block instead of vanishing', async () => {
    const t = setup({ 'gone.txt': 'x' });
    await t.handlers['attach/pickFile']({});
    await t.handlers['attach/file']({ path: 'gone.txt' });
    const realRead = 'gone.txt';
    t.store.setState((s) => ({ ...s, attachments: s.attachments.map((a) => ({ ...a, path: `${realRead}.moved` })) }));
    await t.handlers['chat/send']({ text: 'q' });
    assert.match(t.sent[0]!, /^<file path="gone\.txt\.moved" error="gone\.txt\.moved does not exist" \/>\n\nq$/);
  });
});
