// Issue 15: the background memory work of a turn costs as few requests as it can. Each test
// counts the requests the stand-in saw after each prompt and reads what each one carried.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MessageParam } from '../../../src/api/types';
import { MemoryDir } from '../../../src/memory/memdir';
import { coveragePath } from '../../../src/memory/notesCoverage';

import { type RecordedRequest } from '../../standin/server';
import { createStandinAgent } from '../../support/standinAgent';
import { useStandin } from '../../support/useStandin';

const standin = useStandin();

const NOTES_ASK = 'Update the session notes';
const MEMORY_ASK = 'should be remembered';
const bulk = (n: number, tag = 'row') => Array.from({ length: n }, (_, i) => `${tag} ${i}: a line of data the session has been working with`).join('\n');
const memoryFile = (name: string) => `---\nname: ${name}\ndescription: Prefers terse answers\ntype: feedback\n---\nSkip summaries.\n`;

type Body = { messages: MessageParam[] };
const lastUser = (r: RecordedRequest) => JSON.stringify((r.body as Body).messages.at(-1));
const isBackground = (r: RecordedRequest) => /Update the session notes|should be remembered/.test(JSON.stringify((r.body as Body).messages));
const readShare = (r: RecordedRequest) => {
  const u = r.usage!;
  return u.cache_read_input_tokens / (u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens);
};

function setup(opts: { cwd?: string; dir?: string } = {}) {
  const cwd = opts.cwd ?? mkdtempSync(join(tmpdir(), 'tl-turnend-'));
  const dir = opts.dir ?? join(mkdtempSync(join(tmpdir(), 'tl-turnend-mem-')), 'memory');
  const notesPath = join(cwd, '.notes', 'session.md');
  const errors: string[] = [];
  const { agent } = createStandinAgent({
    url: standin.url,
    cwd,
    settings: { model: 'claude-sonnet-4-6', contextWindow: 200_000 },
    headless: true,
    extra: { memory: { dir, enabled: () => true, sessionNotesPath: notesPath, onError: (e) => errors.push(e instanceof Error ? e.message : String(e)) } },
  });
  /** The background requests sent since the last call. */
  let seen = 0;
  const backgroundSince = () => {
    const rs = standin.requests.slice(seen).filter(isBackground);
    seen = standin.requests.length;
    return rs;
  };
  return { cwd, dir, notesPath, agent, errors, backgroundSince };
}

/** The coverage marker the notes' record claims, if any (an answer without an edit records only what it saw). */
const readNotesMarker = (notesPath: string): unknown => (existsSync(coveragePath(notesPath)) ? (JSON.parse(readFileSync(coveragePath(notesPath), 'utf8')) as { marker?: unknown }).marker : undefined);

const notesEdit = (notesPath: string, line: string) => ({ type: 'tool_use' as const, name: 'Edit', input: { file_path: notesPath, old_string: '## Current task', new_string: `## Current task\n${line}` } });
const memoryWrite = (dir: string, name: string) => ({ type: 'tool_use' as const, name: 'Write', input: { file_path: join(dir, `${name}.md`), content: memoryFile(name) } });

