import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { ContextService } from '../../../src/context/contextService';
import { coveragePath } from '../../../src/memory/notesCoverage';
import { type ScriptedBlock } from '../../standin/server';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';
import { testHost } from '../../support/host';

const standin = useStandin();

const NOTES_ASK = 'Update the session notes';
const SUMMARY_ASK = 'about to be replaced by a summary';
const bulk = (n: number, tag = 'row') => Array.from({ length: n }, (_, i) => `${tag} ${i}: some data worth keeping in mind`).join('\n');

type Body = { messages: MessageParam[] };
const lastUserText = (body: Record<string, unknown>) => JSON.stringify((body as Body).messages.at(-1));

/** A notes agent that edits with text it was shown: the first heading inside <current-notes>. */
function editFromShown(newLine: string): (body: Record<string, unknown>) => ScriptedBlock[] {
  return (body) => {
    const m = /<current-notes path=\\"([^"\\]+)\\">\\n([\s\S]*?)\\n<\/current-notes>/.exec(lastUserText(body));
    assert.ok(m, 'the notes are in the notes agent\'s prompt');
    const path = m[1]!;
    const shown = JSON.parse(`"${m[2]!}"`) as string;
    const heading = shown.split('\n').find((l) => l.startsWith('## '))!;
    return [{ type: 'tool_use', name: 'Edit', input: { file_path: path, old_string: heading, new_string: `${heading}\n${newLine}` } }];
  };
}

function setup(withContext = false) {
  const cwd = mkdtempSync(join(tmpdir(), 'tl-notes-'));
  const notesPath = join(cwd, '.state', 'notes.md');
  const errors: string[] = [];
  const context = withContext ? new ContextService({ cwd, home: join(cwd, '.home'), managedRoot: null, filesystemRoot: cwd, host: testHost() }) : undefined;
  const { agent, store } = createStandinAgent({
    url: standin.url,
    cwd,
    settings: { model: 'standin-test-model', contextWindow: 200_000 },
    headless: true,
    maxTurns: 10,
    extra: {
      memory: { dir: join(cwd, '.mem'), enabled: () => false, sessionNotesPath: notesPath, onError: (e) => errors.push(e instanceof Error ? e.message : String(e)) },
      ...(context ? { context } : {}),
    },
  });
  const forkRequests = () => standin.requests.filter((r) => JSON.stringify((r.body as Body).messages).includes(NOTES_ASK));
  const summaryRequests = () => standin.requests.filter((r) => lastUserText(r.body as Record<string, unknown>).includes(SUMMARY_ASK));
  return { cwd, notesPath, agent, store, errors, forkRequests, summaryRequests };
}

