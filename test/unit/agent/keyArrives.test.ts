import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { testHost } from '../../support/host';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

it('a key stored while a message waits turns the "set a key" notice into one offer to send, however often the change is reported', async () => {
  const stored: { key?: string } = {};
  const { agent, store } = createStandinAgent({ url: standin.url, cwd: mkdtempSync(join(tmpdir(), 'tl-key-')), extra: { host: { ...testHost({ baseUrl: standin.url }), apiKey: async () => stored.key } } });
  await agent.submit('hello');
  await agent.retry();
  const notices = () => store.getState().messages.filter((m) => m.kind === 'notice');
  assert.equal(notices().length, 1, 'Retry without a key does not repeat the notice');
  stored.key = 'sk-ant-now';
  // VS Code reports a stored secret more than once (the store's event and our own).
  agent.keyArrived();
  agent.keyArrived();
  const [only] = notices();
  assert.equal(notices().length, 1, notices().map((n) => (n.kind === 'notice' ? n.text : '')).join(' | '));
  assert.ok(only?.kind === 'notice');
  assert.equal(only.text, 'API key saved. Send your waiting message now?');
  assert.deepEqual(only.action, { label: 'Retry', command: 'retry' });
  standin.enqueue({ content: [{ type: 'text', text: 'hi' }] });
  await agent.retry();
  assert.equal(store.getState().messages.at(-1)?.kind, 'assistant');
  agent.keyArrived();
  assert.equal(notices().length, 1, 'nothing waits any more: no notice');
});