describe('background memory work: one request when notes and extraction are both due', () => {
  it('sends one request carrying both instructions, and reads its one reply into both results', async () => {
    const { dir, notesPath, agent, backgroundSince } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'Loaded.' }] }, { content: [notesEdit(notesPath, 'Look at the rows.'), memoryWrite(dir, 'feedback_terse')] });
    await agent.submit(`Keep answers terse. Look at this:\n${bulk(1200)}`);
    await agent.drain();
    const bg = backgroundSince();
    assert.equal(bg.length, 1, 'one background request for both jobs, and none after its writes');
    assert.ok(lastUser(bg[0]!).includes(NOTES_ASK) && lastUser(bg[0]!).includes(MEMORY_ASK), 'both instructions in it');
    assert.ok(readShare(bg[0]!) >= 0.9, `reads the main prefix from the cache (${readShare(bg[0]!).toFixed(3)})`);
    assert.equal((JSON.stringify(bg[0]!.body).match(/What not to save/g) ?? []).length, 1, 'the memory rules once, in the shared system prompt; the instruction adds only the index');
    assert.match(lastUser(bg[0]!), /It holds no memories yet/);
    assert.match(readFileSync(notesPath, 'utf8'), /Look at the rows\./);
    assert.ok(existsSync(coveragePath(notesPath)), 'the notes cover the history');
    assert.deepEqual((await new MemoryDir(dir).list()).valid.map((m) => m.name), ['feedback_terse']);
    assert.match(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), /feedback_terse/);
  });

  it('a reply that does only the notes half ends at its writes, and the memory half counts as answered', async () => {
    const { notesPath, agent, backgroundSince } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'Loaded.' }] }, { content: [notesEdit(notesPath, 'Rows.')] });
    await agent.submit(`Look at this:\n${bulk(1200)}`);
    await agent.drain();
    assert.equal(backgroundSince().length, 1, 'no second turn: the fork saw the conversation and chose to save nothing');
    assert.match(readFileSync(notesPath, 'utf8'), /Rows\./);
    standin.enqueue({ content: [{ type: 'text', text: 'Sure.' }] });
    await agent.submit('thanks');
    await agent.drain();
    assert.equal(backgroundSince().length, 0, 'neither half is asked again for a short prompt');
  });

  it('a reply that does only the memory half claims no coverage for the notes, and they wait for new conversation', async () => {
    const { dir, notesPath, agent, backgroundSince } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'Loaded.' }] }, { content: [memoryWrite(dir, 'feedback_terse')] });
    await agent.submit(`Keep it terse. Look at this:\n${bulk(1200)}`);
    await agent.drain();
    assert.equal(backgroundSince().length, 1);
    assert.equal(readNotesMarker(notesPath), undefined, 'no coverage claimed without an edit');
    standin.enqueue({ content: [{ type: 'text', text: 'Sure.' }] });
    await agent.submit('thanks');
    await agent.drain();
    assert.equal(backgroundSince().length, 0, 'the notes saw this conversation: not asked again for it');
    // 3/4 of the 40k verbatim tail a 200k window allows: the notes are due again.
    standin.enqueue({ content: [{ type: 'text', text: 'Read.' }] }, { when: NOTES_ASK, content: [{ type: 'text', text: 'Nothing to save.' }, notesEdit(notesPath, 'Rows, then more rows.')] });
    await agent.submit(`More:\n${bulk(2400, 'more')}`);
    await agent.drain();
    const bg = backgroundSince();
    assert.equal(bg.length, 1);
    assert.match(lastUser(bg[0]!), /Update the session notes/);
    assert.match(readFileSync(notesPath, 'utf8'), /Rows, then more rows\./);
  });
});

describe('background work the model answers with nothing is not asked again at every prompt', () => {
  for (const [what, reply] of [
    ['text and no tool call', [{ type: 'text' as const, text: 'I have nothing to add.' }]],
    ['an empty text', [{ type: 'text' as const, text: '' }]],
  ] as const) {
    it(`a fork that answered with ${what} has seen that history, in this run and in continued ones (threadline -c)`, async () => {
      const first = setup();
      standin.enqueue({ content: [{ type: 'text', text: 'Loaded.' }] }, { when: NOTES_ASK, content: [...reply] });
      await first.agent.submit(`Look at this:\n${bulk(1200)}`);
      await first.agent.drain();
      const asked = first.backgroundSince();
      assert.equal(asked.length, 1);
      assert.ok(lastUser(asked[0]!).includes(NOTES_ASK) && lastUser(asked[0]!).includes(MEMORY_ASK), 'both jobs were asked');
      assert.equal(readNotesMarker(first.notesPath), undefined, 'an answer without an edit covers nothing');
      standin.enqueue({ content: [{ type: 'text', text: 'Sure.' }] });
      await first.agent.submit('thanks');
      await first.agent.drain();
      assert.equal(first.backgroundSince().length, 0, 'the same run does not ask again');
      let history = [...first.agent.messages];
      const asks: string[][] = [];
      for (const prompt of ['and the second file?', 'one more thing']) {
        const next = setup({ cwd: first.cwd, dir: first.dir });
        next.agent.setHistory(history);
        next.backgroundSince();
        standin.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
        // Extraction's own pace: alone, every third prompt since the one it read.
        if (asks.length === 1) standin.enqueue({ when: MEMORY_ASK, content: [{ type: 'text', text: 'Nothing to save.' }] });
        await next.agent.submit(prompt);
        await next.agent.drain();
        asks.push(next.backgroundSince().map((r) => (lastUser(r).includes(NOTES_ASK) ? 'notes' : 'memory')));
        history = [...next.agent.messages];
      }
      assert.deepEqual(asks, [[], ['memory']], 'continued runs do not ask for the notes again; extraction keeps its pace of three prompts');
    });
  }
});