describe('session notes: an agent that can do its job', () => {
  it('sees the notes in its prompt, edits with text taken from them, and the notes then cover the history for compaction', async () => {
    const { agent, notesPath, store, forkRequests, summaryRequests } = setup();
    standin.enqueue(
      { content: [{ type: 'text', text: 'Loaded the data.' }] },
      { when: NOTES_ASK, content: [], contentFrom: editFromShown('Analyse the rows the user pasted.') },
    );
    await agent.submit(`Please look at this:\n${bulk(1200)}`);
    await agent.drain();
    assert.equal(forkRequests().length, 1, 'one request: the fork ends with its successful edit');
    assert.match(readFileSync(notesPath, 'utf8'), /Analyse the rows the user pasted\./);
    assert.ok(existsSync(coveragePath(notesPath)));
    standin.enqueue({ content: [{ type: 'text', text: 'Second answer.' }] });
    await agent.submit('one more question');
    await agent.drain();
    assert.equal(await agent.compactNow(), true);
    assert.equal(summaryRequests().length, 0, 'the notes were the summary');
    const divider = store.getState().messages.find((m) => m.kind === 'compaction');
    assert.ok(divider?.kind === 'compaction' && /Analyse the rows/.test(divider.summary));
  });

  it('a wrong old_string is reported, and the notes are not trusted for compaction until an update succeeds', async () => {
    const { agent, notesPath, errors, summaryRequests } = setup();
    standin.enqueue(
      { content: [{ type: 'text', text: 'Loaded.' }] },
      { when: NOTES_ASK, content: [{ type: 'tool_use', name: 'Edit', input: { file_path: notesPath, old_string: '## Task (guessed heading)', new_string: 'x' } }] },
      { content: [{ type: 'text', text: 'could not edit' }] },
    );
    await agent.submit(`Look:\n${bulk(1200)}`);
    await agent.drain();
    assert.match(errors.join('\n'), /session notes update failed.*not used for compaction/s);
    // Someone (a later partial update, the user) puts text in the notes anyway: still not trusted.
    writeFileSync(notesPath, '# Session notes\n\n## Current task\nStale guess.\n');
    standin.enqueue({ content: [{ type: 'text', text: 'Second.' }] });
    await agent.submit('and?');
    await agent.drain();
    standin.enqueue({ when: SUMMARY_ASK, content: [{ type: 'text', text: '<summary>The real summary.</summary>' }] });
    assert.equal(await agent.compactNow(), true);
    assert.equal(summaryRequests().length, 1, 'fell back to the nine-section summary');
  });

  it('stale notes covering only the first round of a 60-round history are not used: no rounds are silently dropped', async () => {
    const { agent, notesPath, store, summaryRequests } = setup();
    standin.enqueue(
      { content: [{ type: 'text', text: 'Round 0 done.' }] },
      { when: NOTES_ASK, content: [], contentFrom: editFromShown('Round 0 only.') },
    );
    await agent.submit(`Round 0 data:\n${bulk(1200)}`);
    await agent.drain();
    // Later updates never succeed (a model that answers without editing).
    standin.enqueue({ when: NOTES_ASK, repeat: true, content: [{ type: 'text', text: 'Nothing to change.' }] });
    for (let i = 1; i < 60; i++) {
      standin.enqueue({ content: [{ type: 'text', text: `Round ${i} done.` }] });
      await agent.submit(`Round ${i}: ${bulk(75, `r${i}`)}`);
    }
    await agent.drain();
    assert.match(readFileSync(notesPath, 'utf8'), /Round 0 only\./);
    standin.enqueue({ when: SUMMARY_ASK, content: [{ type: 'text', text: '<summary>Rounds 0 to 59.</summary>' }] });
    assert.equal(await agent.compactNow(), true);
    assert.equal(summaryRequests().length, 1, 'the stale notes were refused; the summary covers everything');
    const divider = store.getState().messages.find((m) => m.kind === 'compaction');
    assert.ok(divider?.kind === 'compaction' && /Rounds 0 to 59/.test(divider.summary));
  });
});

describe('session notes: the natural break is checked after every model turn', () => {
  it('a loop of 3 tool calls at 20k tokens updates the notes', async () => {
    const { cwd, agent, notesPath, forkRequests } = setup();
    for (const f of ['a', 'b', 'c']) writeFileSync(join(cwd, `${f}.txt`), `${f}\n`);
    standin.enqueue(
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] },
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'b.txt' } }] },
      { content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'c.txt' } }] },
      { content: [{ type: 'text', text: 'Read all three.' }] },
      { when: NOTES_ASK, content: [], contentFrom: editFromShown('Read a, b and c.') },
    );
    await agent.submit(`Read the three files. Context:\n${bulk(2000)}`);
    await agent.drain();
    assert.equal(forkRequests().length, 1, 'the notes agent ran after the loop that ended without tool calls');
    assert.match(readFileSync(notesPath, 'utf8'), /Read a, b and c\./);
  });
});

describe('instruction files are read again after a notes-based compaction', () => {
  it('an edit to CLAUDE.md mid-session reaches the request after the compaction', async () => {
    const { cwd, agent, summaryRequests } = setup(true);
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Version one of the rules.');
    standin.enqueue(
      { content: [{ type: 'text', text: 'Loaded.' }] },
      { when: NOTES_ASK, content: [], contentFrom: editFromShown('Working on the data.') },
    );
    await agent.submit(`Data:\n${bulk(1200)}`);
    await agent.drain();
    standin.enqueue({ content: [{ type: 'text', text: 'Second.' }] });
    await agent.submit('next');
    writeFileSync(join(cwd, 'CLAUDE.md'), 'Version two of the rules.');
    assert.equal(await agent.compactNow(), true);
    assert.equal(summaryRequests().length, 0, 'compacted from the notes');
    standin.enqueue({ content: [{ type: 'text', text: 'ok' }] });
    await agent.submit('go on');
    const sent = JSON.stringify((standin.requests.at(-1)!.body as Body).messages);
    assert.match(sent, /Version two of the rules\./);
    assert.doesNotMatch(sent, /Version one of the rules\./);
  });
});
