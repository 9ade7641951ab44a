import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { SessionRecorder } from '../../../src/sessions/recorder';
import { SessionStore } from '../../../src/sessions/sessionStore';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

it("a running Bash card shows what the command has printed so far; the saved card keeps only the result", async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-live-'));
  const { agent, store, runtime } = createStandinAgent({ url: standin.url, cwd, rules: { allow: ['Bash(echo:*)', 'Bash(sleep:*)'] } });
  standin.enqueue(
    { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo first line && sleep 1 && echo second line' } }] },
    { content: [{ type: 'text', text: 'done' }] },
  );
  const seen: string[] = [];
  const off = store.subscribe(() => {
    const card = store.getState().messages.find((m) => m.kind === 'tool');
    if (card?.kind === 'tool' && card.status === 'running' && card.liveOutput && seen.at(-1) !== card.liveOutput) seen.push(card.liveOutput);
  });
  await agent.submit('run it');
  off();
  assert.ok(seen.some((t) => t.includes('first line') && !t.includes('second line')), `the first line showed while the command still ran: ${JSON.stringify(seen)}`);
  const card = store.getState().messages.find((m) => m.kind === 'tool');
  assert.ok(card?.kind === 'tool');
  assert.equal(card.status, 'done');
  assert.equal(card.liveOutput, undefined, 'the live output goes when the result comes');
  assert.match(card.result ?? '', /first line\nsecond line/);
  // Written to a transcript, a card never carries the live output.
  const sessions = new SessionStore(join(cwd, '.sessions'));
  const rec = new SessionRecorder(sessions, { id: runtime.sessionId, cwd, model: 'm' });
  const running = { ...card, status: 'running' as const, liveOutput: 'first line\n' };
  await rec.sync(agent.messages, [store.getState().messages[0]!, running], 0);
  await rec.flush();
  const loaded = await sessions.load(runtime.sessionId);
  assert.equal(loaded.view.find((m) => m.kind === 'tool')?.kind === 'tool' && 'liveOutput' in loaded.view.find((m) => m.kind === 'tool')!, false);
});