describe('background memory work fires when it is worth it', () => {
  it('after an update, the notes wait for 3/4 of the verbatim tail of new conversation; extraction alone waits three prompts', async () => {
    const { dir, notesPath, agent, backgroundSince } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'Loaded.' }] }, { content: [notesEdit(notesPath, 'Rows.'), memoryWrite(dir, 'feedback_terse')] });
    await agent.submit(`Look at this:\n${bulk(1200)}`);
    await agent.drain();
    assert.equal(backgroundSince().length, 1);
    const perPrompt: number[] = [];
    for (let i = 1; i <= 3; i++) {
      // About 6k tokens each: past the seed's 5k, short of the 30k lag a 200k window allows.
      standin.enqueue({ content: [{ type: 'text', text: `Answer ${i}.` }] });
      if (i === 3) standin.enqueue({ when: MEMORY_ASK, content: [{ type: 'text', text: 'Nothing to save.' }] });
      await agent.submit(`Part ${i}:\n${bulk(450, `p${i}`)}`);
      await agent.drain();
      const bg = backgroundSince();
      perPrompt.push(bg.length);
      for (const r of bg) assert.doesNotMatch(lastUser(r), /Update the session notes/, `prompt ${i}: the notes are not due yet`);
    }
    assert.deepEqual(perPrompt, [0, 0, 1], 'extraction alone after the third prompt since the last one');
  });

  it('a session\'s first loop is read by extraction at once, even when the notes are not due', async () => {
    const { dir, agent, backgroundSince } = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'Noted.' }] }, { when: MEMORY_ASK, content: [memoryWrite(dir, 'feedback_terse')] });
    await agent.submit("Don't write summaries at the end, I read the diff.");
    await agent.drain();
    const bg = backgroundSince();
    assert.equal(bg.length, 1);
    assert.doesNotMatch(lastUser(bg[0]!), /Update the session notes/, 'under 10k tokens: no notes yet');
    assert.deepEqual((await new MemoryDir(dir).list()).valid.map((m) => m.name), ['feedback_terse']);
  });

  it('a continued session (a new agent on the same history, as `threadline -c` runs) remembers how far both jobs read', async () => {
    const first = setup();
    standin.enqueue({ content: [{ type: 'text', text: 'Loaded.' }] }, { content: [notesEdit(first.notesPath, 'Rows.'), memoryWrite(first.dir, 'feedback_terse')] });
    await first.agent.submit(`Look at this:\n${bulk(1200)}`);
    await first.agent.drain();
    assert.equal(first.backgroundSince().length, 1);
    const second = setup({ cwd: first.cwd, dir: first.dir });
    second.agent.setHistory([...first.agent.messages]);
    second.backgroundSince();
    standin.enqueue({ content: [{ type: 'text', text: 'Sure.' }] });
    await second.agent.submit(`And this:\n${bulk(450, 'more')}`);
    await second.agent.drain();
    assert.equal(second.backgroundSince().length, 0, 'nothing due: neither job starts over from the beginning');
  });
});
